package org.mflb.fluid.diffusion;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntConsumer;

import org.mflb.core.ErrorKind;
import org.mflb.core.MflbException;


/**
 * The stationary law of the Halfin–Whitt JSQ diffusion (docs/models.md §9) with error control, by
 * two independent routes:
 * <ul>
 * <li>{@link #stationary}: the Kushner lattices {@link HalfinWhittLattice} of steps
 * {@code h = 0.05·2^{-m}}, each solved exactly by {@link LevelReduction}, extrapolated to h = 0
 * (Richardson–Neville; the error of each lattice is {@code c₁h + c₂h² + ...}) until the error
 * estimate of the moments is below the tolerance;</li>
 * <li>{@link #fromPrelimit}: the exact N-server chains {@link JsqPrelimit} extrapolated in
 * {@code h = N^{-1/2}} (their error {@code E X₂^N − E X₂ ≈ c₁/√N} being Braverman's rate).</li>
 * </ul>
 * Tails are computed at points rounded to multiples of the coarsest step 0.05, so that every lattice
 * has them on its grid.
 */
public final class HalfinWhittLimit {

    /** Coarsest lattice step. */
    public static final double COARSEST_STEP = 0.05;
    /** Finest lattice step tried. */
    public static final double FINEST_STEP = COARSEST_STEP / 64;

    /**
     * An extrapolated law.
     *
     * @param value the extrapolated statistics
     * @param error the error estimates of each statistic (same layout)
     * @param steps the steps h used
     * @param chains the statistics of each chain, coarsest first
     */
    public record Result(HalfinWhittStatistics value, HalfinWhittStatistics error, double[] steps,
            List<HalfinWhittStatistics> chains) {

        /** Copies. */
        public Result {
            steps = steps.clone();
            chains = List.copyOf(chains);
        }

        @Override
        public double[] steps() {
            return steps.clone();
        }

        /** @return the largest error estimate of E X₂, Var X₁, Var X₂, Cov */
        public double momentError() {
            return Math.max(Math.max(error.meanX2(), error.varX1()), Math.max(error.varX2(), error.covX1X2()));
        }
    }

    private HalfinWhittLimit() {
    }

    /**
     * @param model β
     * @param tolerance the target error of the moments, in [1e-9, 0.1]
     * @param tailPoints the tail points x ≥ 0 (rounded to multiples of {@link #COARSEST_STEP})
     * @param progress told the index of each lattice solved (may be null)
     * @return the extrapolated law
     * @throws MflbException of kind NO_CONVERGENCE if the finest step does not reach the tolerance
     */
    public static Result stationary(HalfinWhittJsq model, double tolerance, double[] tailPoints, IntConsumer progress) {
        if (!(tolerance >= 1e-9 && tolerance <= 0.1)) {
            throw MflbException.invalid("tolerance", tolerance, "in [1e-9, 0.1]");
        }
        double[] points = alignedPoints(tailPoints);
        List<Double> steps = new ArrayList<>();
        List<double[]> values = new ArrayList<>();
        List<HalfinWhittStatistics> chains = new ArrayList<>();
        Result result = null;
        for (double h = COARSEST_STEP; h >= FINEST_STEP * (1 - 1e-9); h /= 2) {
            HalfinWhittStatistics s = HalfinWhittStatistics.of(LevelReduction.stationary(model.lattice(h), true), points);
            if (progress != null) {
                progress.accept(steps.size());
            }
            steps.add(h);
            values.add(s.toVector());
            chains.add(s);
            if (steps.size() >= 3) {
                result = extrapolate(steps, values, chains, points);
                if (result.momentError() <= tolerance) {
                    return result;
                }
            }
        }
        throw new MflbException(ErrorKind.NO_CONVERGENCE, "tolerance", "the lattice extrapolation reached an error "
                + "estimate of " + (result == null ? "?" : result.momentError()) + " at h = " + FINEST_STEP
                + ", above tolerance = " + tolerance);
    }

    /**
     * The limit by the second route: exact prelimits at the given N, extrapolated in {@code N^{-1/2}}.
     *
     * @param model β
     * @param servers increasing N (at least two)
     * @param tailPoints tail points (P(X₂ > x) only; the X₁ tail is not extrapolated here and is NaN)
     * @return the extrapolated law
     */
    public static Result fromPrelimit(HalfinWhittJsq model, int[] servers, double[] tailPoints) {
        if (servers.length < 2) {
            throw MflbException.invalid("n", servers.length + " values", "at least two values of N");
        }
        double[] points = tailPoints.clone();
        List<Double> steps = new ArrayList<>();
        List<double[]> values = new ArrayList<>();
        List<HalfinWhittStatistics> chains = new ArrayList<>();
        for (int i = 0; i < servers.length; i++) {
            if (i > 0 && servers[i] <= servers[i - 1]) {
                throw MflbException.invalid("n", servers[i], "increasing values of N");
            }
            HalfinWhittStatistics s = HalfinWhittStatistics.of(LevelReduction.stationary(model.prelimit(servers[i]),
                    false), points);
            steps.add(1 / Math.sqrt(servers[i]));
            values.add(s.toVector());
            chains.add(s);
        }
        return extrapolate(steps, values, chains, points);
    }

    private static Result extrapolate(List<Double> steps, List<double[]> values, List<HalfinWhittStatistics> chains,
            double[] points) {
        double[] h = steps.stream().mapToDouble(Double::doubleValue).toArray();
        double[][] r = Extrapolation.toZero(h, values.toArray(new double[0][]));
        return new Result(HalfinWhittStatistics.fromVector(r[0], points), HalfinWhittStatistics.fromVector(r[1], points),
                h, chains);
    }

    /** @return the points rounded to multiples of {@link #COARSEST_STEP}, each ≥ 0 */
    static double[] alignedPoints(double[] tailPoints) {
        double[] points = new double[tailPoints.length];
        for (int i = 0; i < points.length; i++) {
            double x = tailPoints[i];
            if (!(x >= 0 && x <= 1000)) {
                throw MflbException.invalid("tail point", x, "in [0, 1000]");
            }
            points[i] = Math.round(x / COARSEST_STEP) * COARSEST_STEP;
        }
        return points;
    }

}
