package org.mflb.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.mflb.core.refined.RefinedMeanField;
import org.mflb.core.refined.SteadyStateExpansion;
import org.mflb.fluid.FluidFixedPoint;
import org.mflb.fluid.FluidModel;
import org.mflb.fluid.PowerOfD;
import org.mflb.core.system.LoadBalancingModel;
import org.mflb.core.system.Policy;
import org.mflb.core.system.ServerSystem;
import org.mflb.simulation.SimulationResult;
import org.mflb.simulation.SimulationScenario;
import org.mflb.simulation.Simulator;

/**
 * The downstream example ({@code examples/downstream}: a {@code pom.xml} of one's own and a
 * {@code Main.java}) is built and run by Maven against the modules {@code mvn install} has just put
 * in the local repository, and prints the numbers the reactor's own modules compute, which the
 * README shows: its "use as a library" section cannot rot. Runs in the integration-test phase (see
 * the module's pom).
 */
class DownstreamExampleTest {

    private static final String[] MODULES = {"solver-core", "fluid-models", "pde-models", "simulator"};

    private static String property(String name) {
        String value = System.getProperty(name);
        assertTrue(value != null && !value.isBlank(), name + " is set by the examples module's pom");
        return value;
    }

    @Test
    void exampleBuildsAndRunsAgainstTheInstalledModules() throws Exception {
        Path root = Path.of(property("mflb.root")).toRealPath();
        Path repository = Path.of(property("mflb.localRepository"));
        String version = property("mflb.version");
        Path example = root.resolve("examples/downstream");

        // The example is built against this build's modules, not older ones left in the local repository.
        for (String module : MODULES) {
            String jar = "mflb-" + module + "-" + version + ".jar";
            Path built = root.resolve(module).resolve("target").resolve(jar);
            Path installed = repository.resolve("org/mflb/mflb-" + module).resolve(version).resolve(jar);
            assertTrue(Files.exists(installed), installed + " is installed (run mvn install)");
            assertEquals(-1L, Files.mismatch(built, installed), installed + " is " + built);
        }
        assertTrue(Files.readString(example.resolve("pom.xml")).contains("<mflb.version>" + version + "</mflb.version>"),
                "examples/downstream/pom.xml uses mflb " + version);

        List<String> command = new ArrayList<>(List.of(maven(), "-B", "-q", "-Dstyle.color=never",
                "-Dmaven.repo.local=" + repository,
                "-f", example.resolve("pom.xml").toString()));
        if (Boolean.parseBoolean(System.getProperty("mflb.offline", "false"))) {
            command.add("-o");
        }
        command.addAll(List.of("compile", "exec:java"));
        Path log = Files.createTempFile("mflb-downstream", ".log");
        try {
            Process maven = new ProcessBuilder(command).directory(example.toFile()).redirectErrorStream(true)
                    .redirectOutput(log.toFile()).start();
            assertTrue(maven.waitFor(10, TimeUnit.MINUTES), "the example's build finishes");
            String output = Files.readString(log, StandardCharsets.UTF_8);
            assertEquals(0, maven.exitValue(), String.join(" ", command) + "\n" + output);
            List<String> expected = expectedOutput();
            assertEquals(expected, output.lines()
                    .map(l -> l.replaceAll("\u001B\\[[0-9;]*m", "")).filter(l -> !l.isBlank()).toList(), output);
            // the README shows the same output
            String readme = Files.readString(root.resolve("README.md"), StandardCharsets.UTF_8);
            for (String line : expected) {
                assertTrue(readme.contains("\n" + line + "\n"), "README.md shows the example's output line: " + line);
            }
        } finally {
            Files.deleteIfExists(log);
        }
    }

    /** @return Maven's launcher in the home of the Maven running this build (or {@code mvn} on the PATH) */
    private static String maven() throws IOException {
        String home = System.getProperty("mflb.mavenHome", "");
        Path launcher = Path.of(home, "bin", "mvn");
        return !home.isBlank() && Files.isExecutable(launcher) ? launcher.toString() : "mvn";
    }

    /** @return what the example prints, computed here with the reactor's modules */
    private static List<String> expectedOutput() {
        double lambda = 0.9;
        int n = 20;
        FluidFixedPoint pi = FluidModel.of(ServerSystem.singleServerQueues(), PowerOfD.withReplacement(2), lambda)
                .fixedPoint();
        SteadyStateExpansion refined = new RefinedMeanField(2).steadyState(pi.smoothDrift().orElseThrow(), pi.levels());
        SimulationResult sim = Simulator.run(SimulationScenario.builder()
                .model(LoadBalancingModel.of(ServerSystem.singleServerQueues(), Policy.powerOfD(2), lambda)).servers(n)
                .tEnd(2000).replications(4).seed(42).build());
        return List.of(
                String.format(Locale.ROOT, "fixed point: E[Q] = %.10f (x_1 = %.6f, x_2 = %.6f, residual %.1e)",
                        pi.meanQueueLength(), pi.tail()[1], pi.tail()[2], pi.residual()),
                String.format(Locale.ROOT, "refined at N = %d: E[Q] = %.10f (1/N), %.10f (1/N^2)", n,
                        refined.meanTotal(n, 1), refined.meanTotal(n, 2)),
                String.format(Locale.ROOT, "simulation at N = %d: E[Q] = %.10f, 95%% CI [%.10f, %.10f]", n,
                        sim.meanQueueLength().mean(), sim.meanQueueLength().ci95Low(), sim.meanQueueLength().ci95High()));
    }
}
