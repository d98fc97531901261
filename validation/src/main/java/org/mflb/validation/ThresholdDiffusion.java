package org.mflb.validation;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import org.mflb.core.MflbException;
import org.mflb.core.Require;
import org.mflb.core.model.InitialState;
import org.mflb.core.system.LoadBalancingModel;
import org.mflb.core.system.Policy;
import org.mflb.core.system.ServerSystem;
import org.mflb.simulation.Estimate;
import org.mflb.simulation.MatrixEstimate;
import org.mflb.simulation.RunControl;
import org.mflb.simulation.SimulationResult;
import org.mflb.simulation.SimulationScenario;
import org.mflb.simulation.Simulator;

/**
 * Diffusion check of [GABL], Theorem 3 (docs/models.md §4): for a non-integer load λ, k = ⌊λ⌋, and
 * infinite-server pools under JSQ or the threshold policy with ℓ = k,
 * <pre>
 *   √n (q_{n,k+1} − (λ − k))  ⇒  Z,   dZ = −Z dt + √(2λ) dW,   stationary law N(0, λ),
 * </pre>
 * while √n(1 − q_{n,i}) → 0 for i ≤ k and √n q_{n,i} → 0 for i ≥ k + 2. Power-of-2 (SQ(2)) has a
 * different fixed point, so neither its centring nor its variance match. The check simulates the
 * stationary system for each n and reports
 * <pre>
 *   variance  n·Var(q_{n,k+1})             (→ λ for the threshold policy and JSQ),
 *   shift     √n (E[q_{n,k+1}] − (λ − k))  (→ 0 for the threshold policy and JSQ),
 * </pre>
 * both with 95% intervals: the variance from the simulator's time-averaged covariance estimator
 * (jackknife over independent replications), the shift from the replications' time averages.
 *
 * <p>Why the variance tends to λ: the total number of tasks is Poisson(nλ) for every non-blocking
 * policy, so {@code n·Var(Σ_i q_i) = λ} exactly; under an optimal policy all pools but O(1) hold k
 * or k + 1 tasks, and q_{k+1} carries the whole fluctuation. The finite-n gap is driven by the
 * distance of λ − k to 0 and 1 in standard deviations, {@code √n·min(λ − k, k + 1 − λ)/√λ}: when it
 * is small, q_{k+1} often hits 0 or 1 and the other levels take part of the fluctuation.
 *
 * <p>For an integer λ (Theorem 4) the limit of {@code (Ẑ, Q̂) = (√n Σ_{i≤λ}(1 − q_i), √n q_{λ+1})}
 * is a reflected process; {@link #runIntegerLoad} compares the simulated stationary moments of Ẑ and
 * Q̂ with those of the limit computed by {@link ReflectedLimit}.
 *
 * <p>Runs start from the balanced state q* (every pool with k tasks, a fraction λ − k with k + 1)
 * and discard a warm-up; each replication is one observation.
 */
public final class ThresholdDiffusion {

    /** The policies compared. */
    public enum Compared {
        /** Threshold ℓ = ⌊λ⌋ with green and yellow tokens ([GABL]). */
        THRESHOLD("threshold l=floor(lambda)"),
        /** Join the shortest queue. */
        JSQ("jsq"),
        /** Power of two choices, two distinct pools. */
        SQ2("sq(2)");

        private final String label;

        Compared(String label) {
            this.label = label;
        }

        /** @return the label used in the table */
        public String label() {
            return label;
        }

        /** @return whether the theorem predicts the N(0, λ) limit for this policy */
        public boolean optimal() {
            return this != SQ2;
        }
    }

    /**
     * What to simulate.
     *
     * @param lambda load per pool: not an integer for {@link #run(Settings)}, an integer for
     *        {@link #runIntegerLoad(Settings)}
     * @param sizes numbers of pools n
     * @param replications independent replications per (policy, n), ≥ 2
     * @param runLength measured time per replication (the OU relaxation time is 1), > 0
     * @param warmup time discarded from q* before measuring, ≥ 0
     * @param seed base seed
     * @param threads worker threads, ≥ 1
     */
    public record Settings(double lambda, int[] sizes, int replications, double runLength, double warmup, long seed,
            int threads) {

        /** Validates the settings. */
        public Settings {
            Require.positive("lambda", lambda);
            if (sizes == null || sizes.length == 0) {
                throw MflbException.invalid("sizes", "none", "at least one number of pools");
            }
            sizes = sizes.clone();
            for (int n : sizes) {
                Require.between("n", n, 1, RunControl.MAX_SERVERS);
            }
            Require.atLeast("replications", replications, 2);
            Require.positive("run-length", runLength);
            Require.nonNegative("warmup", warmup);
            Require.atLeast("threads", threads, 1);
        }

        @Override
        public int[] sizes() {
            return sizes.clone();
        }

        /**
         * Quick mode: n = 100, 400, 1600, 6400, 10 replications of 100 time units each (about 4e7
         * events per policy for λ = 2.5, under a minute in total on two cores); variance intervals
         * of about ±9%.
         */
        public static Settings quick(double lambda) {
            return new Settings(lambda, new int[] {100, 400, 1600, 6400}, 10, 100, 10, 2024,
                    Runtime.getRuntime().availableProcessors());
        }

        /** Full mode: the same sizes with 20 replications of 1 000 time units (intervals ≈ ±3%). */
        public static Settings full(double lambda) {
            return new Settings(lambda, new int[] {100, 400, 1600, 6400}, 20, 1000, 10, 2024,
                    Runtime.getRuntime().availableProcessors());
        }

        /** @return the same settings with other sizes */
        public Settings withSizes(int... n) {
            return new Settings(lambda, n, replications, runLength, warmup, seed, threads);
        }

        /** @return the same settings with another number of replications and run length */
        public Settings withRuns(int reps, double length) {
            return new Settings(lambda, sizes, reps, length, warmup, seed, threads);
        }

        /** @return the same settings with another number of threads */
        public Settings withThreads(int t) {
            return new Settings(lambda, sizes, replications, runLength, warmup, seed, t);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Settings s && s.lambda == lambda && Arrays.equals(s.sizes, sizes)
                    && s.replications == replications && s.runLength == runLength && s.warmup == warmup
                    && s.seed == seed && s.threads == threads;
        }

        @Override
        public int hashCode() {
            return Double.hashCode(lambda) * 31 + Arrays.hashCode(sizes);
        }

        @Override
        public String toString() {
            return "Settings[lambda=" + lambda + ", sizes=" + Arrays.toString(sizes) + ", replications=" + replications
                    + ", runLength=" + runLength + ", warmup=" + warmup + ", seed=" + seed + ", threads=" + threads
                    + "]";
        }
    }

    /**
     * One line of the table.
     *
     * @param policy the policy
     * @param n number of pools
     * @param variance {@code n·Var(q_{n,k+1})} with its 95% interval
     * @param shift {@code √n (E[q_{n,k+1}] − (λ − k))} with its 95% interval
     * @param events simulated events
     * @param seconds wall time
     */
    public record Row(Compared policy, int n, Estimate variance, Estimate shift, long events, double seconds) {
    }

    /**
     * The table.
     *
     * @param lambda the load
     * @param rows one row per (policy, n), policies in {@link Compared} order, n increasing
     */
    public record Table(double lambda, List<Row> rows) {

        /** Copies the rows. */
        public Table {
            rows = List.copyOf(rows);
        }

        /** @return the row of {@code policy} and {@code n} */
        public Row row(Compared policy, int n) {
            for (Row r : rows) {
                if (r.policy() == policy && r.n() == n) {
                    return r;
                }
            }
            throw new IllegalArgumentException("no row for " + policy + ", n = " + n);
        }

        /** @return the table as aligned text */
        public String format() {
            int k = (int) Math.floor(lambda);
            StringBuilder b = new StringBuilder();
            b.append(String.format(Locale.ROOT,
                    "Stationary variance of sqrt(n)(q_%d - %.4g), lambda = %.4g (limit N(0, lambda) for threshold"
                            + " and JSQ, [GABL] Thm 3)%n", k + 1, lambda - k, lambda));
            b.append(String.format(Locale.ROOT, "%-26s %6s %24s %24s %10s %8s%n", "policy", "n",
                    "n Var(q) [95% CI]", "sqrt(n)(E q - c) [95% CI]", "events", "seconds"));
            for (Row r : rows) {
                b.append(String.format(Locale.ROOT, "%-26s %6d %24s %24s %10d %8.1f%n", r.policy().label(), r.n(),
                        interval(r.variance()), interval(r.shift()), r.events(), r.seconds()));
            }
            return b.toString();
        }

        static String interval(Estimate e) {
            return String.format(Locale.ROOT, "%.3f [%.3f, %.3f]", e.mean(), e.ci95Low(), e.ci95High());
        }
    }

    /**
     * One line of the integer-load table ([GABL], Theorem 4): the simulated stationary moments of
     * {@code Ẑ = √n Σ_{i≤λ}(1 − q_i)} and {@code Q̂ = √n q_{λ+1}}. Intervals of sums of levels are the
     * sums of the levels' half-widths (conservative).
     *
     * @param policy the policy
     * @param n number of pools
     * @param meanZ E[Ẑ]
     * @param meanQ E[Q̂]
     * @param varZ Var(Ẑ)
     * @param varQ Var(Q̂)
     * @param events simulated events
     * @param seconds wall time
     */
    public record ReflectedRow(Compared policy, int n, Estimate meanZ, Estimate meanQ, Estimate varZ, Estimate varQ,
            long events, double seconds) {
    }

    /**
     * The integer-load table: simulations against the reflected limit process.
     *
     * @param lambda the integer load
     * @param limit stationary moments of the limit (Euler–Maruyama step {@code step})
     * @param coarse the same with step {@code 4·step} (their difference shows the discretisation error)
     * @param step the finer Euler–Maruyama step
     * @param rows simulated rows
     */
    public record ReflectedTable(double lambda, ReflectedLimit.Moments limit, ReflectedLimit.Moments coarse,
            double step, List<ReflectedRow> rows) {

        /** Copies the rows. */
        public ReflectedTable {
            rows = List.copyOf(rows);
        }

        /** @return the row of {@code policy} and {@code n} */
        public ReflectedRow row(Compared policy, int n) {
            for (ReflectedRow r : rows) {
                if (r.policy() == policy && r.n() == n) {
                    return r;
                }
            }
            throw new IllegalArgumentException("no row for " + policy + ", n = " + n);
        }

        /** @return the table as aligned text */
        public String format() {
            int k = (int) lambda;
            StringBuilder b = new StringBuilder();
            b.append(String.format(Locale.ROOT, "Integer load lambda = %d: Z = sqrt(n) sum_{i<=%d} (1 - q_i),"
                    + " Q = sqrt(n) q_%d against the reflected limit ([GABL] Thm 4)%n", k, k, k + 1));
            b.append(String.format(Locale.ROOT, "%-26s %6s %22s %22s %22s %22s %10s %8s%n", "policy", "n", "E[Z]",
                    "E[Q]", "Var(Z)", "Var(Q)", "events", "seconds"));
            limitLine(b, String.format(Locale.ROOT, "limit, EM h = %.1e", step), limit);
            limitLine(b, String.format(Locale.ROOT, "limit, EM h = %.1e", 4 * step), coarse);
            limitLine(b, "limit, extrapolated", extrapolated());
            for (ReflectedRow r : rows) {
                b.append(String.format(Locale.ROOT, "%-26s %6d %22s %22s %22s %22s %10d %8.1f%n", r.policy().label(),
                        r.n(), Table.interval(r.meanZ()), Table.interval(r.meanQ()), Table.interval(r.varZ()),
                        Table.interval(r.varQ()), r.events(), r.seconds()));
            }
            b.append(String.format(Locale.ROOT, "limit check: Var(Q - Z) = %s (exactly %d), E[Q - Z] = %s (exactly 0)%n",
                    Table.interval(limit.varDifference()), k, Table.interval(limit.meanDifference())));
            return b.toString();
        }

        /**
         * @return the Richardson extrapolation {@code 2·X(h) − X(4h)} of each moment, removing the
         *         O(√h) error of the projected scheme (independent streams, so the half-widths add
         *         in quadrature: {@code √(4 w_h² + w_4h²)})
         */
        public ReflectedLimit.Moments extrapolated() {
            return new ReflectedLimit.Moments(richardson(limit.meanZ(), coarse.meanZ()),
                    richardson(limit.meanQ(), coarse.meanQ()), richardson(limit.varZ(), coarse.varZ()),
                    richardson(limit.varQ(), coarse.varQ()), richardson(limit.varDifference(), coarse.varDifference()),
                    richardson(limit.meanDifference(), coarse.meanDifference()));
        }

        private static Estimate richardson(Estimate fine, Estimate coarse) {
            double m = 2 * fine.mean() - coarse.mean();
            double w = Math.sqrt(4 * fine.halfWidth() * fine.halfWidth() + coarse.halfWidth() * coarse.halfWidth());
            return new Estimate(m, m - w, m + w, Math.min(fine.samples(), coarse.samples()));
        }

        private static void limitLine(StringBuilder b, String label, ReflectedLimit.Moments m) {
            b.append(String.format(Locale.ROOT, "%-26s %6s %22s %22s %22s %22s%n", label, "inf",
                    Table.interval(m.meanZ()), Table.interval(m.meanQ()), Table.interval(m.varZ()),
                    Table.interval(m.varQ())));
        }
    }

    private ThresholdDiffusion() {
    }

    /** Runs every (policy, n) of {@code settings}; λ must not be an integer. */
    public static Table run(Settings settings) {
        if (isInteger(settings.lambda())) {
            throw MflbException.invalid("lambda", settings.lambda(),
                    "a non-integer > 0 (Theorem 3 of [GABL]; for an integer load use runIntegerLoad)");
        }
        List<Row> rows = new ArrayList<>();
        for (Compared p : Compared.values()) {
            for (int n : settings.sizes()) {
                rows.add(run(settings, p, n));
            }
        }
        return new Table(settings.lambda(), rows);
    }

    private static boolean isInteger(double lambda) {
        return lambda == Math.floor(lambda);
    }

    /**
     * The stationary run of one (policy, n) from q* (every pool with k = ⌊λ⌋ tasks, a fraction
     * λ − k with k + 1), with the covariance of levels 1..k+1.
     */
    private static SimulationResult simulate(Settings s, Compared policy, int n) {
        double lambda = s.lambda();
        int k = (int) Math.floor(lambda);
        double[] qStar = new double[k + 2];
        Arrays.fill(qStar, 0, k + 1, 1.0);
        qStar[k + 1] = lambda - k;
        Policy simulated = switch (policy) {
            case THRESHOLD -> new Policy.Threshold(k);
            case JSQ -> Policy.jsq();
            case SQ2 -> Policy.powerOfD(2);
            default -> throw new IllegalStateException(policy.toString());
        };
        return Simulator.run(SimulationScenario.builder()
                .model(LoadBalancingModel.of(ServerSystem.infiniteServerPools(), simulated, lambda)).servers(n)
                .initialState(InitialState.tail(qStar)).tEnd(s.warmup() + s.runLength()).warmup(s.warmup())
                .replications(s.replications()).threads(s.threads()).covarianceLevels(k + 1)
                .seed(s.seed() + 1000L * policy.ordinal() + n).build());
    }

    /** @return the time-averaged {@code q_i}, exactly 0 when no pool ever reached level i */
    private static Estimate level(SimulationResult r, int i) {
        return i < r.tail().size() ? r.tail().get(i) : new Estimate(0, 0, 0, r.tail().samples());
    }

    /** Runs one (policy, n) for a non-integer λ. */
    public static Row run(Settings s, Compared policy, int n) {
        double lambda = s.lambda();
        int k = (int) Math.floor(lambda);
        double centre = lambda - k;
        SimulationResult r = simulate(s, policy, n);
        Estimate variance = r.covariance().orElseThrow().get(k, k);
        Estimate q = level(r, k + 1);
        double root = Math.sqrt(n);
        Estimate shift = new Estimate(root * (q.mean() - centre), root * (q.ci95Low() - centre),
                root * (q.ci95High() - centre), q.samples());
        return new Row(policy, n, variance, shift, r.events(), r.wallSeconds());
    }

    /** Euler–Maruyama step of the reflected limit in {@link #runIntegerLoad(Settings)}. */
    public static final double LIMIT_STEP = 2.5e-4;
    /** Measured time of the reflected limit (20 batches; relaxation time ≈ 1). */
    public static final double LIMIT_TIME = 20_000;

    /**
     * Integer λ: the threshold policy with ℓ = λ and JSQ (and SQ(2) for contrast) against the
     * stationary moments of the reflected limit process ({@link ReflectedLimit}), computed with
     * steps {@link #LIMIT_STEP} and four times it.
     */
    public static ReflectedTable runIntegerLoad(Settings settings) {
        return runIntegerLoad(settings, LIMIT_STEP, LIMIT_TIME);
    }

    /**
     * The same with a given Euler–Maruyama step {@code h} (the coarse run uses 4h) and measured time
     * of the limit process.
     */
    public static ReflectedTable runIntegerLoad(Settings settings, double step, double limitTime) {
        double lambda = settings.lambda();
        if (!isInteger(lambda)) {
            throw MflbException.invalid("lambda", lambda, "an integer >= 1 (Theorem 4 of [GABL]; a non-integer"
                    + " load has the Ornstein-Uhlenbeck limit of run)");
        }
        int k = (int) lambda;
        ReflectedLimit.Moments fine = ReflectedLimit.stationary(k, step, limitTime, 20, 20, settings.seed());
        ReflectedLimit.Moments coarse = ReflectedLimit.stationary(k, 4 * step, limitTime, 20, 20, settings.seed() + 1);
        List<ReflectedRow> rows = new ArrayList<>();
        for (Compared p : Compared.values()) {
            for (int n : settings.sizes()) {
                SimulationResult r = simulate(settings, p, n);
                double root = Math.sqrt(n);
                // Ẑ = √n Σ_{i≤k} (1 − q_i)
                double mz = 0;
                double hz = 0;
                for (int i = 1; i <= k; i++) {
                    Estimate q = level(r, i);
                    mz += root * (1 - q.mean());
                    hz += root * q.halfWidth();
                }
                Estimate q = level(r, k + 1);
                Estimate meanQ = new Estimate(root * q.mean(), root * q.ci95Low(), root * q.ci95High(), q.samples());
                MatrixEstimate cov = r.covariance().orElseThrow();
                double vz = 0;
                double hvz = 0;
                for (int i = 0; i < k; i++) {
                    for (int j = 0; j < k; j++) {
                        vz += cov.get(i, j).mean();
                        hvz += cov.get(i, j).halfWidth();
                    }
                }
                rows.add(new ReflectedRow(p, n, new Estimate(mz, mz - hz, mz + hz, q.samples()), meanQ,
                        new Estimate(vz, vz - hvz, vz + hvz, q.samples()), r.covariance().orElseThrow().get(k, k),
                        r.events(), r.wallSeconds()));
            }
        }
        return new ReflectedTable(lambda, fine, coarse, step, rows);
    }

    /**
     * Prints the table: {@code [quick|full] [lambda]} (defaults: quick, λ = 2.5); an integer λ
     * compares with the reflected limit instead.
     *
     * @param args mode and load
     */
    public static void main(String[] args) {
        boolean full = args.length > 0 && args[0].equals("full");
        double lambda = args.length > 1 ? Double.parseDouble(args[1]) : 2.5;
        Settings s = full ? Settings.full(lambda) : Settings.quick(lambda);
        long start = System.nanoTime();
        System.out.print(isInteger(lambda) ? runIntegerLoad(s).format() : run(s).format());
        System.out.printf(Locale.ROOT, "total %.1f s (%s)%n", (System.nanoTime() - start) * 1e-9, s);
    }
}
