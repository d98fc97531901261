/**
 * Exact simulation of the {@code N}-object chain of a population model file (docs/model-files.md; [Kurtz],
 * docs/models.md §0), the truth the model file's mean field, refined mean field (§4) and covariance are
 * checked against. {@link PopulationChain} is the chain on integer counts {@code n = N·x}, transition
 * {@code ℓ} firing at rate {@code N·β_ℓ(n/N)} and moving {@code n → n + ℓ}, written from the file's jump
 * vectors and compiled rates only, with the dependency graph of its rates; {@link PopulationSimulation}
 * runs it by Gillespie's direct method on a sum tree, recomputing only the rates that read a changed
 * coordinate, and estimates time averages and, on a time grid, the transient, with 95% intervals.
 *
 * <p><b>Dependencies:</b> {@code org.mflb.core}, {@code org.mflb.core.modelfile} (the compiled rates and
 * jump vectors, not the {@code FileModel} drift), and the simulator's {@code org.mflb.simulation}
 * (estimates), {@code .engine} (random streams) and {@code .stat}. Like every simulator package it must
 * never depend on the fluid or PDE models, nor use a drift or its derivatives.
 */
package org.mflb.simulation.population;
