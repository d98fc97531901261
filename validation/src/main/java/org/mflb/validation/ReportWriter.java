package org.mflb.validation;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import org.mflb.validation.plot.Figure;

/**
 * Writes a validation run as {@code report.md} (per scenario: what is compared, predicted,
 * simulated ± CI, error, pass/fail against the stated tolerance, the figure) and
 * {@code summary.json} (the same numbers for programs; per scenario {@code figure} and {@code data}, the
 * CSV of the curves the figure draws, see {@link Figure#dataFile}).
 */
public final class ReportWriter {

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private ReportWriter() {
    }

    /**
     * @param dir output directory (created if needed); figures are referenced relative to it
     * @param header first lines of the report (what was run, how)
     * @param outcomes the scenarios' results
     */
    public static void write(Path dir, String header, List<ScenarioOutcome> outcomes) {
        try {
            Files.createDirectories(dir);
            Files.writeString(dir.resolve("report.md"), markdown(dir, header, outcomes));
            Files.writeString(dir.resolve("summary.json"), JSON.writeValueAsString(summary(dir, outcomes)));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the report to " + dir, e);
        }
    }

    static String markdown(Path dir, String header, List<ScenarioOutcome> outcomes) {
        StringBuilder md = new StringBuilder("# mflb validation report\n\n").append(header).append("\n\n");
        long passed = outcomes.stream().filter(ScenarioOutcome::passed).count();
        md.append("**").append(passed).append(" of ").append(outcomes.size()).append(" scenarios passed.**");
        long notApplicable = outcomes.stream().mapToLong(ScenarioOutcome::notApplicable).sum();
        if (notApplicable > 0) {
            md.append(" ").append(notApplicable).append(" check(s) not applicable at their N (a size expansion whose"
                    + " terms do not decrease there): neither passed nor failed, listed as n/a with the reason.");
        }
        md.append("\n\n");
        md.append("| scenario | checks | max error | max error / CI half-width | time | result |\n");
        md.append("|---|---:|---:|---:|---:|---|\n");
        for (ScenarioOutcome o : outcomes) {
            md.append("| [").append(o.title()).append("](#").append(o.id()).append(") | ").append(o.checks().size())
                    .append(" | ").append(num(o.maxError())).append(" | ").append(num(o.maxErrorInHalfWidths()))
                    .append(" | ").append(String.format(Locale.ROOT, "%.1f s", o.seconds())).append(" | ")
                    .append(o.passed() ? "pass" : "**FAIL**").append(" |\n");
        }
        for (ScenarioOutcome o : outcomes) {
            md.append("\n<a id=\"").append(o.id()).append("\"></a>\n## ").append(o.title()).append("\n\n");
            md.append(o.description()).append("\n\n");
            md.append("| quantity | predicted | simulated | 95% CI | error | error / half-width"
                    + " | tolerance = statistical + model error | result |\n");
            md.append("|---|---:|---:|---|---:|---:|---:|---|\n");
            for (Check c : o.checks()) {
                md.append("| ").append(c.quantity()).append(" | ").append(num(c.predicted())).append(" | ")
                        .append(num(c.simulated())).append(" | [").append(num(c.ci95Low())).append(", ")
                        .append(num(c.ci95High())).append("] | ").append(num(c.error())).append(" | ")
                        .append(num(c.errorInHalfWidths())).append(" | ").append(tolerance(c)).append(" | ")
                        .append(verdict(c)).append(" |\n");
            }
            o.figure().ifPresent(f -> {
                md.append("\n![").append(o.title()).append("](").append(relative(dir, f).replace('\\', '/')).append(")\n");
                data(f).ifPresent(d -> md.append("\nData of the figure: [").append(d.getFileName()).append("](")
                        .append(relative(dir, d).replace('\\', '/')).append(")\n"));
            });
        }
        return md.toString();
    }

    static ObjectNode summary(Path dir, List<ScenarioOutcome> outcomes) {
        ObjectNode root = JSON.createObjectNode();
        root.put("scenarios", outcomes.size());
        root.put("passed", outcomes.stream().filter(ScenarioOutcome::passed).count());
        root.put("allPassed", outcomes.stream().allMatch(ScenarioOutcome::passed));
        root.put("notApplicable", outcomes.stream().mapToLong(ScenarioOutcome::notApplicable).sum());
        ArrayNode list = root.putArray("results");
        for (ScenarioOutcome o : outcomes) {
            ObjectNode node = list.addObject();
            node.put("id", o.id());
            node.put("title", o.title());
            node.put("passed", o.passed());
            node.put("notApplicable", o.notApplicable());
            node.put("seconds", o.seconds());
            putNumber(node, "maxError", o.maxError());
            putNumber(node, "maxErrorInHalfWidths", o.maxErrorInHalfWidths());
            o.figure().ifPresent(f -> {
                node.put("figure", relative(dir, f));
                data(f).ifPresent(d -> node.put("data", relative(dir, d)));
            });
            ArrayNode checks = node.putArray("checks");
            for (Check c : o.checks()) {
                ObjectNode cn = checks.addObject();
                cn.put("quantity", c.quantity());
                putNumber(cn, "predicted", c.predicted());
                putNumber(cn, "simulated", c.simulated());
                ArrayNode ci = cn.putArray("ci95");
                ci.add(c.ci95Low());
                ci.add(c.ci95High());
                putNumber(cn, "error", c.error());
                putNumber(cn, "tolerance", c.tolerance());
                if (c.split()) {
                    putNumber(cn, "statisticalTolerance", c.statistical());
                    putNumber(cn, "modelErrorTolerance", c.modelError());
                }
                cn.put("passed", c.passed());
                cn.put("applicable", c.applicable());
                c.reason().ifPresent(r -> cn.put("reason", r));
            }
        }
        return root;
    }

    private static String relative(Path dir, Path file) {
        return dir.toAbsolutePath().relativize(file.toAbsolutePath()).toString();
    }

    /** @return the CSV of a figure's curves, if it was written */
    private static java.util.Optional<Path> data(Path figure) {
        Path data = Figure.dataFile(figure);
        return Files.isRegularFile(data) ? java.util.Optional.of(data) : java.util.Optional.empty();
    }

    /** @return the tolerance as its statistical part plus its model-error part, or the total when not split */
    static String tolerance(Check c) {
        if (!c.split()) {
            return num(c.tolerance()) + " (not split)";
        }
        return num(c.tolerance()) + " = " + num(c.statistical()) + " + " + num(c.modelError());
    }

    /** @return pass, **FAIL**, or n/a with the reason */
    private static String verdict(Check c) {
        return c.reason().map(r -> "n/a: " + r).orElse(c.passed() ? "pass" : "**FAIL**");
    }

    private static void putNumber(ObjectNode node, String key, double v) {
        if (Double.isFinite(v)) {
            node.put(key, v);
        } else {
            node.putNull(key);
        }
    }

    private static String num(double v) {
        if (!Double.isFinite(v)) {
            return v > 0 ? "∞" : "—";
        }
        if (v == 0) {
            return "0";
        }
        double a = Math.abs(v);
        return a >= 1e-3 && a < 1e5 ? String.format(Locale.ROOT, "%.5f", v) : String.format(Locale.ROOT, "%.3e", v);
    }
}
