package org.mflb.sweep;

import java.io.PrintWriter;
import java.io.StringWriter;

import org.mflb.cli.Mflb;

/** Runs one point of a sweep in the calling thread: the point's command line through {@link Mflb#execute}. */
public final class PointRunner {

    private PointRunner() {
    }

    /** @return the point's JSON, or its error line and exit code; never throws */
    public static PointResult run(SweepPoint point) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code;
        try {
            code = Mflb.execute(point.args().toArray(String[]::new), new PrintWriter(out), new PrintWriter(err));
        } catch (Throwable t) { // an Error (say, out of memory) fails this point, not the sweep
            return new PointResult(point.index(), Mflb.EXIT_FAILURE, "", "internal error: " + t);
        }
        if (code == 0) {
            return new PointResult(point.index(), 0, out.toString(), "");
        }
        return new PointResult(point.index(), code, "", errorLine(err.toString(), code));
    }

    /** @return the first line of the command's error output, without the {@code mflb: } prefix */
    static String errorLine(String err, int code) {
        for (String line : err.split("\\R")) {
            if (!line.isBlank()) {
                return line.strip().replaceFirst("^mflb: ", "");
            }
        }
        return "exit code " + code;
    }
}
