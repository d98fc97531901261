package org.mflb.fluid.memory;

/**
 * The drift of SQ(d) with memory with active level {@code ℓ} ({@code docs/models.md §1a}), on the
 * state {@code y_{i,j}} ({@code 0 ≤ i ≤ j ≤ K}), with {@code β = λd} the rate at which a server is
 * sampled and {@code α = λF_ℓ/M_ℓ}:
 *
 * <pre>
 * dy_{i,j}/dt =  y_{i+1,j}·1{i&lt;j} − y_{i,j}·1{i≥1}                       (departures, unobserved)
 *             − β y_{i,j}·1{j&gt;i}                                        (sampled: observation refreshed)
 *             + β 1{j=i&gt;ℓ} Σ_{j'&gt;i} y_{i,j'}                            (sampled with Q = i &gt; ℓ → (i,i))
 *             + β 1{i=j=ℓ} [ Σ_{j'&gt;ℓ} y_{ℓ,j'} + Σ_{i'&lt;ℓ} z_{i'} ]       (Q = ℓ → (ℓ,ℓ); Q &lt; ℓ lifted to (ℓ,ℓ))
 *             − α 1{j=ℓ} y_{i,ℓ} + α 1{j=ℓ+1, i≥1} y_{i−1,ℓ}                (jobs to the active level)
 * </pre>
 *
 * A sampled server below the active level gets an observation under every other one and, on the
 * fast time scale, receives {@code ℓ − Q} jobs back to back: the levels below {@code ℓ} carry no mass
 * but pass the share {@code d(1 − x_{k+1})} of arrivals each; the rest, {@code F_ℓ}, reaches the active
 * level. The job flux {@code α y_{i,ℓ} = λF_ℓ c_i} is written with the composition {@code c} of
 * {@link MemoryLattice#composition}, bounded as {@code M_ℓ → 0}.
 *
 * <p>The piece is integrated in coordinates where {@code y_{ℓ,ℓ}} is replaced by {@code M_ℓ}, whose
 * zero ends the piece (the level is emptied), and whose drift is then
 * {@code dM_ℓ/dt = −λF_{ℓ+1} − βM_ℓ}.
 */
final class MemoryDrift {

    private final MemoryLattice lattice;
    private final int d;
    private final int ell;
    /** Work arrays: the state and its queue law (the drift is evaluated without allocating; not thread-safe). */
    private final double[] state;
    private final double[] law;

    MemoryDrift(MemoryLattice lattice, int d, int ell) {
        this.lattice = lattice;
        this.d = d;
        this.ell = ell;
        this.state = new double[lattice.size];
        this.law = new double[lattice.levels + 1];
    }

    int activeLevel() {
        return ell;
    }

    /** @return the coordinates of state {@code y}: {@code y} with {@code y_{ℓ,ℓ}} replaced by {@code M_ℓ} */
    double[] encode(double[] y) {
        double[] u = y.clone();
        u[MemoryLattice.index(ell, ell)] = MemoryLattice.mass(y, ell);
        return u;
    }

    /** @return the state {@code y} of coordinates {@code u} (a new array) */
    double[] decode(double[] u) {
        double[] y = new double[u.length];
        decode(u, y);
        return y;
    }

    /** Sets {@code y} to the state of coordinates {@code u}. */
    private void decode(double[] u, double[] y) {
        System.arraycopy(u, 0, y, 0, u.length);
        int base = MemoryLattice.index(0, ell);
        double lower = 0;
        for (int i = 0; i < ell; i++) {
            lower += u[base + i];
        }
        y[base + ell] = u[base + ell] - lower;
    }

    /** @return {@code M_ℓ} from coordinates */
    double activeMass(double[] u) {
        return u[MemoryLattice.index(ell, ell)];
    }

    /** @return {@code F_ℓ} from coordinates */
    double poolShare(double[] u) {
        decode(u, state);
        lattice.queueLaw(state, law);
        return MemoryLattice.poolShare(law, d, ell);
    }

    /**
     * The drift in state coordinates.
     *
     * @param lambda {@code λ(t)}
     * @param y state; not modified
     * @param f drift; overwritten
     */
    void driftOfState(double lambda, double[] y, double[] f) {
        int k = lattice.levels;
        double beta = lambda * d;
        java.util.Arrays.fill(f, 0.0);
        double[] z = law;
        lattice.queueLaw(y, z);
        double lifted = 0;
        for (int i = 0; i < ell; i++) {
            lifted += z[i];
        }
        for (int j = 0; j <= k; j++) {
            int base = MemoryLattice.index(0, j);
            double refreshed = 0;
            for (int i = 0; i <= j; i++) {
                double v = y[base + i];
                double g = 0;
                if (i < j) {
                    g += y[base + i + 1] - beta * v;
                }
                if (i >= 1) {
                    g -= v;
                }
                f[base + i] += g;
            }
            // sampled servers with Q = j and observation > j land at (j, j) when j ≥ ℓ
            if (j >= ell) {
                for (int jj = j + 1; jj <= k; jj++) {
                    refreshed += y[MemoryLattice.index(j, jj)];
                }
                f[base + j] += beta * refreshed;
            }
        }
        int active = MemoryLattice.index(0, ell);
        f[active + ell] += beta * lifted;
        // the composition c of MemoryLattice#composition, inline
        double flux = lambda * MemoryLattice.poolShare(z, d, ell);
        double m = Math.max(MemoryLattice.mass(y, ell), MemoryLattice.EMPTY_LEVEL);
        int next = MemoryLattice.index(0, ell + 1);
        double lower = 0;
        for (int i = 0; i < ell; i++) {
            double c = Math.max(y[active + i], 0.0) / m;
            lower += c;
            double jobs = flux * c;
            f[active + i] -= jobs;
            f[next + i + 1] += jobs;
        }
        double jobs = flux * Math.max(0.0, 1.0 - lower);
        f[active + ell] -= jobs;
        f[next + ell + 1] += jobs;
    }

    /** The drift in the piece's coordinates ({@code y_{ℓ,ℓ}} replaced by {@code M_ℓ}). */
    void derivatives(double lambda, double[] u, double[] f) {
        double[] y = state;
        decode(u, y);
        driftOfState(lambda, y, f);
        int base = MemoryLattice.index(0, ell);
        double dm = 0;
        for (int i = 0; i <= ell; i++) {
            dm += f[base + i];
        }
        f[base + ell] = dm;
    }
}
