/**
 * Population model files (format 1, docs/model-files.md): any density-dependent population process
 * [Kurtz], written as one line per kind of event, {@code from -> to ; rate}, and read into a model that
 * every solver of mflb applies to. {@code Lexer} splits a file into statements of tokens, {@code Parser}
 * builds the {@code Syntax} tree, {@code Loader} expands loops, conditions, indexed families, sums and
 * {@code let}s once, at load time, into integer jump vectors and {@code Node} expressions, and
 * {@link RateProgram} compiles the rates to one flat stack program evaluated on doubles (solvers,
 * simulator) or on any Hipparchus {@code CalculusFieldElement} (exact derivatives). The result is a
 * {@link ModelFile}: names, parameters, initial state and transitions, whose {@link ModelFile#model()} is
 * the same process as a {@link FileModel}, an {@link org.mflb.core.model.PopulationModel} with exact
 * derivatives up to order 4 for the refined mean field (docs/models.md §4). {@link ShippedModels} finds
 * the example files shipped with mflb (SIR, SEIRS, SQ(d) in queues and loss pools, a cache, bike sharing)
 * by name. Every error starts with its {@link SourcePosition}, {@code file:line:column:}.
 *
 * <p><b>Dependencies:</b> {@code org.mflb.core}, {@code org.mflb.core.model},
 * {@code org.mflb.core.refined} (the rate-derivative interfaces and {@code AutomaticRateDerivatives}) and
 * Hipparchus. This package reads and compiles models; it must not depend on the fluid models, the PDE, the
 * simulator (which simulates a file's chain from its jump vectors and compiled rates, never from its
 * drift) or the command line, which only passes a file or a name and parameter values to
 * {@link ShippedModels}.
 */
package org.mflb.core.modelfile;
