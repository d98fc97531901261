package org.mflb.fluid.memory;

import org.mflb.core.Require;
import org.mflb.fluid.FluidPolicy;

/**
 * SQ(d) with memory (Anselmi and Dufour, "Power-of-d-choices with memory: fluid limit and
 * optimality"): the dispatcher keeps the last observed queue length {@code m_k} of every server; at
 * an arrival it samples {@code d} servers, refreshes their {@code m_k}, sends the job to a server with
 * the smallest {@code m_k} and adds one to it. Sampling with or without replacement has the same
 * fluid limit ({@code docs/models.md §1a}). A {@link FluidPolicy}: {@code FluidModel.of(system, policy, λ)}
 * solves it with {@link MemoryModel}, whose results are in {@code memory()} of the fixed point and transient.
 *
 * @param d servers sampled per arrival, {@code ≥ 1}
 */
public record MemoryPolicy(int d) implements FluidPolicy {

    /** Validates {@code d}. */
    public MemoryPolicy {
        Require.atLeast("d", d, 1);
    }

    /** @return SQ(d) with memory */
    public static MemoryPolicy of(int d) {
        return new MemoryPolicy(d);
    }

    /** @return {@code cases.memory(this)} */
    @Override
    public <R> R match(FluidPolicy.Cases<R> cases) {
        return cases.memory(this);
    }

    /** @return false: the drift switches between smooth pieces (docs/models.md §1a) */
    @Override
    public boolean isSmooth() {
        return false;
    }

    /** @return {@code SQ(d) with memory} */
    @Override
    public String name() {
        return "SQ(" + d + ") with memory";
    }

    /** @return the load below which every job reaches an idle server, {@code 1 − 1/d} */
    public double optimalLoad() {
        return 1.0 - 1.0 / d;
    }

    /**
     * @param lambda load in (0, 1)
     * @return the bound on queue lengths of the abstract, {@code ⌈−ln(1−λ)/ln(1+λd)⌉} (1 when
     *         {@code λ ≤ 1 − 1/d}: no job waits)
     */
    public int queueBound(double lambda) {
        Require.open("lambda", lambda, 0, 1);
        return Math.max(1, (int) Math.ceil(-Math.log1p(-lambda) / Math.log1p(lambda * d)));
    }
}
