package org.mflb.fluid.nonsmooth;

import java.util.List;
import java.util.OptionalDouble;
import java.util.OptionalInt;

import org.mflb.core.ErrorKind;
import org.mflb.core.MflbException;
import org.mflb.core.Require;
import org.mflb.core.model.ArrivalRate;
import org.mflb.core.model.InitialState;
import org.mflb.core.ode.IntegratorSettings;
import org.mflb.core.ode.TimeGrid;
import org.mflb.fluid.FluidResponseTime;
import org.mflb.fluid.ServerSystem;
import org.mflb.fluid.TailVectors;
import org.mflb.fluid.Truncation;

/**
 * The fluid limit of a non-smooth dispatching policy (threshold, self-learning threshold, JSQ, JIQ;
 * paper 000 eq. (2), MODELS.md §3): the entry point of the Java API, the sibling of
 * {@link org.mflb.fluid.FluidModel} for smooth policies. Immutable.
 * <pre>{@code
 *   NonSmoothModel m = NonSmoothModel.of(ServerSystem.infiniteServerPools(), NonSmoothPolicy.threshold(2), 2.5);
 *   SwitchedFixedPoint q = m.fixedPoint();                         // q* = (1, 1, 0.5)
 *   SwitchedTransient x = m.transientFrom(InitialState.empty(), TimeGrid.uniform(20, 0.1));
 * }</pre>
 */
public final class NonSmoothModel {

    private final ServerSystem system;
    private final NonSmoothPolicy policy;
    private final ArrivalRate lambda;
    private final Truncation truncation;
    private final IntegratorSettings integrator;

    private NonSmoothModel(ServerSystem system, NonSmoothPolicy policy, ArrivalRate lambda, Truncation truncation,
            IntegratorSettings integrator) {
        if (system.isLossy()) {
            throw MflbException.invalid("system", system.cliName(), "supermarket or pools for policy " + policy.name());
        }
        if (system.kind() == ServerSystem.Kind.SUPERMARKET && (policy.isAdaptive()
                || policy instanceof ThresholdPolicy t && t.threshold() > 0)) {
            throw MflbException.invalid("system", system.cliName(), "pools for the threshold policies");
        }
        this.system = system;
        this.policy = policy;
        this.lambda = lambda;
        this.truncation = truncation;
        this.integrator = integrator;
    }

    /** @return the model with constant {@code λ > 0} */
    public static NonSmoothModel of(ServerSystem system, NonSmoothPolicy policy, double lambda) {
        Require.positive("lambda", lambda);
        return of(system, policy, ArrivalRate.constant(lambda));
    }

    /** @return the model with arrival rate {@code λ(t)} */
    public static NonSmoothModel of(ServerSystem system, NonSmoothPolicy policy, ArrivalRate lambda) {
        return new NonSmoothModel(system, policy, lambda, Truncation.DEFAULT, IntegratorSettings.DEFAULT);
    }

    /** @return a copy with another truncation */
    public NonSmoothModel withTruncation(Truncation t) {
        return new NonSmoothModel(system, policy, lambda, t, integrator);
    }

    /** @return a copy with other integrator tolerances */
    public NonSmoothModel withIntegratorSettings(IntegratorSettings settings) {
        return new NonSmoothModel(system, policy, lambda, truncation, settings);
    }

    /** @return a copy with another arrival rate */
    public NonSmoothModel withArrivalRate(ArrivalRate rate) {
        return new NonSmoothModel(system, policy, rate, truncation, integrator);
    }

    /** @return the servers */
    public ServerSystem system() {
        return system;
    }

    /** @return the policy */
    public NonSmoothPolicy policy() {
        return policy;
    }

    /** @return the arrival rate */
    public ArrivalRate arrivalRate() {
        return lambda;
    }

    /** @return {@code μ_j} at index {@code j−1}, {@code j = 1..levels} */
    double[] departureRates(int levels) {
        double[] mu = new double[levels];
        for (int j = 1; j <= levels; j++) {
            mu[j - 1] = system.departureRate(j);
        }
        return mu;
    }

    /**
     * The equilibrium: for the threshold policy (and JIQ, {@code ℓ = 0}) in pools the closed forms of
     * {@link ThresholdEquilibria}; for JSQ in pools {@code q*}; for JSQ and JIQ in single-server queues
     * ({@code λ < 1}) {@code x_1 = λ}, {@code x_i = 0} for {@code i ≥ 2}; for the learning threshold,
     * the static equilibrium of the threshold it settles at from the empty state and {@code ℓ(0)}.
     */
    public SwitchedFixedPoint fixedPoint() {
        if (!lambda.isConstant()) {
            throw MflbException.invalid("lambda", "a time-varying profile", "a constant rate for a fixed point");
        }
        double rate = lambda.at(0);
        system.requireStable(rate);
        if (system.kind() == ServerSystem.Kind.SUPERMARKET) {
            // JSQ and JIQ both send every arrival to an idle server while there is one (x_1 < 1)
            double[] x = new double[4];
            x[0] = rate;
            return new SwitchedFixedPoint(SwitchedFixedPoint.Kind.BALANCED, x, residual(x, policy),
                    policy instanceof ThresholdPolicy ? OptionalInt.of(0) : OptionalInt.empty(), null,
                    OptionalDouble.empty());
        }
        if (policy instanceof JoinShortestQueue) {
            double[] q = ThresholdEquilibria.balanced(rate, (int) Math.floor(rate) + 3);
            return new SwitchedFixedPoint(SwitchedFixedPoint.Kind.BALANCED, q, residual(q, policy), OptionalInt.empty(), null,
                    OptionalDouble.empty());
        }
        if (policy instanceof ThresholdPolicy t) {
            return staticEquilibrium(t.threshold(), rate, OptionalDouble.empty());
        }
        AdaptiveThreshold adaptive = (AdaptiveThreshold) policy;
        double horizon = 80;
        SwitchedTransient run = transientFrom(InitialState.empty(), TimeGrid.of(0, horizon));
        List<SwitchedTransient.ThresholdJump> jumps = run.thresholdJumps();
        int settled = run.threshold(1);
        double last = jumps.isEmpty() ? 0.0 : jumps.get(jumps.size() - 1).t();
        if (last > horizon / 2) {
            throw new MflbException(ErrorKind.NO_CONVERGENCE, "alpha", "the learning threshold still jumps at t = "
                    + last + " (alpha = " + adaptive.alpha() + " gives no equilibrium threshold from the empty state)");
        }
        return staticEquilibrium(settled, rate, OptionalDouble.of(last));
    }

    private SwitchedFixedPoint staticEquilibrium(int ell, double rate, OptionalDouble settling) {
        int k = (int) Math.floor(rate);
        boolean integer = rate == k;
        double[] q;
        SwitchedFixedPoint.Kind kind;
        String diagnosis = null;
        if (ell == k || (integer && ell == k - 1)) {
            q = ThresholdEquilibria.balanced(rate, Math.max(ell, k) + 3);
            kind = SwitchedFixedPoint.Kind.BALANCED;
        } else if (ell > k) {
            q = ThresholdEquilibria.erlangB(ell, rate, ell + 3);
            kind = SwitchedFixedPoint.Kind.ERLANG_B;
            diagnosis = "threshold " + ell + " > floor(lambda) = " + k + ": not fluid-optimal; pools hold 0.."
                    + ell + " tasks (Erlang-B with offered load lambda/(1 - q_" + ell + "))";
        } else {
            q = ThresholdEquilibria.aboveThreshold(ell, rate);
            kind = SwitchedFixedPoint.Kind.UNBOUNDED_SUPPORT;
            diagnosis = "threshold " + ell + " too low (h = " + (ell + 1) + " < lambda = " + rate
                    + "): every pool holds >= " + (ell + 1) + " tasks and mass escapes to unbounded levels"
                    + " (random routing above h); use threshold floor(lambda) = " + k;
        }
        return new SwitchedFixedPoint(kind, q, residual(q, NonSmoothPolicy.threshold(ell)), OptionalInt.of(ell), diagnosis, settling);
    }

    /**
     * The response-time law (docs/models.md §7) for a job arriving at time {@code t} in state
     * {@code levels}, from the arrival split of the piece the policy puts in force there.
     *
     * @param t time (for {@code λ(t)})
     * @param levels {@code (x_1..x_K)}; not modified
     * @return the law ({@code Exp(1)} in pools)
     */
    public FluidResponseTime responseTime(double t, double[] levels) {
        double[] y = levels.clone();
        double[] mu = departureRates(y.length);
        double rate = lambda.at(t);
        Regime regime = policy.initialRegime(rate, mu, y);
        return responseTime(regime, rate, y);
    }

    /** @return the response-time law of the equilibrium {@code fixedPoint} of this model */
    public FluidResponseTime responseTime(SwitchedFixedPoint fixedPoint) {
        return responseTime(0.0, fixedPoint.levels());
    }

    FluidResponseTime responseTime(Regime regime, double rate, double[] levels) {
        double[] mu = departureRates(levels.length);
        return FluidResponseTime.of(system, (lam, x) -> regime.arrivalShares(lam, mu, x), rate, levels);
    }

    /** ‖f‖∞ of the drift of the piece that {@code rule} puts in force at {@code x} (λ constant). */
    private double residual(double[] x, NonSmoothPolicy rule) {
        double[] y = x.clone();
        double[] mu = departureRates(y.length);
        double rate = lambda.at(0);
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
    public SwitchedTransient transientFrom(InitialState initial, TimeGrid grid) {
        double[] start = initial.kind() == InitialState.Kind.FIXED_POINT
                ? withArrivalRate(ArrivalRate.constant(lambda.at(grid.start()))).fixedPoint().levels()
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
        PiecewiseSmoothSolver solver = new PiecewiseSmoothSolver(integrator);
        while (true) {
            double[] x0 = start != null ? TailVectors.resize(start, levels) : initial.levels(levels);
            SwitchedTransient result;
            try {
                result = new SwitchedTransient(this, solver.solve(policy, lambda, departureRates(levels), x0, grid));
            } catch (MflbException e) {
                if (e.kind() != ErrorKind.TRUNCATION || !truncation.isAutomatic()) {
                    throw e;
                }
                result = null; // the solution reached the last levels kept: more levels
            }
            if (result != null && (!truncation.isAutomatic() || result.cutOffMass() <= truncation.tolerance())) {
                return result;
            }
            if (2L * levels > 100_000) {
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
        if (policy instanceof ThresholdPolicy t) {
            levels = Math.max(levels, t.threshold() + 4);
        } else if (policy instanceof AdaptiveThreshold a) {
            levels = Math.max(levels, Math.max(a.initialThreshold(), (int) Math.ceil(maxRate / a.alpha())) + 4);
        }
        return levels;
    }

    @Override
    public String toString() {
        return policy.name() + " on " + system;
    }
}
