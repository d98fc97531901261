package org.mflb.core.model;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.mflb.core.ErrorKind;
import org.mflb.core.MflbException;

/**
 * Reads time-varying arrival profiles, {@code λ(t)} per server, from CSV files into a
 * {@link PiecewiseLinearRate}. Format: one {@code t,lambda} pair per line, times strictly
 * increasing, rates finite and {@code >= 0}; an optional header line (a first line that is not
 * numeric, e.g. {@code t,lambda}); {@code #} starts a comment; blank lines are ignored.
 * <pre>
 *   # morning peak
 *   t,lambda
 *   0,0.5
 *   10,0.95
 *   20,0.5
 * </pre>
 * Errors name the file and line: {@link ErrorKind#INPUT} for unreadable files and malformed
 * lines, {@link ErrorKind#INVALID_PARAMETER} for values out of range.
 */
public final class ArrivalProfiles {

    private ArrivalProfiles() {
    }

    /**
     * @param file a CSV file as described in the class comment
     * @return the piecewise-linear rate through its points (constant before the first and after the last)
     * @throws MflbException (INPUT or INVALID_PARAMETER) naming the file and line
     */
    public static PiecewiseLinearRate read(Path file) {
        List<String> lines;
        String why = !Files.exists(file) ? "no such file"
                : Files.isDirectory(file) ? "it is a directory, not a file"
                : !Files.isReadable(file) ? "permission denied" : null;
        if (why != null) {
            throw new MflbException(ErrorKind.INPUT, "lambda-profile", "cannot read arrival profile " + file + ": " + why);
        }
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (java.nio.charset.MalformedInputException e) {
            throw new MflbException(ErrorKind.INPUT, "lambda-profile",
                    "cannot read arrival profile " + file + ": not a UTF-8 text file of t,lambda lines");
        } catch (IOException | RuntimeException e) {
            throw new MflbException(ErrorKind.INPUT, "lambda-profile", "cannot read arrival profile " + file + ": "
                    + (e instanceof java.nio.file.AccessDeniedException ? "permission denied" : "read error"));
        }
        return parse(String.valueOf(file), lines);
    }

    /**
     * @param source name of the input for error messages
     * @param lines the lines of the CSV text
     * @return the piecewise-linear rate through its points
     */
    public static PiecewiseLinearRate parse(String source, List<String> lines) {
        double[] times = new double[Math.max(lines.size(), 1)];
        double[] rates = new double[times.length];
        int count = 0;
        boolean seenContent = false;
        for (int lineNo = 1; lineNo <= lines.size(); lineNo++) {
            String line = lines.get(lineNo - 1);
            int hash = line.indexOf('#');
            String content = (hash >= 0 ? line.substring(0, hash) : line).strip();
            if (lineNo == 1 && content.startsWith("\uFEFF")) {
                content = content.substring(1).strip(); // byte-order mark
            }
            if (content.isEmpty()) {
                continue;
            }
            boolean first = !seenContent;
            seenContent = true;
            String[] fields = content.split(",", -1);
            double t;
            double r;
            try {
                if (fields.length != 2) {
                    throw new NumberFormatException();
                }
                t = Double.parseDouble(fields[0].strip());
                r = Double.parseDouble(fields[1].strip());
            } catch (NumberFormatException e) {
                if (first && fields.length == 2) {
                    continue; // header line
                }
                throw new MflbException(ErrorKind.INPUT, "profile", where(source, lineNo)
                        + "malformed line '" + content + "': expected t,lambda (two numbers)");
            }
            if (!Double.isFinite(t)) {
                throw new MflbException(ErrorKind.INVALID_PARAMETER, "t",
                        where(source, lineNo) + "t = " + t + " is invalid: must be a finite number");
            }
            if (!(r >= 0) || !Double.isFinite(r)) {
                throw new MflbException(ErrorKind.INVALID_PARAMETER, "lambda",
                        where(source, lineNo) + "lambda = " + r + " is invalid: must be a finite number >= 0");
            }
            if (count > 0 && !(t > times[count - 1])) {
                throw new MflbException(ErrorKind.INVALID_PARAMETER, "t", where(source, lineNo) + "t = " + t
                        + " is invalid: must be > " + times[count - 1] + " (times strictly increasing, no duplicates)");
            }
            times[count] = t;
            rates[count] = r;
            count++;
        }
        if (count == 0) {
            throw new MflbException(ErrorKind.INPUT, "profile",
                    source + ": no data lines (expected lines t,lambda)");
        }
        double[] ts = new double[count];
        double[] rs = new double[count];
        System.arraycopy(times, 0, ts, 0, count);
        System.arraycopy(rates, 0, rs, 0, count);
        return new PiecewiseLinearRate(ts, rs);
    }

    private static String where(String source, int lineNo) {
        return source + " line " + lineNo + ": ";
    }
}
