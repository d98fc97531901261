package org.mflb.cli;

import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import org.mflb.validation.Check;

/** Prints prediction-versus-simulation checks, shared by {@code compare} and {@code diffusion}. */
final class CheckPrinter {

    private CheckPrinter() {
    }

    /**
     * @return a JSON object with {@code maxError}, {@code maxErrorInHalfWidths}, {@code checks},
     *         {@code failed}, {@code notApplicable} (checks whose prediction says nothing at this N:
     *         neither passed nor failed), {@code rows} (each with {@code tolerance}, split into
     *         {@code statisticalTolerance} and {@code modelErrorTolerance}, {@code passed},
     *         {@code applicable}, {@code informative} and, when not applicable, {@code reason}),
     *         {@code uninformative} and, when some check is not applicable, {@code warnings}
     */
    static ObjectNode json(List<Check> checks) {
        ObjectNode json = Printer.object();
        json.put("maxError", maxError(checks));
        Printer.put(json, "maxErrorInHalfWidths", maxErrorInHalfWidths(checks));
        json.put("checks", checks.size());
        json.put("failed", checks.stream().filter(Check::failed).count());
        json.put("notApplicable", checks.stream().filter(c -> !c.applicable()).count());
        ArrayNode rows = json.putArray("rows");
        for (Check c : checks) {
            ObjectNode row = rows.addObject();
            row.put("quantity", c.quantity());
            row.put("predicted", c.predicted());
            row.put("simulated", c.simulated());
            row.set("ci95", Printer.array(new double[] {c.ci95Low(), c.ci95High()}));
            row.put("error", c.error());
            row.put("tolerance", c.tolerance());
            if (c.split()) {
                row.put("statisticalTolerance", c.statistical());
                row.put("modelErrorTolerance", c.modelError());
            }
            row.put("passed", c.passed());
            row.put("applicable", c.applicable());
            row.put("informative", c.informative());
            c.reason().ifPresent(r -> row.put("reason", r));
        }
        json.put("uninformative", checks.stream().filter(c -> !c.informative()).count());
        List<String> warnings = warnings(checks);
        if (!warnings.isEmpty()) {
            warnings.forEach(json.putArray("warnings")::add);
        }
        return json;
    }

    /** Prints the aligned table and the summary line. */
    static void table(PrintWriter out, List<Check> checks) {
        Printer.Table table = new Printer.Table("quantity", "predicted", "simulated", "95% CI", "error", "err/half-width",
                "result");
        for (Check c : checks) {
            table.row(c.quantity(), Printer.number(c.predicted()), Printer.number(c.simulated()),
                    "[" + Printer.number(fraction(c) ? Math.max(0, c.ci95Low()) : c.ci95Low()) + ", "
                            + Printer.number(fraction(c) ? Math.min(1, c.ci95High()) : c.ci95High()) + "]",
                    Printer.number(c.error()), String.format(Locale.ROOT, "%.2f", c.errorInHalfWidths()),
                    !c.applicable() ? "n/a" : c.failed() ? "FAIL" : c.informative() ? "ok" : "ok*");
        }
        table.print(out);
        out.println();
        long failed = checks.stream().filter(Check::failed).count();
        long notApplicable = checks.stream().filter(c -> !c.applicable()).count();
        long uninformative = checks.stream().filter(c -> c.passed() && !c.informative()).count();
        // The largest error and the largest error in half-widths are usually on different rows: name each.
        Check worst = checks.stream().max(java.util.Comparator.comparingDouble(Check::error)).orElse(null);
        Check worstScaled = checks.stream().filter(c -> c.halfWidth() > 0)
                .max(java.util.Comparator.comparingDouble(Check::errorInHalfWidths)).orElse(null);
        out.println(String.format(Locale.ROOT, "max error %s%s; max error in CI half-widths %.2f%s; %d of %d checks within"
                + " tolerance%s%s", Printer.number(maxError(checks)), worst == null ? "" : " (" + worst.quantity() + ")",
                maxErrorInHalfWidths(checks), worstScaled == null ? "" : " (" + worstScaled.quantity() + ")",
                checks.size() - failed - notApplicable, checks.size(), failed > 0 ? ", " + failed + " FAILED" : "",
                notApplicable > 0 ? ", " + notApplicable + " not applicable at this N (n/a)" : ""));
        for (String warning : warnings(checks)) {
            out.println("warning: " + warning);
        }
        if (uninformative > 0) {
            out.println(String.format(Locale.ROOT, "ok* = %d check(s) that cannot fail: the tolerance is at least the"
                    + " predicted value (a prediction of 0 would pass too)%s", uninformative,
                    uninformative == checks.size() ? "; no check here tests the model (is N too small?)" : ""));
        }
    }

    /** @return one warning per check that is not applicable, naming it and the reason */
    static List<String> warnings(List<Check> checks) {
        return checks.stream().filter(c -> !c.applicable()).map(c -> c.quantity() + " not applicable: " + c.reason().orElseThrow())
                .toList();
    }

    /** Tail levels are fractions: their intervals are shown cut to [0, 1]. */
    private static boolean fraction(Check c) {
        return c.quantity().matches("x_\\d+.*");
    }

    private static double maxError(List<Check> checks) {
        return checks.stream().mapToDouble(Check::error).max().orElse(0);
    }

    /** Over intervals of positive width (a level never reached has a zero-width interval). */
    private static double maxErrorInHalfWidths(List<Check> checks) {
        return checks.stream().filter(c -> c.halfWidth() > 0).mapToDouble(Check::errorInHalfWidths).max().orElse(0);
    }
}
