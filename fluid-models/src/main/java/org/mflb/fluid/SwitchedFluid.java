package org.mflb.fluid;

import org.mflb.core.system.ServerSystem;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;

import org.mflb.core.ErrorKind;
import org.mflb.core.MflbException;
import org.mflb.core.model.ArrivalRate;
import org.mflb.core.model.InitialState;
import org.mflb.core.ode.TimeGrid;
import org.mflb.fluid.nonsmooth.AdaptiveThreshold;
import org.mflb.fluid.nonsmooth.JoinShortestQueue;
import org.mflb.fluid.nonsmooth.NonSmoothPolicy;
import org.mflb.fluid.nonsmooth.PiecewiseSmoothSolver;
import org.mflb.fluid.nonsmooth.Regime;
import org.mflb.fluid.nonsmooth.RegimeHistory;
import org.mflb.fluid.nonsmooth.SwitchedEquilibrium;
import org.mflb.fluid.nonsmooth.ThresholdEquilibria;
import org.mflb.fluid.nonsmooth.ThresholdPolicy;

/**
 * The fixed point and transients of a {@link FluidModel} whose policy is non-smooth (threshold,
 * self-learning threshold, JSQ, JIQ; [GABL] eq. (2), docs/models.md §3): closed-form equilibria
 * and piece-by-piece integration ({@link PiecewiseSmoothSolver}).
 */
final class SwitchedFluid implements FluidSolver {

    /** Levels beyond which automatic truncation gives up. */
    private static final int MAX_LEVELS = 100_000;

    private final FluidModel model;
    private final NonSmoothPolicy policy;
    private final ServerSystem system;

    /**
     * @param model the fluid model solved
     * @param policy its policy
     * @throws MflbException if the policy has no fluid limit here: loss pools; single-server queues
     *         for the threshold policies ({@code ℓ ≥ 1}, self-learning)
     */
    SwitchedFluid(FluidModel model, NonSmoothPolicy policy) {
        ServerSystem system = model.system();
        if (system.isLossy()) {
            throw MflbException.invalid("system", system.name(), "supermarket or pools for policy " + policy.name());
        }
        if (system.kind() == ServerSystem.Kind.SUPERMARKET && (policy.isAdaptive()
                || policy.declaredThreshold().orElse(0) > 0)) {
            throw MflbException.invalid("system", system.name(), "pools for the threshold policies");
        }
        this.model = model;
        this.policy = policy;
        this.system = system;
    }

    @Override
    public FluidModel model() {
        return model;
    }

    /** @return {@code μ_j} at index {@code j−1}, {@code j = 1..levels} */
    private static double[] departureRates(ServerSystem system, int levels) {
        double[] mu = new double[levels];
        for (int j = 1; j <= levels; j++) {
            mu[j - 1] = system.departureRate(j);
        }
        return mu;
    }

    /**
     * The equilibrium at the constant rate {@code rate} (stable load): for the threshold policy (and
     * JIQ, {@code ℓ = 0}) in pools the closed forms of {@link ThresholdEquilibria}; for JSQ in pools
     * {@code q*}; for JSQ and JIQ in single-server queues ({@code λ < 1}) {@code x_1 = λ},
     * {@code x_i = 0} for {@code i ≥ 2}; for the learning threshold, the static equilibrium of the
     * threshold it settles at from the empty state and {@code ℓ(0)}.
     */
    @Override
    public FluidFixedPoint fixedPoint(double rate) {
        if (system.kind() == ServerSystem.Kind.SUPERMARKET) {
            // JSQ and JIQ both send every arrival to an idle server while there is one (x_1 < 1)
            double[] x = new double[4];
            x[0] = rate;
            return FluidFixedPoint.switched(system, x, residual(system, rate, x, policy),
                    new SwitchedEquilibrium(SwitchedEquilibrium.Kind.BALANCED, policy.declaredThreshold(), Optional.empty(),
                            OptionalDouble.empty()));
        }
        return policy.match(new NonSmoothPolicy.Cases<FluidFixedPoint>() {
            @Override
            public FluidFixedPoint joinShortestQueue(JoinShortestQueue jsq) {
                double[] q = ThresholdEquilibria.balanced(rate, (int) Math.floor(rate) + 3);
                return FluidFixedPoint.switched(system, q, residual(system, rate, q, jsq),
                        new SwitchedEquilibrium(SwitchedEquilibrium.Kind.BALANCED, OptionalInt.empty(), Optional.empty(),
                                OptionalDouble.empty()));
            }

            @Override
            public FluidFixedPoint threshold(ThresholdPolicy t) {
                return staticEquilibrium(system, t.threshold(), rate, OptionalDouble.empty());
            }

            @Override
            public FluidFixedPoint adaptiveThreshold(AdaptiveThreshold adaptive) {
                return settledEquilibrium(adaptive, rate);
            }
        });
    }

    /** The static equilibrium of the threshold the learning threshold settles at from the empty state and {@code ℓ(0)}. */
    private FluidFixedPoint settledEquilibrium(AdaptiveThreshold adaptive, double rate) {
        double horizon = 80;
        FluidTransient run = transientFrom(InitialState.empty(), TimeGrid.of(0, horizon));
        RegimeHistory history = run.regimes().orElseThrow();
        List<RegimeHistory.ThresholdJump> jumps = history.thresholdJumps();
        int settled = history.threshold(1);
        double last = jumps.isEmpty() ? 0.0 : jumps.get(jumps.size() - 1).t();
        if (last > horizon / 2) {
            throw new MflbException(ErrorKind.NO_CONVERGENCE, "alpha", "the learning threshold still jumps at t = "
                    + last + " (alpha = " + adaptive.alpha() + " gives no equilibrium threshold from the empty state)");
        }
        return staticEquilibrium(system, settled, rate, OptionalDouble.of(last));
    }

    private static FluidFixedPoint staticEquilibrium(ServerSystem system, int ell, double rate, OptionalDouble settling) {
        int k = (int) Math.floor(rate);
        boolean integer = rate == k;
        double[] q;
        SwitchedEquilibrium.Kind kind;
        String diagnosis = null;
        if (ell == k || (integer && ell == k - 1)) {
            q = ThresholdEquilibria.balanced(rate, Math.max(ell, k) + 3);
            kind = SwitchedEquilibrium.Kind.BALANCED;
        } else if (ell > k) {
            q = ThresholdEquilibria.erlangB(ell, rate, ell + 3);
            kind = SwitchedEquilibrium.Kind.ERLANG_B;
            diagnosis = "threshold " + ell + " > floor(lambda) = " + k + ": not fluid-optimal; pools hold 0.."
                    + ell + " tasks (Erlang-B with offered load lambda/(1 - q_" + ell + "))";
        } else {
            q = ThresholdEquilibria.aboveThreshold(ell, rate);
            kind = SwitchedEquilibrium.Kind.UNBOUNDED_SUPPORT;
            diagnosis = "threshold " + ell + " too low (h = " + (ell + 1) + " < lambda = " + rate
                    + "): every pool holds >= " + (ell + 1) + " tasks and mass escapes to unbounded levels"
                    + " (random routing above h); use threshold floor(lambda) = " + k;
        }
        return FluidFixedPoint.switched(system, q, residual(system, rate, q, NonSmoothPolicy.threshold(ell)),
                new SwitchedEquilibrium(kind, OptionalInt.of(ell), Optional.ofNullable(diagnosis), settling));
    }

    /**
     * Where arrivals go under a non-smooth policy (docs/models.md §7): the arrival split of the piece
     * in force, {@code regime}, or when it is null the piece the policy puts in force at the state.
     */
    @Override
    public ArrivalShares arrivalShares(Regime regime) {
        return (lam, x) -> {
            double[] y = x.clone();
            double[] mu = departureRates(system, y.length);
            Regime piece = regime != null ? regime : policy.initialRegime(lam, mu, y);
            return piece.arrivalShares(lam, mu, y);
        };
    }

    /** ‖f‖∞ of the drift of the piece that {@code rule} puts in force at {@code x} (λ constant). */
    private static double residual(ServerSystem system, double rate, double[] x, NonSmoothPolicy rule) {
        double[] y = x.clone();
        double[] mu = departureRates(system, y.length);
        Regime regime = rule.initialRegime(rate, mu, y);
        double[] f = new double[y.length];
        regime.drift(rate, mu, y, f);
        double max = 0;
        for (double v : f) {
            max = Math.max(max, Math.abs(v));
        }
        return max;
    }

    /**
     * The transient from {@code initial} on {@code grid}, integrated piece by piece
     * ({@link PiecewiseSmoothSolver}); the number of levels grows until the cut-off mass is below the
     * truncation's tolerance (or is the fixed truncation).
     */
    @Override
    public FluidTransient transientFrom(InitialState initial, TimeGrid grid) {
        ArrivalRate lambda = model.arrivalRate();
        Truncation truncation = model.truncation();
        double[] start = initial.kind() == InitialState.Kind.FIXED_POINT
                ? model.withArrivalRate(ArrivalRate.constant(lambda.at(grid.start()))).fixedPoint().levels()
                : null;
        int occupied = start != null ? start.length : initial.occupiedLevels();
        int levels;
        if (!truncation.isAutomatic()) {
            levels = truncation.levels();
            if (occupied > levels) {
                throw MflbException.invalid("truncation", levels, ">= the levels occupied by the initial state ("
                        + occupied + ")");
            }
        } else {
            levels = initialLevels(occupied, lambda.supremum(grid.start(), grid.end()));
        }
        PiecewiseSmoothSolver solver = new PiecewiseSmoothSolver(model.integrator());
        while (true) {
            double[] x0 = start != null ? TailVectors.resize(start, levels) : initial.levels(levels);
            FluidTransient result;
            try {
                result = FluidTransient.switched(solver.solve(policy, lambda, departureRates(system, levels), x0, grid));
            } catch (MflbException e) {
                if (e.kind() != ErrorKind.TRUNCATION || !truncation.isAutomatic()) {
                    throw e;
                }
                result = null; // the solution reached the last levels kept: more levels
            }
            if (result != null && (!truncation.isAutomatic() || result.cutOffMass() <= truncation.tolerance())) {
                return result;
            }
            if (2L * levels > MAX_LEVELS) {
                throw new MflbException(ErrorKind.TRUNCATION, "truncation",
                        "the tail needs more than 100000 levels to keep the cut-off mass below the tolerance");
            }
            levels *= 2;
        }
    }

    /** Enough levels for a Poisson-like tail at the largest rate, the threshold, and the initial state. */
    private int initialLevels(int occupied, double maxRate) {
        if (system.kind() == ServerSystem.Kind.SUPERMARKET) {
            return Math.max(occupied + 30, 60);
        }
        int levels = Math.max(occupied + 8, (int) Math.ceil(maxRate + 10 * Math.sqrt(maxRate) + 20));
        return policy.match(new NonSmoothPolicy.Cases<Integer>() {
            @Override
            public Integer joinShortestQueue(JoinShortestQueue jsq) {
                return levels;
            }

            @Override
            public Integer threshold(ThresholdPolicy t) {
                return Math.max(levels, t.threshold() + 4);
            }

            @Override
            public Integer adaptiveThreshold(AdaptiveThreshold a) {
                return Math.max(levels, Math.max(a.initialThreshold(), (int) Math.ceil(maxRate / a.alpha())) + 4);
            }
        });
    }

    /**
     * @return the estimated mass beyond the last level {@code K}: {@code x_K r/(1 − r)} with
     *         {@code r = x_K/x_{K−1}} (tails of these policies decay at least geometrically beyond
     *         the threshold), or {@code K x_K} when the tail does not decrease there
     */
    static double cutOffMass(double[] x) {
        int k = x.length;
        double last = x[k - 1];
        if (!(last > 0)) {
            return 0.0;
        }
        double r = last / x[k - 2];
        return r < 1 ? last * r / (1 - r) : k * last;
    }
}
