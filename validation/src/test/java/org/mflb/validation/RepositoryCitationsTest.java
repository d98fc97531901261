package org.mflb.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The product stands on its own: no source, build file, model file or document of the repository cites
 * material outside it (the maths is cited as {@code docs/models.md §N}, the papers by the short names
 * that file lists, e.g. [GABL]).
 */
class RepositoryCitationsTest {

    /** A path outside the repository, the outside maths file by its bare name, or the outside papers' numbers. */
    private static final Pattern OUTSIDE = Pattern.compile("(?i)\\.\\./shared|(?<!docs/)MODELS\\.md|MODEL_FILES\\.md|paper\\s+00\\d");

    private static final Pattern CHECKED = Pattern.compile(".*\\.(java|md|xml|sh|model|txt)$|.*/mflb$|.*/run$");

    @Test
    void noFileCitesMaterialOutsideTheRepository() throws IOException {
        Path root = Path.of("..").toAbsolutePath().normalize();
        List<String> hits = new ArrayList<>();
        try (Stream<Path> paths = Files.walk(root)) {
            paths.filter(Files::isRegularFile)
                    .filter(p -> !root.relativize(p).toString().startsWith(".git"))
                    .filter(p -> !p.toString().contains("/target/"))
                    .filter(p -> CHECKED.matcher(p.toString()).matches())
                    .filter(p -> !p.getFileName().toString().equals("RepositoryCitationsTest.java"))
                    .forEach(p -> scan(root, p, hits));
        }
        assertEquals(List.of(), hits, "files citing material outside the repository");
    }

    private static void scan(Path root, Path file, List<String> hits) {
        try {
            List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
            for (int i = 0; i < lines.size(); i++) {
                if (OUTSIDE.matcher(lines.get(i)).find()) {
                    hits.add(root.relativize(file) + ":" + (i + 1) + ": " + lines.get(i).strip());
                }
            }
        } catch (java.nio.charset.MalformedInputException e) {
            // not text
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
