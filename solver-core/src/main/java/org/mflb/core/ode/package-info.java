/**
 * Transients of a fluid limit {@code dx/dt = f(x, t)} (docs/models.md §0). {@link TransientSolver}
 * integrates a {@link org.mflb.core.model.DriftField} with Hipparchus's adaptive Dormand–Prince 8(5,3)
 * under the tolerances of {@link IntegratorSettings}, keeps states in the field's state space, and samples
 * the solution on a {@link TimeGrid} from the dense output as it goes; a {@link Trajectory} keeps only the
 * grid and integrates afresh from the grid time before to give the state at any time, so memory never
 * grows with the length of the run. {@link PieceIntegration} holds the steps shared by the
 * piecewise-smooth solvers of the non-smooth policies (docs/models.md §1a, §3): one Dormand–Prince run per
 * smooth piece, stopped at the first upward crossing of a switching function (located by a bracketing
 * Brent solver) or at the next knot of a piecewise-linear {@code λ(t)}, so that no step straddles a switch
 * or a kink. Nothing here smooths a drift.
 *
 * <p><b>Dependencies:</b> {@code org.mflb.core}, {@code org.mflb.core.model} and Hipparchus's ODE package
 * only. The integrators know a vector field and switching functions, never a policy's drift or regimes
 * (those are in fluid-models): this package must not depend on the fluid, PDE or simulation code, nor on
 * the other solver packages of solver-core.
 */
package org.mflb.core.ode;
