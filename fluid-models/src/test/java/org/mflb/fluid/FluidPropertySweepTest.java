package org.mflb.fluid;

import org.mflb.core.system.ServerSystem;
import org.mflb.core.system.LoadBalancingModel;
import org.mflb.core.system.Policy;
import org.mflb.core.model.ArrivalRate;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;

import org.junit.jupiter.api.Test;
import org.mflb.core.model.InitialState;
import org.mflb.core.ode.TimeGrid;
import org.mflb.fluid.nonsmooth.NonSmoothPolicy;

/**
 * A property sweep over random valid models (fixed seed): every fixed point and transient is a tail
 * vector ({@code x_0 = 1}, entries in {@code [0, 1]}, non-increasing), and matches the closed forms
 * and conservation laws that hold for it: random routing is M/M/1 ({@code x_i = λ^i}), M/M/∞
 * (Poisson tail) or Erlang loss; SQ(d) on queues has {@code x_i = λ^{(d^i − 1)/(d − 1)}}; every
 * policy on single-server queues keeps {@code x_1 = λ} (work conservation), on infinite-server pools
 * a mean of {@code λ} jobs (Little's law), on loss pools a carried load {@code λ(1 − B)} equal to the
 * mean. In-process API calls only, so the few hundred cases take seconds.
 */
class FluidPropertySweepTest {

    private static final int FIXED_POINTS = 240;
    private static final int TRANSIENTS = 80;

    @Test
    void randomFixedPointsAreTailVectorsThatMeetTheirClosedFormsAndConservationLaws() {
        Random random = new Random(20261201);
        for (int c = 0; c < FIXED_POINTS; c++) {
            int kind = random.nextInt(3);
            boolean smooth = random.nextInt(4) != 0;
            int d = 1 + random.nextInt(6);
            FluidPolicy policy = d == 1 ? RandomRouting.INSTANCE : PowerOfD.withReplacement(d);
            ServerSystem chosenSystem;
            double chosenLambda;
            switch (kind) {
                case 0 -> {
                    chosenSystem = ServerSystem.singleServerQueues();
                    chosenLambda = 0.02 + 0.97 * random.nextDouble();
                    if (!smooth) {
                        policy = random.nextBoolean() ? NonSmoothPolicy.jsq() : NonSmoothPolicy.jiq();
                    }
                }
                case 1 -> {
                    chosenSystem = ServerSystem.infiniteServerPools();
                    chosenLambda = Math.exp(Math.log(0.05) + random.nextDouble() * Math.log(400 / 0.05));
                    if (!smooth) {
                        policy = switch (random.nextInt(3)) {
                            case 0 -> NonSmoothPolicy.jsq();
                            case 1 -> NonSmoothPolicy.jiq();
                            default -> NonSmoothPolicy.threshold((int) Math.ceil(chosenLambda) + random.nextInt(2));
                        };
                    }
                }
                default -> {
                    chosenSystem = ServerSystem.lossPools(1 + random.nextInt(30));
                    chosenLambda = Math.exp(Math.log(0.05) + random.nextDouble() * Math.log(1e4 / 0.05));
                }
            }
            ServerSystem system = chosenSystem;
            double lambda = chosenLambda;
            FluidPolicy rule = policy;
            String label = policy.name() + " on " + system + ", lambda = " + lambda;
            FluidFixedPoint fp = solve(label, () -> FluidModel.of(system, rule, lambda).fixedPoint());
            double[] x = fp.tail();
            assertTailVector(label, x);
            double mean = fp.meanQueueLength();
            switch (system.kind()) {
                case SUPERMARKET -> {
                    assertEquals(lambda, x[1], 1e-9, label + ": x_1 = lambda");
                    if (policy.isSmooth()) { // random routing (d = 1) or SQ(d)
                        for (int i = 1; i < Math.min(x.length, 12); i++) {
                            double exact = d == 1 ? Math.pow(lambda, i) : Math.pow(lambda, (Math.pow(d, i) - 1) / (d - 1));
                            assertEquals(exact, x[i], 1e-10, label + ": closed form at level " + i);
                        }
                    }
                }
                case POOLS -> {
                    assertEquals(lambda, mean, 1e-8 * Math.max(1, lambda), label + ": mean = lambda");
                    if (policy == RandomRouting.INSTANCE) {
                        double[] poisson = Poisson.tail(lambda, x.length - 1);
                        for (int i = 1; i < x.length; i++) {
                            assertEquals(poisson[i], x[i], 1e-10, label + ": Poisson tail at level " + i);
                        }
                    }
                }
                case LOSS -> {
                    double blocking = fp.blocking().getAsDouble();
                    assertTrue(blocking >= 0 && blocking <= 1, label + ": blocking " + blocking);
                    assertEquals(lambda * (1 - blocking), mean, 1e-8 * Math.max(1, lambda), label + ": carried load = mean");
                    if (policy == RandomRouting.INSTANCE) {
                        assertEquals(Poisson.erlangB(system.capacity(), lambda), blocking, 1e-10, label + ": Erlang B");
                    }
                }
            }
        }
    }

    @Test
    void randomTransientsStayTailVectorsAndConserveJobs() {
        Random random = new Random(7);
        for (int c = 0; c < TRANSIENTS; c++) {
            boolean pools = random.nextBoolean();
            ServerSystem system = pools ? ServerSystem.infiniteServerPools() : ServerSystem.singleServerQueues();
            double lambda = pools ? 0.1 + 20 * random.nextDouble() : 0.05 + 1.5 * random.nextDouble();
            int d = 1 + random.nextInt(pools ? 30 : 5);
            FluidPolicy policy = switch (random.nextInt(4)) {
                case 0 -> RandomRouting.INSTANCE;
                case 1 -> NonSmoothPolicy.jiq();
                default -> PowerOfD.withReplacement(d);
            };
            InitialState initial = switch (random.nextInt(3)) {
                case 0 -> InitialState.empty();
                case 1 -> InitialState.all(1 + random.nextInt(6));
                default -> InitialState.tail(1, 0.9, 0.4, 0.1);
            };
            String label = policy.name() + " on " + system + ", lambda = " + lambda + " from " + initial;
            double tEnd = 2;
            FluidTransient tr = solve(label, () -> FluidModel.of(system, policy, lambda).transientFrom(initial,
                    TimeGrid.uniform(tEnd, 0.25)));
            for (int k = 0; k < tr.grid().size(); k++) {
                assertTailVector(label + " at t = " + tr.grid().time(k), tr.tail(k));
            }
            assertTailVector(label + " between grid times", tr.tail(0.3 * tEnd + 0.01));
            if (pools) {
                // Jobs arrive at λ and leave at the mean: m(t) = λ + (m(0) − λ) e^{−t}, whatever the policy.
                double m0 = tr.meanQueueLength(0);
                for (int k = 0; k < tr.grid().size(); k++) {
                    double t = tr.grid().time(k);
                    assertEquals(lambda + (m0 - lambda) * Math.exp(-t), tr.meanQueueLength(k), 1e-7 * Math.max(1, lambda),
                            label + ": mean at t = " + t);
                }
            }
        }
    }

    /** Runs {@code solver}, naming the case when it throws. */
    private static <T> T solve(String label, java.util.function.Supplier<T> solver) {
        try {
            return solver.get();
        } catch (RuntimeException e) {
            throw new AssertionError(label + ": " + e.getMessage(), e);
        }
    }

    /**
     * Issue 29: high loads that left the simplex or lost the fixed point. Loss pools with SQ(d) at
     * hundreds of tasks per pool (diverged from the empty start), infinite-server pools at lambda in
     * the thousands (cut-off mass reported infinite): each answer a tail vector whose residual is
     * computed and small, with its conservation law and a finite cut-off mass.
     */
    @Test
    void highLoadFixedPointsAreVerifiedTailVectors() {
        for (double[] cl : new double[][] {{1200, 900}, {600, 550}}) {
            ServerSystem system = ServerSystem.lossPools((int) cl[0]);
            double lambda = cl[1];
            String label = "SQ(2) on " + system + ", lambda = " + lambda;
            FluidFixedPoint fp = FluidModel.of(system, PowerOfD.withReplacement(2), lambda).fixedPoint();
            assertTailVector(label, fp.tail());
            assertTrue(fp.residual() < 1e-8, label + ": residual " + fp.residual());
            double blocking = fp.blocking().getAsDouble();
            assertEquals(lambda * (1 - blocking), fp.meanQueueLength(), 1e-8 * lambda, label + ": carried load = mean");
        }
        for (double lambda : new double[] {1500, 4321}) {
            String label = "random on pools, lambda = " + lambda;
            FluidFixedPoint fp = FluidModel.of(ServerSystem.infiniteServerPools(), RandomRouting.INSTANCE, lambda)
                    .fixedPoint();
            assertTailVector(label, fp.tail());
            assertEquals(lambda, fp.meanQueueLength(), 1e-8 * lambda, label + ": mean = lambda");
            assertTrue(fp.cutOffMass() < 1e-9, label + ": cut-off mass " + fp.cutOffMass());
        }
        // threshold and JIQ pools at a load of 1000 (ran out of memory: rho^j/j! overflowed to infinity in the
        // regime-(c) equilibrium, whose weights then never fell below their stopping value)
        for (Policy policy : new Policy[] {new Policy.Threshold(3), new Policy.JoinIdleQueue()}) {
            double lambda = 1000;
            String label = policy + " on pools, lambda = " + lambda;
            FluidFixedPoint fp = FluidModel.of(LoadBalancingModel.of(ServerSystem.infiniteServerPools(), policy,
                    ArrivalRate.constant(lambda))).fixedPoint();
            assertTailVector(label, fp.tail());
            assertEquals(lambda, fp.meanQueueLength(), 1e-8 * lambda, label + ": mean = lambda (Little)");
            assertTrue(fp.residual() < 1e-8, label + ": residual " + fp.residual());
        }
    }

    private static void assertTailVector(String label, double[] x) {
        assertEquals(1.0, x[0], 0.0, label + ": x_0 = 1");
        for (int i = 1; i < x.length; i++) {
            assertTrue(x[i] >= 0 && x[i] <= 1, label + ": x_" + i + " = " + x[i] + " outside [0, 1]");
            assertTrue(x[i] <= x[i - 1], label + ": x_" + i + " = " + x[i] + " > x_" + (i - 1) + " = " + x[i - 1]);
        }
    }
}
