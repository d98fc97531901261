package org.mflb.sweep;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;

/** Runs one point of a sweep in the calling thread: the point's command line through {@link CommandRunner}. */
public final class PointRunner {

    /** The command line the points run on, found once per JVM (an executor's too). */
    private static final CommandRunner COMMAND_LINE = CommandRunner.load();

    private PointRunner() {
    }

    /** @return the point's JSON, or its error line and exit code; never throws */
    public static PointResult run(SweepPoint point) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code;
        try {
            code = COMMAND_LINE.execute(quietly(point.args()), new PrintWriter(out), new PrintWriter(err));
        } catch (Throwable t) { // an Error (say, out of memory) fails this point, not the sweep
            return new PointResult(point.index(), CommandRunner.EXIT_FAILURE, "", "internal error: " + t);
        }
        if (code == 0) {
            return new PointResult(point.index(), 0, out.toString(), "");
        }
        return new PointResult(point.index(), code, "", errorLine(err.toString(), code));
    }


    /** @return the point's command line, with {@code --quiet} when its command has progress of its own */
    static String[] quietly(List<String> args) {
        List<String> line = new ArrayList<>(args);
        if (!line.isEmpty() && COMMAND_LINE.commandsWithProgress().contains(line.get(0)) && !line.contains("--quiet")) {
            line.add("--quiet");
        }
        return line.toArray(String[]::new);
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
