package org.mflb.validation;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.IntFunction;

import org.mflb.simulation.Estimate;
import org.mflb.simulation.SimulationResult;
import org.mflb.simulation.VectorEstimate;
import org.mflb.validation.plot.Figure;

/**
 * Puts a predicted tail vector (steady state) or tail trajectory (transient) next to the
 * simulator's estimates: the {@link Check}s for the error table and the {@link Figure}.
 * <p>
 * Tolerance rule used throughout: {@code |predicted − simulated| ≤ k·h + bias}, where {@code h} is
 * the 95% CI half-width of the simulated value, {@code k} (typically 3) absorbs the statistical
 * error, and {@code bias} is the model's known finite-{@code N} error (e.g. {@code c/N} for a
 * fluid limit in steady state).
 */
public final class Comparisons {

    /**
     * Levels whose predicted and simulated values are both below this are not checked (relative noise
     * dominates there); predicted levels below it are not drawn. A level is checked as soon as either
     * side reaches it: a model that predicts 0 where the system has mass must be able to fail.
     */
    public static final double NEGLIGIBLE = 1e-4;

    private Comparisons() {
    }

    /** A tolerance {@code k·h + bias}. */
    public record Tolerance(double halfWidths, double bias) {
        /** @return the tolerance for a CI half-width {@code h} */
        public double of(double h) {
            return halfWidths * h + bias;
        }

        /**
         * @param quantity what is compared
         * @param predicted the prediction
         * @param e the simulated estimate
         * @return the check within {@code k·h} (statistical part) {@code + bias} (model-error part)
         */
        public Check check(String quantity, double predicted, Estimate e) {
            return Check.of(quantity, predicted, e.mean(), e.ci95Low(), e.ci95High(), halfWidths * e.halfWidth(), bias);
        }

        @Override
        public String toString() {
            String k = halfWidths == Math.rint(halfWidths) ? Long.toString((long) halfWidths) : Double.toString(halfWidths);
            return bias == 0 ? k + " CI half-widths" : String.format(Locale.ROOT, "%s CI half-widths + %.3g", k, bias);
        }
    }

    /**
     * Checks of a steady-state tail vector, levels {@code 1..} while the prediction or the simulation
     * reaches {@link #NEGLIGIBLE}, plus the mean queue length.
     *
     * @param label prefix of the quantities (e.g. the model name)
     * @param predictedTail {@code (1, x_1, ...)}
     * @param predictedMean predicted mean jobs per server
     * @param sim the simulation
     * @param tolerance rule
     * @return the checks
     */
    public static List<Check> steadyState(String label, double[] predictedTail, double predictedMean,
            SimulationResult sim, Tolerance tolerance) {
        return steadyState(label, predictedTail, predictedMean, sim, tolerance, i -> Optional.empty());
    }

    /**
     * {@link #steadyState(String, double[], double, SimulationResult, Tolerance)} for a prediction that
     * is not usable everywhere (a size expansion at too small an {@code N}): those checks are reported
     * as not applicable, with the reason.
     *
     * @param notUsable for level {@code i ≥ 1}, or {@code 0} for the mean queue length: why the
     *        prediction says nothing there, if it does not
     * @return the checks
     */
    public static List<Check> steadyState(String label, double[] predictedTail, double predictedMean,
            SimulationResult sim, Tolerance tolerance, IntFunction<Optional<String>> notUsable) {
        List<Check> checks = new ArrayList<>();
        VectorEstimate tail = sim.tail();
        for (int i = 1; i < Math.max(predictedTail.length, tail.size()); i++) {
            double predicted = i < predictedTail.length ? predictedTail[i] : 0;
            Estimate e = i < tail.size() ? tail.get(i) : new Estimate(0, 0, 0, tail.samples());
            if (Math.max(predicted, e.mean()) < NEGLIGIBLE) {
                break; // both tails decrease: no level beyond is checked either
            }
            checks.add(tolerance.check(label + "x_" + i, predicted, e).unless(notUsable.apply(i)));
        }
        Estimate m = sim.meanQueueLength();
        checks.add(tolerance.check(label + "mean queue length", predictedMean, m).unless(notUsable.apply(0)));
        return checks;
    }

    /**
     * Checks of a transient: every level above {@link #NEGLIGIBLE} at every grid time.
     *
     * @param label prefix of the quantities
     * @param times grid times (same as the simulation's)
     * @param predicted {@code predicted[k] = (1, x_1(t_k), ...)}
     * @param sim the simulation, run with the same grid
     * @param tolerance rule
     * @return the checks
     */
    public static List<Check> transientTails(String label, double[] times, double[][] predicted, SimulationResult sim,
            Tolerance tolerance) {
        return transientTails(label, times, predicted, sim, tolerance, (k, i) -> Optional.empty());
    }

    /**
     * {@link #transientTails(String, double[], double[][], SimulationResult, Tolerance)} for a
     * prediction that is not usable everywhere (a size expansion at too small an {@code N}).
     *
     * @param notUsable for grid time {@code k} and level {@code i ≥ 1}: why the prediction says
     *        nothing there, if it does not (the check is then reported as not applicable)
     * @return the checks
     */
    public static List<Check> transientTails(String label, double[] times, double[][] predicted, SimulationResult sim,
            Tolerance tolerance, BiFunction<Integer, Integer, Optional<String>> notUsable) {
        List<Check> checks = new ArrayList<>();
        List<VectorEstimate> traj = sim.tailTrajectory();
        for (int k = 0; k < times.length; k++) {
            VectorEstimate at = traj.get(k);
            for (int i = 1; i < predicted[k].length && i < at.size(); i++) {
                if (predicted[k][i] <= NEGLIGIBLE && at.mean()[i] <= NEGLIGIBLE) {
                    continue;
                }
                Estimate e = at.get(i);
                checks.add(tolerance.check(label + "x_" + i + "(t=" + time(times[k]) + ")", predicted[k][i], e)
                        .unless(notUsable.apply(k, i)));
            }
        }
        return checks;
    }

    /**
     * The steady-state figure: predicted tail as a line, simulated tail with CI bars, log scale.
     *
     * @param title chart title
     * @param predictionName legend entry of the prediction
     * @param predictedTail {@code (1, x_1, ...)}
     * @param sim the simulation
     * @return the figure
     */
    public static Figure steadyStateFigure(String title, String predictionName, double[] predictedTail,
            SimulationResult sim) {
        int levels = 1;
        while (levels < predictedTail.length && predictedTail[levels] > 1e-9) {
            levels++;
        }
        VectorEstimate tail = sim.tail();
        int simLevels = Math.min(tail.size(), Math.max(levels, 2) + 1);
        double[] x = new double[levels];
        double[] y = new double[levels];
        for (int i = 0; i < levels; i++) {
            x[i] = i;
            y[i] = predictedTail[i];
        }
        double[] xs = new double[simLevels];
        double[] ys = new double[simLevels];
        double[] hs = new double[simLevels];
        for (int i = 0; i < simLevels; i++) {
            xs[i] = i;
            ys[i] = tail.mean()[i];
            hs[i] = (tail.ci95High()[i] - tail.ci95Low()[i]) / 2;
        }
        return Figure.of(title, "level i (jobs per server)", "x_i = fraction of servers with >= i jobs").logY()
                .line(predictionName, 0, x, y).points("simulation (95% CI)", 1, xs, ys, hs);
    }

    /**
     * The transient figure: {@code x_i(t)} predicted as lines and simulated as points with CI bars, one
     * colour per level, for the levels that rise above {@link #NEGLIGIBLE} (at most {@code maxLevels}).
     *
     * @param title chart title
     * @param lineTimes times of the prediction's line (finer than the simulation grid, for smooth curves)
     * @param predicted {@code predicted[k] = (1, x_1(lineTimes[k]), ...)}
     * @param sim the simulation with a time grid
     * @param maxLevels most levels drawn
     * @return the figure
     */
    public static Figure transientFigure(String title, double[] lineTimes, double[][] predicted, SimulationResult sim,
            int maxLevels) {
        Figure figure = Figure.of(title, "time t (mean service times)", "x_i(t) = fraction with >= i jobs");
        double[] times = sim.times();
        List<VectorEstimate> traj = sim.tailTrajectory();
        for (int i = 1; i <= maxLevels && drawn(predicted, i); i++) {
            double[] y = level(predicted, i);
            double[] ys = new double[times.length];
            double[] hs = new double[times.length];
            for (int k = 0; k < times.length; k++) {
                VectorEstimate at = traj.get(k);
                ys[k] = i < at.size() ? at.mean()[i] : 0;
                hs[k] = i < at.size() ? (at.ci95High()[i] - at.ci95Low()[i]) / 2 : 0;
            }
            figure.line("x_" + i + " predicted", i - 1, lineTimes, y).points("x_" + i + " simulated", i - 1, times, ys,
                    hs);
        }
        return figure;
    }

    /**
     * Draws a second prediction of a transient (the refined mean field) as dashed lines over a
     * {@link #transientFigure}, in the colours of its levels: the same levels, those whose first
     * prediction {@code predicted} rises above {@link #NEGLIGIBLE} (at most {@code maxLevels}).
     *
     * @param figure the transient figure
     * @param times times of the second prediction
     * @param predicted the first prediction, as given to {@link #transientFigure}
     * @param second {@code second[k] = (1, x_1(times[k]), ...)}
     * @param name legend prefix of the second prediction
     * @param maxLevels most levels drawn, as given to {@link #transientFigure}
     */
    public static void dashedTransientLines(Figure figure, double[] times, double[][] predicted, double[][] second,
            String name, int maxLevels) {
        for (int i = 1; i <= maxLevels && drawn(predicted, i); i++) {
            figure.dashedLine(name + "x_" + i, i - 1, times, level(second, i));
        }
    }

    /** @return {@code n + 1} equally spaced times on {@code [0, end]}, for drawing smooth predictions */
    public static double[] fineTimes(double end, int n) {
        double[] t = new double[n + 1];
        for (int k = 0; k <= n; k++) {
            t[k] = end * k / n;
        }
        return t;
    }

    /** Formats a time for a quantity label: {@code 2.5}, {@code 20}. */
    static String time(double t) {
        return t == Math.rint(t) && Math.abs(t) < 1e15 ? Long.toString((long) t) : Double.toString(t);
    }

    /** @return whether level {@code i} of a predicted path rises above {@link #NEGLIGIBLE} (the levels drawn) */
    private static boolean drawn(double[][] path, int i) {
        double peak = 0;
        for (double[] p : path) {
            peak = Math.max(peak, i < p.length ? p[i] : 0);
        }
        return peak > NEGLIGIBLE;
    }

    /** @return {@code x_i} along a path of tail vectors {@code (1, x_1, ...)}, 0 beyond a vector's length */
    private static double[] level(double[][] path, int i) {
        double[] y = new double[path.length];
        for (int k = 0; k < path.length; k++) {
            y[k] = i < path[k].length ? path[k][i] : 0;
        }
        return y;
    }
}
