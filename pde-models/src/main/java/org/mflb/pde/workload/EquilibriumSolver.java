package org.mflb.pde.workload;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleBiFunction;

import org.mflb.core.ErrorKind;
import org.mflb.core.MflbException;
import org.mflb.core.sojourn.Percentiles;
import org.mflb.core.sojourn.SojournLaw;

/**
 * The error control of the equilibrium march (docs/models.md §11.2).
 * <ol>
 * <li><b>Reach.</b> On the coarsest grid ({@code h = 1/8}) the reach {@code w_max} doubles from 8
 * until the tail term's uncertainty ({@link TailTerm}) is below 5% of the tolerance on {@code E[R]}
 * (with {@code c = dλF̄(w_max)^{d−1} ≤ 1/2}; once its proven bound falls more slowly than
 * {@code w_max^{−2}}, as for Pareto sizes near the infinite-mean border, by solving the tail equation,
 * {@link TailEquation}, on this and the finer grids) and {@code P(R > w_max)} is below a tenth of
 * {@code 1 − p} for the largest percentile {@code p} asked for (99.9 when none is).</li>
 * <li><b>Step.</b> Grids {@code h_n = 2^{−n}/8} on that reach; the nodal values, {@code E[W]} and the
 * quantiles have an error {@code C h² + O(h⁴)} (integer nodes keep the deterministic law's kinks on
 * nodes), so {@code V_n = (4 V(h_n) − V(h_{n−1}))/3} removes the {@code h²} term. From three grids on,
 * {@code |V_n − V_{n−1}|} estimates the error of {@code V_n} (it is the error of {@code V_{n−1}},
 * about 16 times larger than that of {@code V_n} when the expansion holds: a conservative estimate);
 * grids are added until it meets the tolerance for {@code E[R]} (plus the tail uncertainty) and for
 * every requested quantile of {@code R} and {@code W}.</li>
 * </ol>
 */
final class EquilibriumSolver {

    /** The coarsest step (a power of two: the integers, where a deterministic law's kinks lie, are nodes). */
    static final double COARSEST_STEP = 0.125;
    /** The first reach tried. */
    static final double FIRST_REACH = 8;
    /** Largest number of nodes of one grid (memory: about 100 bytes per node). */
    static final int MAX_NODES = (1 << 20) + 1;
    /** Share of the tolerance granted to the tail term's uncertainty. */
    static final double TAIL_SHARE = 0.05;
    /** {@code P(R > w_max)} must be below this share of {@code 1 − p} for the largest percentile. */
    static final double REACH_SHARE = 0.1;

    private final LeastLoaded model;
    private final double tolerance;
    private final Percentiles percentiles;
    private final boolean finite;

    EquilibriumSolver(LeastLoaded model, double tolerance, Percentiles percentiles) {
        this.model = model;
        this.tolerance = tolerance;
        this.percentiles = percentiles;
        this.finite = model.hasFiniteMean();
    }

    WorkloadEquilibrium solve() {
        double largest = 99.9;
        if (percentiles != null) {
            largest = 0;
            for (double p : percentiles.values()) {
                largest = Math.max(largest, p);
            }
        }
        double reachTail = REACH_SHARE * (1 - largest / 100);
        // 1. the reach, on the coarsest grid
        VolterraMarch coarse = march(COARSEST_STEP);
        int nodes = VolterraMarch.roundedNodes((int) Math.ceil(FIRST_REACH / COARSEST_STEP) + 1);
        WorkloadGrid grid;
        // the tail equation is solved (TailTerm) once the proven bound falls more slowly than w_max^{-2}
        double sufficient = Double.POSITIVE_INFINITY;
        double previousBound = Double.NaN;
        while (true) {
            coarse.extendTo(nodes);
            grid = new WorkloadGrid(model, coarse, finite, sufficient);
            boolean enough = reachSuffices(grid, reachTail);
            if (!enough && finite && model.d() >= 2 && sufficient == Double.POSITIVE_INFINITY) {
                double bound = grid.tail().provenBound();
                if (bound > previousBound / 4) {
                    sufficient = TAIL_SHARE * tolerance;
                    grid = new WorkloadGrid(model, coarse, finite, sufficient);
                    enough = reachSuffices(grid, reachTail);
                }
                previousBound = bound;
            }
            // two halvings (three grids) must fit in the node budget
            if (4L * (nodes - 1) + 1 > MAX_NODES) {
                throw new MflbException(ErrorKind.TRUNCATION, "tolerance", String.format(Locale.ROOT,
                        "LL(%d) equilibrium: the workload tail is too long for the grid (reach %.4g, F(reach) = %.3g,"
                                + " P(R > reach) = %.3g, tail uncertainty %.3g relative to E[R]); ask for a larger"
                                + " tolerance or lower percentiles", model.d(), grid.reach(), grid.workloadAtReach(),
                        grid.responseSurvival(grid.reach()),
                        finite ? grid.tail().uncertainty() / (1 + grid.meanWait()) : Double.NaN));
            }
            if (enough) {
                break;
            }
            nodes = 2 * (nodes - 1) + 1;
        }
        // 2. halve the step until the extrapolated values settle
        CellMoments moments = coarse.weights();
        List<WorkloadGrid> grids = new ArrayList<>();
        grids.add(grid);
        Estimate previous = null;
        int n = 0;
        while (true) {
            n++;
            int fine = (nodes - 1) * (1 << n) + 1;
            if (fine > MAX_NODES || fine < 0) {
                throw new MflbException(ErrorKind.NO_CONVERGENCE, "tolerance", String.format(Locale.ROOT,
                        "LL(%d) equilibrium: the relative accuracy %.3g was not reached within %d nodes (reach %.4g,"
                                + " step %.3g; achieved about %.3g); ask for a larger tolerance", model.d(), tolerance,
                        MAX_NODES, grid.reach(), grids.get(grids.size() - 1).step(), previous.worst));
            }
            // the finer grid's weights are the halves of the coarser one's cells
            VolterraMarch m = new VolterraMarch(model.d(), model.lambda(), moments.refine());
            moments = m.weights();
            m.extendTo(fine);
            grids.add(new WorkloadGrid(model, m, finite, sufficient));
            int last = grids.size() - 1;
            Estimate current = new Estimate(grids.get(last - 1), grids.get(last));
            if (previous != null && current.compare(previous)) {
                return new WorkloadEquilibrium(model, tolerance, percentiles, current.law, current.coarse,
                        current.fine, current.meanWait, current.meanWork, current.errorEstimate, current.quantiles);
            }
            previous = current;
        }
    }

    private VolterraMarch march(double h) {
        return new VolterraMarch(model.d(), model.lambda(), new CellMoments(model.service(), h));
    }

    private boolean reachSuffices(WorkloadGrid grid, double reachTail) {
        if (grid.responseSurvival(grid.reach()) > reachTail) {
            return false;
        }
        if (!finite) {
            return true;
        }
        TailTerm tail = grid.tail();
        double meanR = 1 + grid.meanWait();
        // d = 1: the tail relation is exact, whatever c = λ
        boolean contracting = model.d() == 1 || tail.contraction() <= 0.5;
        return contracting && tail.uncertainty() <= TAIL_SHARE * tolerance * meanR;
    }

    /** The Richardson extrapolation of two grids and its figures. */
    private final class Estimate {
        final WorkloadGrid coarse;
        final WorkloadGrid fine;
        final ExtrapolatedLaws law;
        final double meanWait;
        final double meanWork;
        final double[][] quantiles;
        double errorEstimate = Double.NaN;
        double worst = Double.NaN;

        Estimate(WorkloadGrid coarse, WorkloadGrid fine) {
            this.coarse = coarse;
            this.fine = fine;
            this.meanWait = finite ? (4 * fine.meanWait() - coarse.meanWait()) / 3 : Double.POSITIVE_INFINITY;
            // ∫F̄ = λ(E[W] + E[X²]/2) is infinite when E[X²] is, though E[W] may be finite (Pareto shape <= 2)
            this.meanWork = finite && Double.isFinite(fine.meanWork()) && Double.isFinite(coarse.meanWork())
                    ? (4 * fine.meanWork() - coarse.meanWork()) / 3 : Double.POSITIVE_INFINITY;
            this.law = new ExtrapolatedLaws(coarse, fine, meanWait);
            double[] ps = percentiles == null ? new double[0] : percentiles.values();
            // rows: percentile, response quantile, its estimate, waiting quantile, its estimate
            quantiles = new double[ps.length][5];
            for (int i = 0; i < ps.length; i++) {
                quantiles[i][0] = ps[i];
                quantiles[i][1] = law.response().quantile(ps[i] / 100);
                quantiles[i][3] = law.waiting().quantile(ps[i] / 100);
            }
        }

        /** Sets the error estimates against the previous pair; @return whether they meet the tolerance */
        boolean compare(Estimate previous) {
            boolean ok = true;
            worst = 0;
            if (finite) {
                double meanR = 1 + meanWait;
                errorEstimate = Math.abs(meanWait - previous.meanWait) + fine.tail().uncertainty();
                worst = errorEstimate / meanR;
                ok = errorEstimate <= tolerance * meanR;
            }
            for (int i = 0; i < quantiles.length; i++) {
                for (int c = 1; c <= 3; c += 2) {
                    double q = quantiles[i][c];
                    double e = Math.abs(q - previous.quantiles[i][c]);
                    quantiles[i][c + 1] = e;
                    double scale = Math.max(q, 1.0);
                    worst = Math.max(worst, e / scale);
                    ok &= e <= tolerance * scale;
                }
            }
            return ok;
        }
    }

    /** The waiting- and response-time laws extrapolated over two grids. */
    static final class ExtrapolatedLaws {
        private final WorkloadGrid coarse;
        private final WorkloadGrid fine;
        private final double meanWait;

        ExtrapolatedLaws(WorkloadGrid coarse, WorkloadGrid fine, double meanWait) {
            this.coarse = coarse;
            this.fine = fine;
            this.meanWait = meanWait;
        }

        double workload(double w) {
            return extrapolate(WorkloadGrid::workload, w);
        }

        SojournLaw waiting() {
            return law(WorkloadGrid::waitingSurvival, meanWait);
        }

        SojournLaw response() {
            return law(WorkloadGrid::responseSurvival, 1 + meanWait);
        }

        /** {@code (4 v_fine(x) − v_coarse(x))/3} within the reach, the fine grid's continuation beyond. */
        private double extrapolate(ToDoubleBiFunction<WorkloadGrid, Double> value, double x) {
            if (x > fine.reach()) {
                return value.applyAsDouble(fine, x);
            }
            return clamp((4 * value.applyAsDouble(fine, x) - value.applyAsDouble(coarse, x)) / 3);
        }

        private SojournLaw law(ToDoubleBiFunction<WorkloadGrid, Double> survival, double mean) {
            return new SojournLaw() {
                @Override
                public double survival(double t) {
                    return t < 0 ? 1.0 : extrapolate(survival, t);
                }

                @Override
                public double mean() {
                    return mean;
                }
            };
        }

        private static double clamp(double x) {
            return Math.min(1.0, Math.max(0.0, x));
        }
    }
}
