package org.mflb.fluid;

import org.mflb.core.system.ServerSystem;
import java.util.Optional;
import java.util.OptionalDouble;

import org.hipparchus.complex.Complex;
import org.mflb.core.fixedpoint.FixedPoint;
import org.mflb.fluid.memory.MemoryFixedPoint;
import org.mflb.fluid.nonsmooth.SwitchedEquilibrium;

/**
 * The fixed point of a fluid model, any policy, as a tail vector, with the numerical evidence:
 * residual {@code ‖f(π)‖∞}, the truncation and the mass it cuts off, stability, and the blocking
 * probability of loss pools. What depends on the kind of drift is optional:
 * <ul>
 * <li>smooth drifts ({@link SmoothRouting}): the drift at the chosen truncation, for refined
 *     mean-field expansions ({@link #smoothDrift()}), the solver's iterations and the spectrum of the
 *     Jacobian;</li>
 * <li>non-smooth drifts: the kind of equilibrium, the threshold in force, a diagnosis and the
 *     settling time of the learning threshold ({@link #equilibrium()}).</li>
 * </ul>
 */
public final class FluidFixedPoint {

    private final ServerSystem system;
    private final double[] levels;
    private final double residual;
    /** The smooth drift and the solver's result; null for a non-smooth policy. */
    private final TailModel model;
    private final FixedPoint fixedPoint;
    /** The closed-form equilibrium's description; null for a smooth policy. */
    private final SwitchedEquilibrium equilibrium;
    /** The tagged-server fixed point of SQ(d) with memory; null for the other policies. */
    private final MemoryFixedPoint memory;

    private FluidFixedPoint(ServerSystem system, double[] levels, double residual, TailModel model,
            FixedPoint fixedPoint, SwitchedEquilibrium equilibrium, MemoryFixedPoint memory) {
        this.system = system;
        this.levels = levels;
        this.residual = residual;
        this.model = model;
        this.fixedPoint = fixedPoint;
        this.equilibrium = equilibrium;
        this.memory = memory;
    }

    /** @return the fixed point of a smooth drift found by the fixed-point solver */
    static FluidFixedPoint smooth(TailModel model, FixedPoint fixedPoint) {
        double[] levels = fixedPoint.state();
        TailVectors.project(levels); // rounding may leave 1 ≥ x_1 ≥ … ≥ x_K ≥ 0 by an ulp
        return new FluidFixedPoint(model.system(), levels, fixedPoint.residual(), model, fixedPoint, null, null);
    }

    /** @return a closed-form equilibrium of a non-smooth drift, with the residual of the piece in force there */
    static FluidFixedPoint switched(ServerSystem system, double[] levels, double residual, SwitchedEquilibrium equilibrium) {
        TailVectors.project(levels); // a closed form's rounding may leave [0, 1] by an ulp
        return new FluidFixedPoint(system, levels, residual, null, null, equilibrium, null);
    }

    /** @return the fixed point of SQ(d) with memory (single-server queues) */
    static FluidFixedPoint memory(MemoryFixedPoint memory) {
        return new FluidFixedPoint(ServerSystem.singleServerQueues(), memory.levels(), memory.residual(), null, null, null,
                memory);
    }

    /** @return {@code (x_1, ..., x_K)} (a copy) */
    public double[] levels() {
        return levels.clone();
    }

    /** @return the tail vector {@code (x_0 = 1, x_1, ..., x_K)} */
    public double[] tail() {
        return TailVectors.withLevelZero(levels);
    }

    /** @return mean jobs per server (pool), {@code Σ_{i≥1} x_i} */
    public double meanQueueLength() {
        return TailVectors.mean(levels);
    }

    /** @return the number of levels {@code K} kept */
    public int truncation() {
        return levels.length;
    }

    /**
     * @return the estimated mass beyond level {@code K}: 0 for loss pools (which hold at most
     *         {@code K = C}); for a smooth drift {@link TailVectors#cutOffMass}; for a non-smooth one
     *         the geometric continuation of the last ratio {@code x_K/x_{K−1}}
     */
    public double cutOffMass() {
        if (memory != null) {
            return memory.cutOffMass();
        }
        if (model == null) {
            return SwitchedFluid.cutOffMass(levels);
        }
        return system.isLossy() ? 0.0 : TailVectors.cutOffMass(levels);
    }

    /** @return the blocking probability {@code h(x_C)} of loss pools; empty for other systems */
    public OptionalDouble blocking() {
        return system.isLossy() ? OptionalDouble.of(model.lossProbability(0, levels)) : OptionalDouble.empty();
    }

    /** @return {@code ‖f(π)‖∞} (non-smooth drifts: of the piece in force at the equilibrium) */
    public double residual() {
        return residual;
    }

    /** @return iterations of the fixed-point solver (0 for the closed forms of non-smooth drifts) */
    public int iterations() {
        return fixedPoint == null ? 0 : fixedPoint.iterations();
    }

    /** @return eigenvalues of the Jacobian at the fixed point, when computed (never for non-smooth drifts) */
    public Optional<Complex[]> spectrum() {
        return fixedPoint == null ? Optional.empty() : fixedPoint.spectrum();
    }

    /** @return the largest real part of the spectrum ({@code NaN} if not computed) */
    public double spectralAbscissa() {
        return fixedPoint == null ? Double.NaN : fixedPoint.spectralAbscissa();
    }

    /**
     * @return whether the fixed point is locally stable: for a smooth drift from the spectrum (true
     *         when it is not computed); for a non-smooth drift true, the equilibria being those the
     *         fluid converges to ([GABL] Section 3; the drift has no Jacobian there)
     */
    public boolean isStable() {
        return fixedPoint == null || fixedPoint.isStable();
    }

    /**
     * @return for a smooth policy, its drift at the chosen truncation (dimension {@link #truncation()}),
     *         around which refined mean-field expansions are computed; empty for non-smooth policies
     */
    public Optional<TailModel> smoothDrift() {
        return Optional.ofNullable(model);
    }

    /**
     * @return for a non-smooth policy, the kind of equilibrium, its threshold, diagnosis and settling
     *         time; empty for smooth policies
     */
    public Optional<SwitchedEquilibrium> equilibrium() {
        return Optional.ofNullable(equilibrium);
    }

    /**
     * @return for SQ(d) with memory, the (queue, observation) fixed point of the tagged-server chain:
     *         level {@code L}, max queue length, shares of jobs to idle and to believed-idle servers,
     *         {@code E[m − Q]}, the shares {@code s_j} of arrivals joining {@code ≥ j} jobs; empty otherwise
     */
    public Optional<MemoryFixedPoint> memory() {
        return Optional.ofNullable(memory);
    }
}
