package org.mflb.sweep;

import java.io.Serializable;

/**
 * What one point's command gave: its exit code and either its JSON output or its one-line error.
 *
 * @param index the point's index in the grid
 * @param exitCode the command's exit code (0 for success)
 * @param json the command's JSON output (empty when it failed)
 * @param error the command's error line, without the {@code mflb: } prefix (empty when it succeeded)
 */
public record PointResult(int index, int exitCode, String json, String error) implements Serializable {

    private static final long serialVersionUID = 1L;

    /** @return whether the point's command succeeded */
    public boolean succeeded() {
        return exitCode == 0;
    }
}
