package org.mflb.validation;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import org.mflb.core.MflbException;
import org.mflb.core.Require;
import org.mflb.core.model.InitialState;
import org.mflb.core.system.LoadBalancingModel;
import org.mflb.core.system.Policy;
import org.mflb.core.system.ServerSystem;
import org.mflb.fluid.diffusion.HalfinWhittJsq;
import org.mflb.fluid.diffusion.HalfinWhittLimit;
import org.mflb.fluid.diffusion.HalfinWhittStatistics;
import org.mflb.fluid.diffusion.JsqPrelimit;
import org.mflb.fluid.diffusion.RateFit;
import org.mflb.simulation.Estimate;
import org.mflb.simulation.SimulationResult;
import org.mflb.simulation.SimulationScenario;
import org.mflb.simulation.Simulator;
import org.mflb.validation.plot.Figure;

/**
 * JSQ in the Halfin–Whitt regime, end to end (docs/models.md §9): the diffusion limit's stationary
 * law with error control ({@link HalfinWhittLimit}), the exact capacity-2 N-server chain for each N
 * ({@link JsqPrelimit}), the simulated N-server JSQ system with the same statistics scaled
 * ({@code X₂ = √N x₂}, {@code Var X₁ = N Var x₁}, {@code Cov = N Cov(x₁, x₂)} from the simulator's
 * tail vector and covariance; the simulator knows nothing of the chains), and the rate of
 * convergence: the least-squares slope of {@code log|E X₂^N − E X₂|} against {@code log N} and the
 * coefficients of {@code E X₂^N − E X₂ ≈ c₁/√N + c₂/N}, over {@code N ≥ 1600} (all N when fewer than
 * two are that large).
 */
public final class HalfinWhittStudy {

    /**
     * Smallest β the study solves. The lattice steps start at 0.05 and halve, while the stationary x₁
     * given x₂ lives within about {@code 1/(x₂ − β)} of the boundary and x₂ is of order 1/β: below
     * β = 0.3 the extrapolation does not reach the default tolerance 1e-6 before the finest lattice
     * (0.05/64, about 2e9 states): β = 0.25 gave up after 54 s, β = 0.3 converged in about 40 s
     * (measured on a shared 2-core machine).
     */
    public static final double MIN_BETA = 0.3;

    /**
     * Largest β the study solves. The stationary {@code P(X₁ = 0)} is of order {@code e^{−β²/2}}, and
     * the exact chains' and the lattices' level-0 laws, normalised at the boundary, span that ratio:
     * beyond β ≈ 30 they overflow double precision (β = 30 at N = 3602: Var X₁^N = ∞; β = 33: the
     * lattice). At β = 20, E X₂ is about 1e-88 and the whole study takes seconds.
     */
    public static final double MAX_BETA = 20;

    /**
     * @param beta β
     * @return β
     * @throws MflbException unless β is in [{@link #MIN_BETA}, {@link #MAX_BETA}]
     */
    public static double requireBeta(double beta) {
        if (!(beta >= MIN_BETA && beta <= MAX_BETA)) {
            throw MflbException.invalid("beta", beta, "in [" + MIN_BETA + ", " + (int) MAX_BETA + "] (the range the"
                    + " lattice extrapolation and the exact chains solve in double precision)");
        }
        return beta;
    }

    /** Smallest N of the rate fit (when at least two N reach it). */
    public static final int RATE_FIT_FROM = 1600;

    /**
     * @param beta β, in [{@link #MIN_BETA}, {@link #MAX_BETA}]
     * @param servers the N values, increasing
     * @param tolerance the error target of the limit's moments
     * @param tailPoints points of the tails
     * @param eventBudget simulated events per N (0: no simulation)
     * @param replications replications per N
     * @param seed base seed
     * @param threads simulation threads
     * @param simulateUpTo the largest N simulated
     */
    public record Settings(double beta, int[] servers, double tolerance, double[] tailPoints, double eventBudget,
            int replications, long seed, int threads, int simulateUpTo) {

        /** Validates (before any long work). */
        public Settings {
            requireBeta(beta);
            if (servers.length == 0) {
                throw MflbException.invalid("n", "none", "one or more N values");
            }
            servers = servers.clone();
            for (int i = 0; i < servers.length; i++) {
                if (servers[i] < 4 || servers[i] > 2_000_000 || !(Math.sqrt(servers[i]) > 2 * beta)) {
                    throw MflbException.invalid("n", servers[i],
                            "in [max(4, 4 beta^2 + 1), 2000000] (lambda_N = 1 - beta/sqrt(N) > 1/2)");
                }
                if (i > 0 && servers[i] <= servers[i - 1]) {
                    throw MflbException.invalid("n", servers[i], "increasing values");
                }
            }
            if (!(tolerance >= 1e-9 && tolerance <= 0.1)) {
                throw MflbException.invalid("tolerance", tolerance, "in [1e-9, 0.1]");
            }
            tailPoints = tailPoints.clone();
            Require.nonNegative("event budget", eventBudget);
            Require.between("replications", replications, 2, 1000);
            Require.atLeast("threads", threads, 1);
        }

        @Override
        public int[] servers() {
            return servers.clone();
        }

        @Override
        public double[] tailPoints() {
            return tailPoints.clone();
        }
    }

    /**
     * One exact prelimit.
     *
     * @param n N
     * @param statistics its statistics
     * @param pQ3Positive the arrival rate into the state where every server has two jobs (see {@link JsqPrelimit})
     * @param errorX2 {@code E X₂^N − E X₂}
     * @param seconds solve time
     */
    public record PrelimitRow(int n, HalfinWhittStatistics statistics, double pQ3Positive, double errorX2,
            double seconds) {
    }

    /**
     * One simulated system.
     *
     * @param n N
     * @param meanX2 E X₂
     * @param varX1 Var X₁
     * @param covX1X2 Cov(X₁, X₂)
     * @param timePerReplication measured time of each replication
     * @param events simulated events
     */
    public record SimulatedRow(int n, Estimate meanX2, Estimate varX1, Estimate covX1X2, double timePerReplication,
            long events) {
    }

    /**
     * The rate fit.
     *
     * @param slope least-squares slope of {@code log|E X₂^N − E X₂|} against {@code log N}
     * @param c1 c₁ of the least-squares fit {@code E X₂^N − E X₂ = c₁/√N + c₂/N}
     * @param c2 c₂ of that fit
     * @param fitted the N of the fit
     */
    public record Rate(double slope, double c1, double c2, int[] fitted) {
    }

    /**
     * Everything found.
     *
     * @param settings the settings
     * @param limit the lattice-extrapolated limit
     * @param prelimit the exact prelimits
     * @param simulated the simulations (empty without a budget)
     * @param rate the rate fit (NaN slope with fewer than two N)
     * @param limitSeconds the limit's solve time
     */
    public record Result(Settings settings, HalfinWhittLimit.Result limit, List<PrelimitRow> prelimit,
            List<SimulatedRow> simulated, Rate rate, double limitSeconds) {
    }

    private HalfinWhittStudy() {
    }

    /**
     * @param s settings
     * @param progress told what is being computed (may be null)
     * @return the study
     */
    public static Result run(Settings s, Consumer<String> progress) {
        Consumer<String> say = progress == null ? m -> { } : progress;
        HalfinWhittJsq model = new HalfinWhittJsq(s.beta());
        long t0 = System.nanoTime();
        say.accept("limit: Kushner lattices h = 0.05, 0.025, ... extrapolated to h = 0");
        HalfinWhittLimit.Result limit = HalfinWhittLimit.stationary(model, s.tolerance(), s.tailPoints(),
                i -> say.accept("  lattice h = " + HalfinWhittLimit.COARSEST_STEP / (1 << i) + " solved"));
        double limitSeconds = (System.nanoTime() - t0) * 1e-9;
        double ex2 = limit.value().meanX2();
        List<PrelimitRow> prelimit = new ArrayList<>();
        for (int n : s.servers()) {
            long t = System.nanoTime();
            JsqPrelimit.Stationary st = model.prelimit(n).stationary(limit.value().tailPoints());
            prelimit.add(new PrelimitRow(n, st.statistics(), st.pQ3Positive(), st.statistics().meanX2() - ex2,
                    (System.nanoTime() - t) * 1e-9));
            say.accept("prelimit N = " + n + " solved");
        }
        List<SimulatedRow> simulated = new ArrayList<>();
        if (s.eventBudget() > 0) {
            for (int i = 0; i < s.servers().length && s.servers()[i] <= s.simulateUpTo(); i++) {
                int n = s.servers()[i];
                say.accept("simulating N = " + n);
                simulated.add(simulate(s, n, s.seed() + 7919L * i));
            }
        }
        return new Result(s, limit, prelimit, simulated, rate(prelimit), limitSeconds);
    }

    /**
     * @return the warm-up of each replication from every server holding one job (X = (0, 0)):
     *         {@code 20/min(1, β)²}, since X₂ (of mean about 2/β for small β) climbs and relaxes at
     *         speed about β
     */
    static double warmup(double beta) {
        double b = Math.min(1, beta);
        return 20 / (b * b);
    }

    /**
     * @param s the settings (β, event budget, replications, threads)
     * @param n N
     * @param seed the seed
     * @return the simulated N-server JSQ system: R replications from one job per server, after the
     *         {@link #warmup} each of length {@code max(50, budget/(2NR))}
     */
    public static SimulatedRow simulate(Settings s, int n, long seed) {
        int r = s.replications();
        double length = Math.max(50, s.eventBudget() / (2.0 * n * r));
        double lambda = 1 - s.beta() / Math.sqrt(n);
        SimulationScenario scenario = SimulationScenario.builder()
                .model(LoadBalancingModel.of(ServerSystem.singleServerQueues(), Policy.jsq(), lambda))
                .servers(n).initialState(InitialState.all(1)).tEnd(warmup(s.beta()) + length)
                .warmup(warmup(s.beta()))
                .replications(r).seed(seed).threads(s.threads()).covarianceLevels(2).build();
        SimulationResult result = Simulator.run(scenario);
        double root = Math.sqrt(n);
        double[] tail = result.tail().mean();
        double x2 = tail.length > 2 ? tail[2] : 0;
        double lo = tail.length > 2 ? result.tail().ci95Low()[2] : 0;
        double hi = tail.length > 2 ? result.tail().ci95High()[2] : 0;
        Estimate meanX2 = new Estimate(root * x2, root * lo, root * hi, result.tail().samples());
        return new SimulatedRow(n, meanX2, result.covariance().orElseThrow().get(0, 0),
                result.covariance().orElseThrow().get(0, 1), length, result.events());
    }

    static Rate rate(List<PrelimitRow> rows) {
        List<PrelimitRow> fit = rows.stream().filter(p -> p.n() >= RATE_FIT_FROM).toList();
        if (fit.size() < 2) {
            fit = rows;
        }
        int[] ns = fit.stream().mapToInt(PrelimitRow::n).toArray();
        double[] e = fit.stream().mapToDouble(PrelimitRow::errorX2).toArray();
        double[] c = RateFit.rootCoefficients(ns, e);
        if (ns.length < 2) {
            return new Rate(Double.NaN, c[0], c[1], ns);
        }
        double[] x = new double[ns.length];
        double[] y = new double[ns.length];
        for (int i = 0; i < ns.length; i++) {
            x[i] = Math.log(ns[i]);
            y[i] = Math.log(Math.abs(e[i]));
        }
        return new Rate(RateFit.slope(x, y), c[0], c[1], ns);
    }

    /** Draws E[X₂^N] against N: exact prelimit, simulation (95% CI), the limit and limit + c₁/√N. */
    public static void rateFigure(Result r, String title, Path file) {
        int m = r.prelimit().size();
        double[] ns = new double[m];
        double[] exact = new double[m];
        double[] lim = new double[m];
        double[] fitted = new double[m];
        double ex2 = r.limit().value().meanX2();
        for (int i = 0; i < m; i++) {
            PrelimitRow p = r.prelimit().get(i);
            ns[i] = p.n();
            exact[i] = p.statistics().meanX2();
            lim[i] = ex2;
            fitted[i] = ex2 + r.rate().c1() / Math.sqrt(p.n()) + r.rate().c2() / p.n();
        }
        Figure f = Figure.of(title, "N (servers)", "E[X2] = E[Q2]/sqrt(N)");
        f.line("diffusion limit", 0, ns, lim);
        f.line(String.format(java.util.Locale.ROOT, "limit + c1/sqrt(N) + c2/N, c1 = %.3f, c2 = %.2f", r.rate().c1(),
                r.rate().c2()), 1, ns, fitted);
        f.points("exact N-server chain", 2, ns, exact, null);
        if (!r.simulated().isEmpty()) {
            int k = r.simulated().size();
            double[] sx = new double[k];
            double[] sy = new double[k];
            double[] sh = new double[k];
            for (int i = 0; i < k; i++) {
                SimulatedRow s = r.simulated().get(i);
                sx[i] = s.n();
                sy[i] = s.meanX2().mean();
                sh[i] = s.meanX2().halfWidth();
            }
            f.points("simulation (95% CI)", 3, sx, sy, sh);
        }
        f.chart().getStyler().setXAxisLogarithmic(true);
        f.save(file);
    }

    /** Draws the stationary tails P(X₂ > x) and P(X₁ &lt; −x) of the limit and of the largest N's chain. */
    public static void tailFigure(Result r, String title, Path file) {
        double[] x = r.limit().value().tailPoints();
        Figure f = Figure.of(title, "x", "probability").logY();
        f.line("limit: P(X2 > x)", 0, x, r.limit().value().tailX2());
        f.line("limit: P(X1 < -x)", 1, x, r.limit().value().tailX1());
        PrelimitRow last = r.prelimit().get(r.prelimit().size() - 1);
        f.points("N = " + last.n() + ": P(X2 > x)", 0, last.statistics().tailPoints(), last.statistics().tailX2(), null);
        f.points("N = " + last.n() + ": P(X1 < -x)", 1, last.statistics().tailPoints(), last.statistics().tailX1(), null);
        f.save(file);
    }
}
