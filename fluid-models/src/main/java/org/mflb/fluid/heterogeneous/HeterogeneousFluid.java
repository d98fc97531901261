package org.mflb.fluid.heterogeneous;

import org.mflb.core.ErrorKind;
import org.mflb.core.MflbException;
import org.mflb.core.Require;
import org.mflb.core.fixedpoint.FixedPoint;
import org.mflb.core.fixedpoint.FixedPointSolver;
import org.mflb.core.model.ArrivalRate;
import org.mflb.core.ode.TimeGrid;
import org.mflb.core.ode.Trajectory;
import org.mflb.core.ode.TransientSolver;
import org.mflb.core.refined.RefinedMeanField;
import org.mflb.core.refined.SteadyStateExpansion;
import org.mflb.core.system.LoadBalancingModel;
import org.mflb.core.system.Policy;
import org.mflb.core.system.Sampling;
import org.mflb.core.system.ServerClasses;
import org.mflb.core.system.ServerSystem;

/**
 * The fluid (mean-field) limit of {@code N} single-server FIFO queues in classes of speeds under
 * random routing, SQ(d) or SED(d), with uniform or speed-weighted sampling (docs/models.md §10):
 * stability ({@link ClassStability}: {@code λ*}, the overloaded classes, their growth), the fixed
 * point with per-class tails ({@link ClassFixedPoint}, levels chosen so that the cut-off mass is below
 * {@link #TAIL_TOLERANCE}), transients of {@link HeterogeneousModel}, and the refined 1/N and 1/N²
 * terms (the drift is a polynomial: exact derivatives).
 */
public final class HeterogeneousFluid {

    /** Largest fraction of servers the truncation may leave at the top level, per class. */
    public static final double TAIL_TOLERANCE = 1e-14;
    /** Levels per class tried first. */
    static final int INITIAL_LEVELS = 16;
    /** Levels per class beyond which the fixed point gives up. */
    public static final int MAX_LEVELS = 4096;

    private final ServerClasses classes;
    private final ClassRule rule;
    private final int d;
    private final boolean speedWeighted;
    private final double lambda;

    /**
     * @param classes the server classes
     * @param rule the dispatching rule
     * @param d servers sampled per arrival (1 for random)
     * @param speedWeighted whether each sample picks a server with probability proportional to its speed
     * @param lambda arrival rate per server, {@code > 0}
     */
    public HeterogeneousFluid(ServerClasses classes, ClassRule rule, int d, boolean speedWeighted, double lambda) {
        this.classes = classes;
        this.rule = rule;
        this.d = rule == ClassRule.RANDOM ? 1 : Require.atLeast("d", d, 1);
        this.speedWeighted = speedWeighted;
        this.lambda = Require.positive("lambda", lambda);
    }

    /**
     * The fluid of a model with server classes (or of one class: the homogeneous model by the same
     * equations). Distinct sampling has the limit of sampling with replacement.
     *
     * @param model single-server queues, exponential service of mean 1, a constant {@code λ}, policy
     *        random, sqd or sed
     * @return its fluid
     * @throws MflbException naming {@code system}, {@code service}, {@code lambda} or {@code policy} otherwise
     */
    public static HeterogeneousFluid of(LoadBalancingModel model) {
        if (model.system().kind() != ServerSystem.Kind.SUPERMARKET) {
            throw MflbException.invalid("system", model.system().name(), "supermarket for servers in classes");
        }
        if (!model.unitExponentialService()) {
            throw MflbException.invalid("service", model.service().spec(), "exp (exponential of mean 1) for the fluid"
                    + " of servers in classes");
        }
        if (!model.arrivalRate().isConstant()) {
            throw MflbException.invalid("lambda", "a profile", "a constant for the fixed point of servers in classes");
        }
        Policy policy = model.policy();
        boolean weighted = policy.sampling() == Sampling.SPEED;
        ClassRule rule = policy.match(new Policy.Cases<ClassRule>() {
            @Override
            public ClassRule random(Policy.Random p) {
                return ClassRule.RANDOM;
            }

            @Override
            public ClassRule powerOfD(Policy.PowerOfD p) {
                return p.d() == 1 ? ClassRule.RANDOM : ClassRule.SHORTEST_QUEUE;
            }

            @Override
            public ClassRule shortestExpectedDelay(Policy.ShortestExpectedDelay p) {
                return p.d() == 1 ? ClassRule.RANDOM : ClassRule.SHORTEST_EXPECTED_DELAY;
            }

            @Override
            public ClassRule joinShortestQueue(Policy.JoinShortestQueue p) {
                return unsupported(p);
            }

            @Override
            public ClassRule joinIdleQueue(Policy.JoinIdleQueue p) {
                return unsupported(p);
            }

            @Override
            public ClassRule threshold(Policy.Threshold p) {
                return unsupported(p);
            }

            @Override
            public ClassRule adaptiveThreshold(Policy.AdaptiveThreshold p) {
                return unsupported(p);
            }

            @Override
            public ClassRule memory(Policy.Memory p) {
                return unsupported(p);
            }

            @Override
            public ClassRule leastLoaded(Policy.LeastLoaded p) {
                return unsupported(p);
            }

            private ClassRule unsupported(Policy p) {
                throw MflbException.invalid("policy", p.id(), "random, sqd or sed for servers in classes");
            }
        });
        return new HeterogeneousFluid(model.classes(), rule, policy.d(), weighted, model.arrivalRate().at(0));
    }

    /** @return the stability boundary and, at this {@code λ}, the overloaded classes and their growth */
    public ClassStability stability() {
        return ClassStability.of(classes, rule, d, speedWeighted, lambda);
    }

    /** @return the model with {@code levels} levels per class and a constant {@code λ} */
    public HeterogeneousModel model(int levels) {
        return new HeterogeneousModel(classes, rule, d, speedWeighted, ArrivalRate.constant(lambda), levels);
    }

    /**
     * @return the fixed point, levels doubled until the top level holds less than {@link #TAIL_TOLERANCE}
     *         of every class
     * @throws MflbException of kind {@link ErrorKind#UNSTABLE} naming the overloaded classes when
     *         {@code λ ≥ λ*}
     */
    public ClassFixedPoint fixedPoint() {
        ClassStability stability = stability();
        if (!stability.stable()) {
            throw new MflbException(ErrorKind.UNSTABLE, "lambda", "unstable: classes "
                    + java.util.Arrays.toString(stability.overloadedClasses()).replaceAll("[\\[\\]]", "")
                    + " receive more than their capacity at lambda = " + lambda + " (no fixed point for lambda >= "
                    + "lambda* = " + stability.lambdaStar() + ")");
        }
        if (rule == ClassRule.RANDOM) {
            return randomRoutingFixedPoint();
        }
        FixedPointSolver solver = new FixedPointSolver();
        int levels = INITIAL_LEVELS;
        // from empty: the relaxation of the solver is fast from there (from the homogeneous tails at λ/C it
        // is stiff, 10x slower, because the slow classes start far below their level)
        double[] guess = new double[classes.count() * levels];
        while (true) {
            HeterogeneousModel model = model(levels);
            FixedPoint fp = solver.solve(model, guess);
            double[] y = fp.state();
            double top = 0;
            for (int c = 0; c < classes.count(); c++) {
                top = Math.max(top, y[model.index(c, levels)] / classes.fraction(c));
            }
            if (top < TAIL_TOLERANCE) {
                return new ClassFixedPoint(model, y, fp.residual());
            }
            if (2 * levels > MAX_LEVELS) {
                throw new MflbException(ErrorKind.TRUNCATION, "lambda", "the fixed point at lambda = " + lambda
                        + " needs more than " + MAX_LEVELS + " levels per class (lambda* = " + stability.lambdaStar() + ")");
            }
            guess = extend(model, y, 2 * levels);
            levels *= 2;
        }
    }

    /**
     * @param order 1 (the 1/N term) or 2 (also 1/N²)
     * @return the steady-state expansion at the fixed point
     */
    public SteadyStateExpansion refined(int order) {
        ClassFixedPoint fp = fixedPoint();
        return new RefinedMeanField(order).steadyState(fp.model(), fp.state());
    }

    /**
     * The transient from an initial state on a time grid.
     *
     * @param levels levels per class
     * @param rate the arrival rate {@code λ(t)}
     * @param initial {@code y(0)} in the model's order
     * @param grid output times
     * @return the trajectory
     */
    public Trajectory transientFrom(int levels, ArrivalRate rate, double[] initial, TimeGrid grid) {
        HeterogeneousModel model = model(levels).withArrivalRate(rate);
        return new TransientSolver().solve(model, initial, grid);
    }

    /**
     * Random routing makes every class-{@code k} server an M/M/1 queue of load {@code ρ_k = λ/s_k}
     * (uniform sampling) or {@code λ/C} (speed-weighted): {@code u_{k,i} = ρ_k^i}, kept up to the level
     * where every class is below {@link #TAIL_TOLERANCE}.
     */
    private ClassFixedPoint randomRoutingFixedPoint() {
        double[] load = new double[classes.count()];
        double highest = 0;
        for (int c = 0; c < load.length; c++) {
            load[c] = speedWeighted ? lambda / classes.capacity() : lambda / classes.speed(c);
            highest = Math.max(highest, load[c]);
        }
        int levels = (int) Math.min(Integer.MAX_VALUE - 1, Math.max(1, Math.ceil(Math.log(TAIL_TOLERANCE) / Math.log(highest))));
        if (levels > 64 * MAX_LEVELS) {
            throw new MflbException(ErrorKind.TRUNCATION, "lambda", "the fixed point at lambda = " + lambda
                    + " needs more than " + 64 * MAX_LEVELS + " levels per class");
        }
        HeterogeneousModel model = model(levels);
        double[] y = new double[model.getDimension()];
        for (int c = 0; c < load.length; c++) {
            double u = 1;
            for (int i = 1; i <= levels; i++) {
                u *= load[c];
                y[model.index(c, i)] = classes.fraction(c) * u;
            }
        }
        double[] f = new double[y.length];
        model.drift(0, y, f);
        double residual = 0;
        for (double fi : f) {
            residual = Math.max(residual, Math.abs(fi));
        }
        return new ClassFixedPoint(model, y, residual);
    }

    private static double[] extend(HeterogeneousModel from, double[] y, int levels) {
        int k = from.classes().count();
        double[] out = new double[k * levels];
        System.arraycopy(y, 0, out, 0, y.length);
        return out;
    }
}
