package org.mflb.pde;

import org.mflb.core.MflbException;
import org.mflb.core.model.InitialState;

/**
 * The state a PDE transient starts from: an {@link InitialState} (the tail vector
 * {@code (1, x_1, ..., x_k)}, shared with the fluid models and the simulator) plus what only the PDE
 * needs, the ages of the jobs in service: they either all start at age 0 ({@link Ages#FRESH}) or have
 * the equilibrium age density {@code Ḡ(a)/E[S]} ({@link Ages#EQUILIBRIUM}, i.e. residual service
 * times distributed as in a renewal process in equilibrium; docs/models.md §5). Command-line syntax:
 * {@code empty | tail:1,0.8,0.3 | all:K} (fresh ages) or {@code tail-eq:1,0.8,0.3} (equilibrium
 * ages). The fixed point is not a PDE start (the PDE's equilibrium is {@link HydrodynamicPde#equilibrium()}).
 */
public final class PdeInitialState {

    /** Age of the jobs in service at the start. */
    public enum Ages {
        /** All jobs in service have age 0 (they have just started). */
        FRESH,
        /** Ages with the equilibrium density {@code Ḡ(a)/E[S]}. */
        EQUILIBRIUM
    }

    /** The PDE's own form: a tail vector whose jobs in service have equilibrium ages. */
    private static final String EQUILIBRIUM_PREFIX = "tail-eq:";
    private static final String FORMS =
            "one of empty, tail:1,x1,x2,..., all:K (jobs in service at age 0) or tail-eq:1,x1,... (equilibrium ages)";

    private static final PdeInitialState EMPTY = new PdeInitialState(InitialState.empty(), Ages.FRESH);

    private final InitialState occupancy;
    private final Ages ages;

    private PdeInitialState(InitialState occupancy, Ages ages) {
        this.occupancy = occupancy;
        this.ages = ages;
    }

    /** @return every server empty */
    public static PdeInitialState empty() {
        return EMPTY;
    }

    /**
     * @param occupancy the tail vector at the start (not the fixed point)
     * @param ages how old the jobs in service are
     * @return that state
     */
    public static PdeInitialState of(InitialState occupancy, Ages ages) {
        if (occupancy == null || occupancy.kind() == InitialState.Kind.FIXED_POINT) {
            throw MflbException.invalid(InitialState.PARAMETER, occupancy, FORMS);
        }
        if (ages == null) {
            throw MflbException.invalid("ages", null, "FRESH or EQUILIBRIUM");
        }
        return new PdeInitialState(occupancy, ages);
    }

    /**
     * @param ages how old the jobs in service are
     * @param tail {@code (x_0 = 1, x_1, ..., x_k)}, non-increasing in [0, 1]
     * @return that state
     */
    public static PdeInitialState tail(Ages ages, double... tail) {
        return of(InitialState.tail(tail), ages);
    }

    /** Parses {@code empty | tail:1,x1,... | all:K | tail-eq:1,x1,...}. */
    public static PdeInitialState parse(String spec) {
        String s = spec == null ? "" : spec.trim();
        if (s.startsWith(EQUILIBRIUM_PREFIX)) {
            return new PdeInitialState(InitialState.parseTail(spec, EQUILIBRIUM_PREFIX), Ages.EQUILIBRIUM);
        }
        // the shared forms, except the fixed point (which would otherwise be accepted by InitialState.parse)
        if (s.equals("empty") || s.startsWith("tail:") || s.startsWith("all:")) {
            return new PdeInitialState(InitialState.parse(spec), Ages.FRESH);
        }
        throw MflbException.invalid(InitialState.PARAMETER, spec, FORMS);
    }

    /** @return the tail vector at the start */
    public InitialState occupancy() {
        return occupancy;
    }

    /** @return how old the jobs in service are */
    public Ages ages() {
        return ages;
    }

    /** @return number of levels occupied */
    public int occupiedLevels() {
        return occupancy.occupiedLevels();
    }

    /**
     * The PDE's reading of the tail vector: {@code m_k = x_k − x_{k+1}}, the mass of servers with
     * exactly {@code k} jobs.
     *
     * @return {@code (m_1, ..., m_K)}, {@code K = occupiedLevels()}
     */
    double[] exactMasses() {
        double[] x = occupancy.levels(occupancy.occupiedLevels());
        double[] m = new double[x.length];
        for (int k = 0; k < x.length; k++) {
            m[k] = x[k] - (k + 1 < x.length ? x[k + 1] : 0.0);
        }
        return m;
    }

    /** @return the command-line form, e.g. {@code tail:1,0.8,0.3} or {@code tail-eq:1,0.8,0.3} */
    @Override
    public String toString() {
        if (occupancy.occupiedLevels() == 0) {
            return "empty";
        }
        if (occupancy.kind() == InitialState.Kind.ALL && ages == Ages.FRESH) {
            return occupancy.toString();
        }
        StringBuilder sb = new StringBuilder(ages == Ages.FRESH ? "tail:1" : EQUILIBRIUM_PREFIX + "1");
        for (double v : occupancy.levels(occupancy.occupiedLevels())) {
            sb.append(',').append(v);
        }
        return sb.toString();
    }
}
