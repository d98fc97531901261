package org.mflb.pde.workload;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.mflb.core.sojourn.Percentiles;
import org.mflb.core.sojourn.SojournLaw;

/**
 * The equilibrium of LL(d) (docs/models.md §11.1–11.3): the workload ccdf {@code F̄}, the waiting
 * time {@code W = U} ({@code P(W > w) = F̄(w)^d}, atom {@code 1 − λ^d} at 0) and the response time
 * {@code R = W + X} as {@link SojournLaw}s, their means, and how accurately they were obtained. Every
 * value is the Richardson extrapolation over the last two grids of the march; the error estimates are
 * the changes of those extrapolations between the last two pairs of grids (conservative). An infinite
 * mean ({@link #hasFiniteMean()} false) is reported as {@code +∞} with its reason; the laws and their
 * quantiles stay finite. Immutable.
 */
public final class WorkloadEquilibrium {

    /** A requested quantile with its error estimate. */
    public record Quantile(double percentile, double value, double errorEstimate) {
    }

    private final LeastLoaded model;
    private final double tolerance;
    private final Percentiles percentiles;
    private final EquilibriumSolver.ExtrapolatedLaws laws;
    private final WorkloadGrid coarse;
    private final WorkloadGrid fine;
    private final double meanWait;
    private final double meanWork;
    private final double errorEstimate;
    private final double[][] quantiles;
    private final SojournLaw waiting;
    private final SojournLaw response;

    WorkloadEquilibrium(LeastLoaded model, double tolerance, Percentiles percentiles,
            EquilibriumSolver.ExtrapolatedLaws laws, WorkloadGrid coarse, WorkloadGrid fine, double meanWait,
            double meanWork, double errorEstimate, double[][] quantiles) {
        this.model = model;
        this.tolerance = tolerance;
        this.percentiles = percentiles;
        this.laws = laws;
        this.coarse = coarse;
        this.fine = fine;
        this.meanWait = meanWait;
        this.meanWork = meanWork;
        this.errorEstimate = errorEstimate;
        this.quantiles = quantiles;
        this.waiting = laws.waiting();
        this.response = laws.response();
    }

    /** @return the model */
    public LeastLoaded model() {
        return model;
    }

    /** @return whether {@code E[W]} and {@code E[R]} are finite */
    public boolean hasFiniteMean() {
        return Double.isFinite(meanWait);
    }

    /** @return why the mean is infinite ({@link LeastLoaded#infiniteMeanReason()}), empty when it is finite */
    public Optional<String> infiniteMeanReason() {
        return model.infiniteMeanReason();
    }

    /** @return {@code E[W] = ∫_0^∞ F̄(w)^d dw}, {@code +∞} when infinite */
    public double meanWaitingTime() {
        return meanWait;
    }

    /** @return {@code E[R] = 1 + E[W]}, {@code +∞} when infinite */
    public double meanResponseTime() {
        return 1 + meanWait;
    }

    /**
     * @return the mean workload of a server {@code ∫_0^∞ F̄(w) dw}, which equals
     *         {@code λ(E[W] + E[X²]/2)} (a work-conservation identity; {@code +∞} when {@code E[W]} is)
     */
    public double meanWorkload() {
        return meanWork;
    }

    /** @return {@code P(W = 0) = 1 − λ^d} */
    public double idleShare() {
        return model.idleShare();
    }

    /** @return {@code F̄(w) = P(V > w)}, the workload ccdf of a server (1 for {@code w < 0}) */
    public double workloadSurvival(double w) {
        if (w < 0) {
            return 1.0;
        }
        return laws.workload(w);
    }

    /** @return the waiting time's law: {@code P(W > w) = F̄(w)^d}, atom {@code 1 − λ^d} at 0 */
    public SojournLaw waitingTime() {
        return waiting;
    }

    /**
     * @return the response time's law: {@code P(R > t) = Ḡ(t) + ∫_{(0,t]} F̄(t − s)^d dG(s)} (for
     *         deterministic sizes {@code F̄(t − 1)^d} from {@code t = 1} on)
     */
    public SojournLaw responseTime() {
        return response;
    }

    /**
     * @return the grid's step {@code h} and the extrapolated nodal values {@code F̄(kh)},
     *         {@code k h ∈ [0, reach]}, on the coarser of the last two grids
     */
    public double gridStep() {
        return coarse.step();
    }

    /** @return {@code F̄} at the nodes {@code k·gridStep()} up to {@link #reach()} (Richardson-extrapolated) */
    public double[] workloadNodes() {
        double[] c = coarse.nodes();
        double[] f = fine.nodes();
        double[] out = new double[c.length];
        for (int k = 0; k < c.length; k++) {
            out[k] = Math.min(1.0, Math.max(0.0, (4 * f[2 * k] - c[k]) / 3));
        }
        return out;
    }

    /**
     * @return {@code w_max}, where the grid ends; beyond it {@code F̄} is continued by
     *         {@code λ P(U' + Xe > w)} with {@code U'} the grid's part of {@code U}'s law (a lower bound)
     */
    public double reach() {
        return fine.reach();
    }

    /** @return the finest step used */
    public double finestStep() {
        return fine.step();
    }

    /** @return the tail term {@code ∫_{reach}^∞ F̄^d} included in {@code E[W]} (finest grid) */
    public double tailTerm() {
        return fine.tail().waitTail();
    }

    /** @return the requested relative tolerance */
    public double tolerance() {
        return tolerance;
    }

    /**
     * @return the estimated absolute error of {@code E[R]} (and {@code E[W]}): the change of the
     *         extrapolated value between the last two pairs of grids plus the tail term's
     *         uncertainty; NaN for an infinite mean
     */
    public double errorEstimate() {
        return errorEstimate;
    }

    /** @return {@link #errorEstimate()} relative to {@code E[R]} */
    public double relativeErrorEstimate() {
        return errorEstimate / meanResponseTime();
    }

    /** @return the requested response-time quantiles with their error estimates (empty when none were asked for) */
    public List<Quantile> responseQuantiles() {
        return quantileList(1);
    }

    /** @return the requested waiting-time quantiles with their error estimates */
    public List<Quantile> waitingQuantiles() {
        return quantileList(3);
    }

    private List<Quantile> quantileList(int column) {
        List<Quantile> out = new ArrayList<>();
        for (double[] row : quantiles) {
            out.add(new Quantile(row[0], row[column], row[column + 1]));
        }
        return out;
    }

    /** @return the percentiles the error control covered, or null */
    public Percentiles percentiles() {
        return percentiles;
    }
}
