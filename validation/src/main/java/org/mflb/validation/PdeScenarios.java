package org.mflb.validation;

import java.util.ArrayList;
import java.util.List;

import org.mflb.core.distribution.ServiceDistribution;
import org.mflb.core.distribution.ServiceDistributions;
import org.mflb.core.ode.TimeGrid;
import org.mflb.core.system.LoadBalancingModel;
import org.mflb.core.system.Policy;
import org.mflb.core.system.ServerSystem;
import org.mflb.pde.HydrodynamicPde;
import org.mflb.pde.PdeInitialState;
import org.mflb.pde.PdeTransient;
import org.mflb.simulation.SimulationResult;
import org.mflb.simulation.SimulationScenario;
import org.mflb.simulation.Simulator;
import org.mflb.simulation.VectorEstimate;

/**
 * The hydrodynamic PDE of SQ(d) with general service (docs/models.md §5, [AR]) against the
 * simulator: transients from an empty system, the PDE on the simulator's time grid next to the
 * simulated tail vectors with their 95% confidence intervals (Student t over independent
 * replications). Issue 6's study is {@link #issue6}: SQ(2), λ = 0.9, N = 10⁴, t ≤ 80, log-normal
 * SCV 1 and 4, Pareto 2.5 and Weibull 0.5.
 * <p>
 * Tolerance ({@link TransientComparison#tolerance()}): the simulated value's CI half-width, plus
 * {@code c/N} for the finite-N bias of a mean-field limit ({@code c = }{@value #BIAS_CONSTANT}),
 * plus the PDE's own error at its default step ({@value #PDE_ERROR}, the worst case, Weibull 0.5);
 * with 95% intervals about 5% of the points miss by chance, so {@value #ALLOWED_MISS_SHARE} of them
 * may miss.
 * <pre>{@code
 *   for (PdeScenarios.TransientComparison c : PdeScenarios.issue6(2)) {
 *       List<Check> checks = c.checks();   // one per (time, level) above Comparisons.NEGLIGIBLE
 *       boolean ok = c.passed();
 *   }
 * }</pre>
 * The simulations use sampling with replacement, for which the fluid drift {@code x^d} holds
 * exactly; distinct sampling differs by O(1/N), inside the allowance.
 */
public final class PdeScenarios {

    /** Servers of issue 6's study. */
    public static final int SERVERS = 10_000;
    /** Horizon of issue 6's study. */
    public static final double T_END = 80;
    /** Spacing of the compared times. */
    public static final double DT = 2;
    /** Replications of issue 6's study. */
    public static final int REPLICATIONS = 20;
    /** Arrival rate per server of issue 6's study. */
    public static final double LAMBDA = 0.9;
    /** The service laws of issue 6's study, in the simulator's syntax. */
    public static final List<String> SERVICES = List.of("lognormal:scv=1", "lognormal:scv=4", "pareto:shape=2.5",
            "weibull:shape=0.5");
    /** Seed of issue 6's study. */
    public static final long SEED = 6L;
    /** The constant {@code c} of the finite-N allowance {@code c/N}. */
    public static final double BIAS_CONSTANT = 10;
    /** The PDE's error at its default step (about 1e-4; 5e-4 for Weibull shape 0.5). */
    public static final double PDE_ERROR = 5e-4;
    /** Share of the compared points that may lie outside the tolerance. */
    public static final double ALLOWED_MISS_SHARE = 0.1;

    private PdeScenarios() {
    }

    /**
     * One transient compared.
     *
     * @param service the service law's specification
     * @param d servers sampled per arrival
     * @param lambda arrival rate per server
     * @param times the compared times
     * @param pde {@code pde[k] = (1, x_1(t_k), ...)} from the PDE at its default settings
     * @param simulation the simulation (its {@code tailTrajectory()} holds the estimates at {@code times})
     * @param pdeSeconds wall time of the PDE
     * @param simulationSeconds wall time of the simulation
     */
    public record TransientComparison(String service, int d, double lambda, double[] times, double[][] pde,
            SimulationResult simulation, double pdeSeconds, double simulationSeconds) {

        /** @return the simulated tail vectors with their 95% intervals, one per time */
        public List<VectorEstimate> simulated() {
            return simulation.tailTrajectory();
        }

        /** @return the number of servers simulated */
        public int servers() {
            return simulation.scenario().run().servers();
        }

        /** @return CI half-width + {@code c/N} + the PDE's error */
        public Comparisons.Tolerance tolerance() {
            return new Comparisons.Tolerance(1, BIAS_CONSTANT / servers() + PDE_ERROR);
        }

        /** @return one check per time and level where the PDE or the simulation exceeds {@link Comparisons#NEGLIGIBLE} */
        public List<Check> checks() {
            return Comparisons.transientTails("", times, pde, simulation, tolerance());
        }

        /** @return the checks outside their tolerance */
        public int misses() {
            return (int) checks().stream().filter(Check::failed).count();
        }

        /** @return whether at most {@link #ALLOWED_MISS_SHARE} of the checks miss */
        public boolean passed() {
            List<Check> checks = checks();
            long missed = checks.stream().filter(Check::failed).count();
            return missed <= Math.floor(ALLOWED_MISS_SHARE * checks.size());
        }
    }

    /**
     * Runs the PDE and the simulator for one transient of SQ(d) from an empty system.
     *
     * @param service service law specification (e.g. {@code lognormal:scv=4})
     * @param d servers sampled per arrival
     * @param lambda arrival rate per server
     * @param servers simulated servers {@code N}
     * @param replications independent replications (≥ 2, for the confidence intervals)
     * @param tEnd horizon
     * @param dt spacing of the compared times
     * @param seed simulation seed
     * @param threads simulation threads
     * @return the comparison
     */
    public static TransientComparison transientComparison(String service, int d, double lambda, int servers,
            int replications, double tEnd, double dt, long seed, int threads) {
        ServiceDistribution law = ServiceDistributions.parse(service);
        SimulationScenario scenario = SimulationScenario.builder()
                .model(LoadBalancingModel.of(ServerSystem.singleServerQueues(), Policy.powerOfD(d), lambda).withService(law))
                .servers(servers).tEnd(tEnd).dt(dt)
                .replications(replications).seed(seed).threads(threads).build();
        double[] times = scenario.gridTimes();
        long pdeStart = System.nanoTime();
        PdeTransient tr = HydrodynamicPde.of(d, lambda, law).transientFrom(PdeInitialState.empty(), TimeGrid.of(times));
        double pdeSeconds = (System.nanoTime() - pdeStart) * 1e-9;
        double[][] pde = new double[times.length][];
        for (int k = 0; k < times.length; k++) {
            pde[k] = tr.tail(k);
        }
        long simStart = System.nanoTime();
        SimulationResult sim = Simulator.run(scenario);
        return new TransientComparison(law.spec(), d, lambda, times, pde, sim, pdeSeconds,
                (System.nanoTime() - simStart) * 1e-9);
    }

    /**
     * Issue 6's study: SQ(2), λ = 0.9, N = 10⁴, 20 replications, t ≤ 80 every 2, for each law of
     * {@link #SERVICES} (about 3·10⁷ simulated events per law).
     *
     * @param threads simulation threads
     * @return one comparison per law, in the order of {@link #SERVICES}
     */
    public static List<TransientComparison> issue6(int threads) {
        List<TransientComparison> out = new ArrayList<>();
        for (String service : SERVICES) {
            out.add(transientComparison(service, 2, LAMBDA, SERVERS, REPLICATIONS, T_END, DT, SEED, threads));
        }
        return out;
    }
}
