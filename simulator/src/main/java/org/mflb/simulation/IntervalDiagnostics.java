package org.mflb.simulation;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;

import org.mflb.core.distribution.ServiceDistribution;
import org.mflb.simulation.engine.Replication;

/**
 * When the 95% confidence intervals of a steady-state simulation cannot be trusted, and why. The
 * intervals assume the replication (or batch) means are approximately normal and independent and
 * that the warm-up removed the initial transient; they are refused trust when
 * <ul>
 * <li>the service time has infinite variance (e.g. Pareto shape ≤ 2): no central limit theorem at
 *     rate {@code 1/√T}, and the intervals are too narrow whatever the run length;</li>
 * <li>an exact law of every policy fails: the fraction of busy single-server queues is
 *     {@code x_1 = λE[S]} (work conservation) and the mean number of jobs per infinite-server pool
 *     is {@code λE[S]} (Little's law); an interval that excludes it shows a too-short run or warm-up
 *     (heavy-tailed or highly variable service relaxes slowly);</li>
 * <li>batch means over batches of too few events (strongly correlated batches).</li>
 * </ul>
 * and a per-job response-time quantile at an end of the histogram's range (see {@link Replication})
 * is only a bound: at most the floor, at least the ceiling.
 */
public final class IntervalDiagnostics {

    /** Fewer events per batch than this and batch means are correlated: the interval is too narrow. */
    static final long MIN_EVENTS_PER_BATCH = 1000;
    /** Joint check of the exact law: it is rejected only if outside the interval widened by this factor. */
    private static final double SLACK = 1.5;

    private IntervalDiagnostics() {
    }

    /**
     * @param result a simulation's result
     * @return one line per reason the intervals cannot be trusted (empty when none is known)
     */
    public static List<String> warnings(SimulationResult result) {
        SimulationScenario sc = result.scenario();
        List<String> warnings = new ArrayList<>();
        OptionalDouble load = sc.stationaryLoad();
        if (load.isEmpty()) {
            return warnings;
        }
        ServiceDistribution service = sc.model().service();
        if (!Double.isFinite(service.scv())) {
            warnings.add("service " + service.spec() + " has infinite variance: the 95% intervals are not valid"
                    + " (no central limit theorem; they are too narrow at any run length)");
        }
        double exact = load.getAsDouble();
        Estimate observed = switch (sc.model().system().kind()) {
            case SUPERMARKET -> result.tail().size() > 1 ? result.tail().get(1) : null;
            case POOLS -> result.meanQueueLength();
            case LOSS -> null;
        };
        if (observed != null && observed.samples() >= 2 && Double.isFinite(observed.halfWidth())
                && Math.abs(observed.mean() - exact) > SLACK * observed.halfWidth() + 1e-12) {
            String what = sc.isQueue() ? "busy fraction x_1" : "mean jobs per pool";
            warnings.add(String.format(Locale.ROOT, "the %s interval [%.6g, %.6g] excludes its exact value lambda E[S] = %.6g:"
                    + " the run (t-end %s, warm-up %s) is too short for the correlation time of this system, and its"
                    + " intervals are too narrow to be trusted (raise t-end and warm-up)", what, observed.ci95Low(),
                    observed.ci95High(), exact, sc.run().tEnd(), sc.run().warmup()));
        }
        double floor = Math.scalb(service.mean(), -Replication.RESPONSE_FLOOR_EXPONENT);
        double ceiling = Math.scalb(service.mean(), Replication.RESPONSE_CEILING_EXPONENT);
        for (QuantileEstimate q : result.perJobResponseTimeQuantiles().orElse(List.of())) {
            double v = q.estimate().mean();
            if (v <= floor * (1 + 1e-3) || v >= ceiling * (1 - 1e-3)) {
                warnings.add(String.format(Locale.ROOT, "response time p%s = %.6g is at the %s of the recorded range"
                        + " [2^-%d, 2^%d] x E[S]: the quantile is %s %.6g, not an estimate", new java.math.BigDecimal(Double.toString(q.p())).stripTrailingZeros().toPlainString(),
                        v, v <= floor * (1 + 1e-3) ? "floor" : "ceiling", Replication.RESPONSE_FLOOR_EXPONENT,
                        Replication.RESPONSE_CEILING_EXPONENT, v <= floor * (1 + 1e-3) ? "at most" : "at least", v));
            }
        }
        if (sc.run().replications() == 1) {
            int batches = sc.observation().batches();
            double perBatch = (double) result.events() / batches;
            if (perBatch < MIN_EVENTS_PER_BATCH) {
                warnings.add(String.format(Locale.ROOT, "%d batches of about %.0f events each: batch means this short are"
                        + " correlated and the intervals too narrow (use fewer batches, at least %d events each, or"
                        + " a longer t-end)", batches, perBatch, MIN_EVENTS_PER_BATCH));
            }
        }
        return warnings;
    }
}
