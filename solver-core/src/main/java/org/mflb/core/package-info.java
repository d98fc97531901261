/**
 * The root of mflb: what every other package, in every module, shares and nothing else. It holds the
 * single exception type {@link MflbException}, the {@link ErrorKind}s it carries (an invalid or missing
 * parameter, an unstable model, no convergence, a truncation that would cut off too much mass, unreadable
 * input) and the parameter checks of {@link Require} that every immutable parameter object runs at
 * construction. An error's message is one line for the end user that names the parameter (never a
 * command-line flag: mapping a parameter to its flag is the command line's business) and its valid range;
 * programs and tests read {@link MflbException#kind()} and {@link MflbException#parameter()} instead of
 * the text, in the manner of Hipparchus's format keys.
 *
 * <p>No mathematics lives here, so nothing is cited. <b>Dependencies:</b> the JDK only. This package must
 * not depend on any other package of mflb, nor on a third-party library: every layer (the solvers, the
 * fluid and PDE models, the simulator, the catalogue, the command line) depends on it.
 */
package org.mflb.core;
