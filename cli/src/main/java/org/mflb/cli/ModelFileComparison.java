package org.mflb.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

import com.fasterxml.jackson.databind.node.ObjectNode;

import org.mflb.core.MflbException;
import org.mflb.core.modelfile.ModelFile;
import org.mflb.validation.ModelFileScenarios;
import org.mflb.validation.ScenarioOutcome;
import org.mflb.validation.ValidationContext;
import org.mflb.validation.ValidationScenario;

/**
 * {@code compare --model} and {@code diffusion --model}: a model file's predictions (refined mean
 * field, transient, linear-noise covariance) against the simulated N-object chain, as the checks
 * of {@link ModelFileScenarios} (the validation catalogue's model-file scenarios).
 */
final class ModelFileComparison {

    private ModelFileComparison() {
    }

    /**
     * Runs {@code scenario} in a temporary directory and moves its figure to {@code plot}, the path
     * asked for (the scenario names its figure after its own id), or deletes it when there is none;
     * prints the checks. An unusable {@code plot} is refused before the run.
     */
    static int run(ValidationScenario scenario, Path plot, long seed, int threads, OutputFormat format,
            PrintWriter out) {
        if (format == OutputFormat.csv) {
            throw MflbException.invalid("format", "csv", "json or table");
        }
        if (plot != null) {
            if (!plot.getFileName().toString().endsWith(".png")) {
                throw MflbException.invalid("plot", plot, "a file name ending in .png");
            }
            OutputPaths.requireWritableFile("plot", plot);
        }
        Path temporary = null;
        try {
            temporary = Files.createTempDirectory("mflb-compare");
            ScenarioOutcome outcome = scenario.run(new ValidationContext(temporary, false, seed, threads));
            if (plot != null) {
                Path figure = outcome.figure().orElseThrow(() -> new IllegalStateException(
                        "scenario " + scenario.id() + " drew no figure"));
                Files.move(figure, plot, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            }
            if (format == OutputFormat.json) {
                ObjectNode json = CheckPrinter.json(outcome.checks());
                json.put("title", outcome.title());
                json.put("description", outcome.description());
                if (plot != null) {
                    json.put("plot", plot.toString());
                }
                Printer.printJson(out, json);
            } else {
                out.println(outcome.title());
                out.println();
                out.println(outcome.description());
                out.println();
                CheckPrinter.table(out, outcome.checks());
                if (plot != null) {
                    out.println("figure: " + plot);
                }
            }
            return 0;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            if (temporary != null) {
                try (var files = Files.list(temporary)) {
                    for (Path p : (Iterable<Path>) files::iterator) {
                        Files.deleteIfExists(p);
                    }
                    Files.deleteIfExists(temporary);
                } catch (IOException ignored) {
                    // a temporary figure left behind is harmless
                }
            }
        }
    }

    static int compare(ModelFile file, Integer n, Double tEnd, Double dt, Double warmup, int replications, Path plot,
            long seed, int threads, OutputFormat format, PrintWriter out) {
        if (n == null) {
            throw MflbException.missing("n", "with --model (the number of objects N >= 1)");
        }
        ValidationScenario scenario;
        if (dt != null) {
            if (tEnd == null) {
                throw MflbException.missing("t-end", "with --dt (the transient's horizon)");
            }
            scenario = ModelFileScenarios.transientRun("compare", "Transient of " + file.name() + ", N = " + n, file, n,
                    org.mflb.core.ode.TimeGrid.uniform(tEnd, dt), replications);
        } else {
            double horizon = tEnd != null ? tEnd : 1000;
            double w = warmup != null ? warmup : horizon / 10;
            ModelFileScenarios.Effort effort = new ModelFileScenarios.Effort(horizon, w, replications);
            scenario = ModelFileScenarios.refinedVersusN("compare", "Stationary means of " + file.name() + ", N = " + n,
                    file, new int[] {n}, c -> effort);
        }
        return run(scenario, plot, seed, threads, format, out);
    }

    static int diffusion(ModelFile file, Integer n, int levels, boolean longRun, Path plot, long seed, int threads,
            OutputFormat format, PrintWriter out) {
        if (n == null) {
            throw MflbException.missing("n", "with --model (the number of objects N >= 1)");
        }
        ModelFileScenarios.Effort effort = longRun ? new ModelFileScenarios.Effort(20000, 200, 16)
                : new ModelFileScenarios.Effort(4000, 100, 8);
        return run(ModelFileScenarios.covariance("diffusion", "Linear-noise covariance of " + file.name(), file, n,
                levels, c -> effort), plot, seed, threads, format, out);
    }
}
