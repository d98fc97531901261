package org.mflb.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.mflb.core.MflbException;

/**
 * Checks output paths before any work, so an unwritable {@code --plot} or {@code --out} is one line
 * at once instead of a failure after the whole run (with its numbers lost).
 */
final class OutputPaths {

    private OutputPaths() {
    }

    /**
     * @param option the option naming the file, for the message
     * @param file a file to be written (created or replaced)
     * @throws MflbException if its directory does not exist or is not writable, or the file exists
     *         and is a directory or not writable
     */
    static void requireWritableFile(String option, Path file) {
        Path absolute = file.toAbsolutePath();
        Path dir = absolute.getParent();
        if (Files.isDirectory(absolute)) {
            throw MflbException.invalid(option, file, "a file to write, not a directory");
        }
        if (dir == null || !Files.isDirectory(dir)) {
            throw MflbException.invalid(option, file, "a file in an existing directory (" + dir + " does not exist)");
        }
        try {
            probe(dir);
            if (Files.exists(absolute)) {
                java.nio.channels.FileChannel.open(absolute, java.nio.file.StandardOpenOption.WRITE).close();
            }
        } catch (IOException | SecurityException e) {
            throw MflbException.invalid(option, file, "a writable file (" + reason(e) + ")");
        }
    }

    /** Creates and deletes a file in {@code dir}: the only reliable test that it is writable. */
    private static void probe(Path dir) throws IOException {
        Files.delete(Files.createTempFile(dir, ".mflb-", ".probe"));
    }

    private static String reason(Exception e) {
        return e instanceof java.nio.file.AccessDeniedException ? "permission denied"
                : e instanceof java.nio.file.NoSuchFileException ? "its directory cannot be created" : "cannot write there";
    }

    /**
     * @param option the option naming the directory
     * @param dir a directory to be written into (created if missing, with its parents)
     * @throws MflbException if it is a file, or cannot be created or written
     */
    static void requireWritableDirectory(String option, Path dir) {
        Path p = dir.toAbsolutePath();
        if (Files.exists(p) && !Files.isDirectory(p)) {
            throw MflbException.invalid(option, dir, "a directory (it is a file)");
        }
        try {
            Files.createDirectories(p);
            probe(p);
        } catch (IOException | SecurityException e) {
            throw MflbException.invalid(option, dir, "a writable directory (" + reason(e) + ")");
        }
    }
}
