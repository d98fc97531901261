package org.mflb.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Python example ({@code examples/python/mflb_from_python.py}, the README's "From Python") runs
 * against this build's jar and prints the numbers mflb computes: the SQ(2) fixed point against its
 * closed form, and the fluid mean queue length of the sweep equal to that of {@code fixed-point}.
 * Runs when a Python 3 with numpy, pandas and matplotlib is found ({@code MFLB_PYTHON}, else
 * {@code python3} on the PATH); otherwise the test is skipped and says why.
 */
class PythonExampleTest {

    @TempDir
    Path dir;

    private static String python() {
        String named = System.getenv("MFLB_PYTHON");
        return named != null && !named.isBlank() ? named : "python3";
    }

    private static boolean hasPackages(String python) {
        try {
            Process p = new ProcessBuilder(python, "-c", "import numpy, pandas, matplotlib").redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            return p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (java.io.IOException | InterruptedException e) {
            return false;
        }
    }

    @Test
    void exampleDrivesTheJarAndDrawsTheOverlay() throws Exception {
        String python = python();
        assumeTrue(hasPackages(python), python + " with numpy, pandas and matplotlib was not found (set MFLB_PYTHON to"
                + " one that has them): the Python example is not run");
        String rootProperty = System.getProperty("mflb.root");
        assertTrue(rootProperty != null, "mflb.root is set by the examples module's pom");
        Path root = Path.of(rootProperty).toRealPath();
        Path jar = root.resolve("cli/target/mflb.jar");
        assertTrue(Files.isRegularFile(jar), jar + " is built before the examples module");
        Path out = dir.resolve("out");
        ProcessBuilder builder = new ProcessBuilder(python, root.resolve("examples/python/mflb_from_python.py").toString(),
                out.toString()).redirectErrorStream(true);
        builder.environment().put("MFLB_JAR", jar.toString());
        Path log = dir.resolve("log.txt");
        Process p = builder.redirectOutput(log.toFile()).start();
        assertTrue(p.waitFor(5, TimeUnit.MINUTES), "the example finishes");
        String output = Files.readString(log, StandardCharsets.UTF_8);
        assertEquals(0, p.exitValue(), output);
        // x_i = 0.9^(2^i - 1): 0.9, 0.729, 0.478297 (docs/models.md section 1)
        assertTrue(output.contains("x_1..x_3 = [0.9, 0.729, 0.478297]"), output);
        List<String> lines = output.lines().toList();
        String fluid = lines.stream().filter(l -> l.startsWith("fluid mean queue length at lambda = 0.9")).findFirst()
                .orElseThrow(() -> new AssertionError(output));
        String[] values = fluid.replaceAll(".*sweep ([0-9.]+), fixed-point ([0-9.]+)$", "$1 $2").split(" ");
        assertEquals(values[1], values[0], "the sweep's fluid prediction is the fixed point's: " + fluid);
        assertTrue(output.contains("series in mflb's figure: predicted, simulated"), output);
        assertTrue(Files.size(out.resolve("overlay.png")) > 10_000);
        assertTrue(Files.readString(out.resolve("sweep/sweep.csv")).startsWith("series,x,y,ci95Low,ci95High"));
    }
}
