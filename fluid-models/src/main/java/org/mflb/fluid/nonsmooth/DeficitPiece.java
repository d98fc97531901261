package org.mflb.fluid.nonsmooth;

import org.mflb.core.ode.IntegratorSettings;
import org.mflb.core.ode.LocalRate;
import org.mflb.core.ode.SwitchedIntegrator;

/**
 * Regime (a) of threshold {@code ℓ ≥ 1} in infinite-server pools ({@code μ_j = j}), integrated in
 * the coordinates {@code y = (G, x_{ℓ+1}, ..., x_K)} with the deficit
 * {@code G = Σ_{i≤ℓ} (1 − x_i)}. Summing [GABL] eq. (2)(a) over {@code i ≤ ℓ} (every arrival
 * lands below {@code ℓ}, and {@code Σ_{i≤ℓ} i (x_i − x_{i+1}) = Σ_{i≤ℓ} x_i − ℓ x_{ℓ+1}}) gives
 * <pre>
 *   dG/dt   = ℓ (1 − x_{ℓ+1}) − λ(t) − G,
 *   dx_j/dt = −j (x_j − x_{j+1}),   j &gt; ℓ   (no arrivals above ℓ),
 * </pre>
 * a linear system free of the factor {@code 1/(1 − x_ℓ)}: it is integrated with Dormand–Prince like
 * any other piece, and the piece ends when {@code G} reaches 0 ({@code x_ℓ} reaches 1), a regular
 * crossing in finite time when {@code λ > ℓ(1 − x_{ℓ+1})}. When {@code λ = ℓ} and
 * {@code x_{ℓ+1} = 0}, {@code G} decays like {@code e^{−t}} and never reaches 0: the piece ends when
 * it falls to {@link NonSmoothPolicy#ON_SURFACE} (mass moved by pinning: at most that). How
 * {@code G} splits among the levels, {@code g_1..g_{ℓ−1}} and {@code 1 − x_ℓ = G − Σ g}, is stiff
 * and is integrated alongside by {@link LowerGaps}; it does not feed back into {@code y}.
 * For the learning threshold this piece is used while {@code G} is small (then
 * {@code x_ℓ ≥ 1 − G > α}); above {@code 2·gLow} it hands over to {@link GapPiece}.
 */
final class DeficitPiece extends Piece {

    private static final int FILLED_NEAR = 0;
    private static final int FILLED_EXACT = 1;

    private final int ell;
    private final LowerGaps lower;
    private final double[] peeked;
    private final double drop;
    private final double handOver;
    private final int[] kinds;

    /**
     * @param drop {@code 1 − α} for a learning threshold with {@code ℓ = 1} (then {@code 1 − x_ℓ = G}), NaN otherwise
     * @param handOver the deficit above which {@link GapPiece} takes over, or NaN
     */
    DeficitPiece(Regime regime, int levels, double[] mu, LocalRate lambda, IntegratorSettings settings,
            double drop, double handOver) {
        super(regime, levels, mu, lambda);
        this.ell = regime.threshold();
        for (int j = 1; j <= levels; j++) {
            if (mu[j - 1] != j) {
                throw new IllegalStateException("regime (a) is implemented for infinite-server pools only");
            }
        }
        this.lower = ell >= 2 ? new LowerGaps(ell, lambda, settings) : null;
        this.peeked = new double[Math.max(0, ell - 1)];
        this.drop = drop;
        this.handOver = handOver;
        int count = 2 + (Double.isNaN(drop) ? 0 : 1) + (Double.isNaN(handOver) ? 0 : 1);
        this.kinds = new int[count];
        int k = 0;
        kinds[k++] = FILLED_NEAR;
        kinds[k++] = FILLED_EXACT;
        if (!Double.isNaN(drop)) {
            kinds[k++] = 2;
        }
        if (!Double.isNaN(handOver)) {
            kinds[k] = 3;
        }
    }

    @Override
    int dimension() {
        return 1 + levels - ell;
    }

    @Override
    double[] encode(double t, double[] x, double[] gap) {
        double[] y = new double[1 + levels - ell];
        double deficit = 0;
        for (int j = ell - 1; j >= 0; j--) {
            deficit += gap[j];
        }
        y[0] = deficit;
        System.arraycopy(x, ell, y, 1, levels - ell);
        if (lower != null) {
            lower.reset(t, gap);
        }
        return y;
    }

    @Override
    void derivatives(double t, double[] y, double[] f) {
        double next = levels > ell ? y[1] : 0.0;
        f[0] = (ell - lambda.at(t)) - ell * next - y[0]; // grouped: no cancellation against a tiny G
        for (int j = ell + 1; j <= levels; j++) {
            double xj = y[j - ell];
            double above = j < levels ? y[j - ell + 1] : 0.0;
            f[j - ell] = -mu[j - 1] * (xj - above);
        }
    }

    @Override
    int switches() {
        return kinds.length;
    }

    @Override
    double switchingFunction(int k, double t, double[] y) {
        return switch (kinds[k]) {
            case FILLED_NEAR -> NonSmoothPolicy.ON_SURFACE - y[0]; // asymptotic approach (λ = ℓ)
            case FILLED_EXACT -> -y[0]; // a deficit that never grew beyond ON_SURFACE
            case 2 -> y[0] - drop;
            default -> y[0] - handOver;
        };
    }

    /** Every switching function reads the first coordinate alone. */
    @Override
    int[] switchingCoordinates() {
        return FIRST;
    }

    @Override
    Regime.Surface surface(int k) {
        return switch (kinds[k]) {
            case FILLED_NEAR, FILLED_EXACT -> Regime.Surface.FILLED;
            case 2 -> Regime.Surface.THRESHOLD_DROP;
            default -> null;
        };
    }

    @Override
    void clockRestarted() {
        if (lower != null) {
            lower.clockRestarted();
        }
    }

    /** The lower gaps follow the step, driven by the deficit {@code G(t)} of its polynomial. */
    @Override
    void stepDone(SwitchedIntegrator.Step step) {
        if (lower != null) {
            lower.advanceTo(step.localEnd(), time -> step.localComponent(0, time));
        }
    }

    /** At a time within the step, the lower gaps are integrated there on a copy (the path is the same whatever the grid). */
    @Override
    void decodeWithin(SwitchedIntegrator.Step step, double t, double[] y, double[] x, double[] gap) {
        if (lower == null) {
            decode(y, null, x, gap);
            return;
        }
        lower.peek(t, time -> step.localComponent(0, time), peeked);
        decode(y, peeked, x, gap);
    }

    /**
     * Without the lower gaps ({@code ℓ = 1}) a {@link LinearRelaxation}: {@code a = 1},
     * {@code y_0* = ℓ − λ}, {@code b = ℓ}, {@code μ_i = ℓ + i}; every switching function is affine in {@code G}.
     */
    @Override
    LinearRelaxation relaxation(double t) {
        return lower != null ? null : new LinearRelaxation(ell - lambda.at(t), 1.0, ell, ell + 1.0);
    }

    @Override
    void decode(double t, double[] y, double[] x, double[] gap) {
        decode(y, lower == null ? null : lower.gaps(), x, gap);
    }

    private void decode(double[] y, double[] lowerGaps, double[] x, double[] gap) {
        double top = y[0];
        for (int j = 0; j < ell - 1; j++) {
            gap[j] = lowerGaps[j];
            top -= lowerGaps[j];
        }
        gap[ell - 1] = top;
        for (int j = 0; j < ell; j++) {
            x[j] = 1.0 - gap[j];
        }
        System.arraycopy(y, 1, x, ell, levels - ell);
        gapsFromTail(x, gap, ell);
    }
}
