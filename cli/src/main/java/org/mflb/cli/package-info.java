/**
 * The {@code mflb} command line (picocli), a thin shell over the Java API: {@link Mflb} and its commands
 * {@code fixed-point}, {@code transient}, {@code simulate}, {@code pde}, {@code compare},
 * {@code diffusion} (including the Halfin–Whitt regime), {@code sweep}, {@code validate}, {@code bench}
 * and {@code models}. The commands share option groups: {@code ModelOptions}, the model options declared
 * once for the five model commands, which produce the library's {@code LoadBalancingModel};
 * {@code TruncationOptions}, {@code ModelFileOptions} for {@code --model FILE|NAME}, {@code RefinedOptions},
 * {@code PercentileOptions}, {@code LossOptions}, {@code ProgressOptions}, {@code RandomStreamOptions}
 * (the Halfin–Whitt study is a mode of {@code diffusion}, {@code HalfinWhittMode}, with options of its own),
 * print tables for people or a stable JSON or CSV contract ({@link OutputFormat}, {@code Printer}), and
 * report progress on stderr only. This is the one place where parameters become flags: the libraries'
 * {@link org.mflb.core.MflbException}s name parameters, and the command line prints each error on one
 * line, with exit code 1 for a bad value and 2 for a malformed command line or a missing required option,
 * naming the flag. The mathematics is that of the libraries it calls and is cited there (docs/models.md).
 *
 * <p><b>Dependencies:</b> every library module (solver-core, fluid-models, pde-models, the simulator, the
 * validation catalogue), {@code org.mflb.sweep}, picocli, Jackson and XChart. Nothing imports this
 * package: no library, and not the sweeps either ({@link MflbCommandLine} reaches them as the
 * {@code CommandRunner} service), may depend on {@code org.mflb.cli}; the libraries know nothing of the
 * command line.
 */
package org.mflb.cli;
