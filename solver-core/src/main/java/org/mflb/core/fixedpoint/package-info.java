/**
 * Stable fixed points {@code f(π) = 0} of a time-homogeneous drift, with the evidence for them
 * ({@link FixedPoint}: the residual {@code ‖f(π)‖∞}, the iterations, and the spectrum of the Jacobian
 * {@code Df(π)} that decides local stability). {@link FixedPointSolver} runs pseudo-transient continuation
 * (Kelley and Keyes 1998): implicit Euler steps of growing length, which follow the flow far from
 * equilibrium, so that only attracting fixed points draw the iteration, and become Newton's method near
 * one, converging to machine precision; linear systems are solved by EJML's LU, or by banded elimination
 * for the tridiagonal Jacobians of long tail vectors. A model whose jumps conserve linear quantities is
 * solved on the affine subspace {@code x(0) + span{ℓ}} it moves on ({@code AffineRestriction}, with the
 * basis of {@link org.mflb.core.refined.JumpSubspace}; docs/models.md §0, §4), where the Jacobian loses
 * the zero eigenvalues of the conservation laws.
 *
 * <p><b>Dependencies:</b> {@code org.mflb.core}, {@code org.mflb.core.model}, {@code org.mflb.core.ode},
 * {@code org.mflb.core.refined} (the jump subspace), EJML and Hipparchus. The solver knows a
 * {@link org.mflb.core.model.PopulationModel} and nothing of any policy's drift: this package must not
 * depend on fluid-models, the PDE or the simulator.
 */
package org.mflb.core.fixedpoint;
