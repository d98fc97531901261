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

    /** @return a JSON object with {@code maxError}, {@code maxErrorInHalfWidths}, {@code checks}, {@code failed}, {@code rows} */
    static ObjectNode json(List<Check> checks) {
        ObjectNode json = Printer.object();
        json.put("maxError", maxError(checks));
        Printer.put(json, "maxErrorInHalfWidths", maxErrorInHalfWidths(checks));
        json.put("checks", checks.size());
        json.put("failed", checks.stream().filter(c -> !c.passed()).count());
        ArrayNode rows = json.putArray("rows");
        for (Check c : checks) {
            ObjectNode row = rows.addObject();
            row.put("quantity", c.quantity());
            row.put("predicted", c.predicted());
            row.put("simulated", c.simulated());
            row.set("ci95", Printer.array(new double[] {c.ci95Low(), c.ci95High()}));
            row.put("error", c.error());
            row.put("tolerance", c.tolerance());
            row.put("passed", c.passed());
        }
        return json;
    }

    /** Prints the aligned table and the summary line. */
    static void table(PrintWriter out, List<Check> checks) {
        Printer.Table table = new Printer.Table("quantity", "predicted", "simulated", "95% CI", "error", "err/half-width",
                "result");
        for (Check c : checks) {
            table.row(c.quantity(), Printer.number(c.predicted()), Printer.number(c.simulated()),
                    "[" + Printer.number(c.ci95Low()) + ", " + Printer.number(c.ci95High()) + "]",
                    Printer.number(c.error()), String.format(Locale.ROOT, "%.2f", c.errorInHalfWidths()),
                    c.passed() ? "ok" : "FAIL");
        }
        table.print(out);
        out.println();
        long failed = checks.stream().filter(c -> !c.passed()).count();
        out.println(String.format(Locale.ROOT, "max error %s (%.2f CI half-widths); %d of %d checks within tolerance",
                Printer.number(maxError(checks)), maxErrorInHalfWidths(checks), checks.size() - failed, checks.size()));
    }

    private static double maxError(List<Check> checks) {
        return checks.stream().mapToDouble(Check::error).max().orElse(0);
    }

    /** Over intervals of positive width (a level never reached has a zero-width interval). */
    private static double maxErrorInHalfWidths(List<Check> checks) {
        return checks.stream().filter(c -> c.halfWidth() > 0).mapToDouble(Check::errorInHalfWidths).max().orElse(0);
    }
}
