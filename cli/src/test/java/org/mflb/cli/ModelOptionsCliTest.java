package org.mflb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.mflb.core.MflbException;

import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The one model option group ({@link ModelOptions}): the five model commands take the same model
 * options, a missing required option is a usage error naming its flag in every command, and what
 * a command cannot compute is one line.
 */
class ModelOptionsCliTest {

    private static final List<String> MODEL_COMMANDS = List.of("fixed-point", "transient", "simulate", "compare",
            "diffusion");

    @TempDir
    Path dir;

    /** @return how the command line shows an option: its names, label, type, default, help text and converters */
    private static String describe(OptionSpec o) {
        return String.join(" | ", Arrays.toString(o.names()), o.paramLabel(), o.type().getName(),
                String.valueOf(o.defaultValue()), String.join(" ", o.description()),
                Arrays.toString(Arrays.stream(o.converters()).map(c -> c.getClass().getName()).toArray()));
    }

    @Test
    void theFiveModelCommandsAcceptTheSameModelOptions() {
        CommandLine cli = new CommandLine(new Mflb());
        List<String> reference = null;
        for (String command : MODEL_COMMANDS) {
            CommandSpec spec = cli.getSubcommands().get(command).getCommandSpec();
            CommandSpec group = spec.mixins().get("model");
            assertNotNull(group, command + " has the model options");
            List<String> options = new ArrayList<>();
            for (OptionSpec o : group.options()) {
                // the command's option of that name is the group's: declared once, never again
                assertSame(o, spec.findOption(o.longestName()), command + " " + o.longestName());
                options.add(describe(o));
            }
            if (reference == null) {
                reference = options;
                List<String> names = group.options().stream().map(OptionSpec::longestName).toList();
                assertEquals(List.of("--system", "--policy", "--threshold", "--alpha", "--initial-threshold", "--d",
                        "--lambda", "--lambda-profile", "--capacity", "--service", "--sampling", "--classes", "--n"), names);
            } else {
                assertEquals(reference, options, command);
            }
        }
    }

    /** The example and one missing option per command: exit 2, one line naming the flag. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "simulate --system pools --policy threshold --lambda 4 --n 50 --t-end 5|missing option --threshold: must be given"
            + " (an integer >= 0) with --policy threshold",
        "simulate --system pools --policy adaptive-threshold --lambda 4 --n 50 --t-end 5|missing option --alpha",
        "simulate --system pools --policy sqd --lambda 4 --t-end 5|missing option --n",
        "simulate --system pools --policy sqd --n 5 --t-end 5|missing option --lambda",
        "simulate --system pools --lambda 2 --n 5 --t-end 5|Missing required option: '--policy'",
        "fixed-point --system pools --policy threshold --lambda 2|missing option --threshold",
        "fixed-point --system loss --policy sqd --lambda 2|missing option --capacity",
        "fixed-point --policy sqd --lambda 0.5|Missing required option: '--system'",
        "transient --system pools --policy sqd --t-end 1 --dt 1|missing option --lambda",
        "transient --system supermarket --policy sqd --sampling distinct --lambda 0.5 --t-end 1 --dt 1|missing option --n",
        "compare --system loss --policy sqd --lambda 2 --n 50|missing option --capacity",
        "compare --system pools --policy sqd --lambda 2 --n 50 --dt 1|missing option --t-end",
        "compare --system pools --policy sqd --lambda 2|missing option --n",
        "diffusion --system pools --policy adaptive-threshold --lambda 2 --n 50|missing option --alpha",
        "diffusion --system pools --policy sqd --lambda 2|missing option --n",
        "diffusion --regime halfin-whitt --policy jsq --n 100|missing option --beta",
        "diffusion --regime halfin-whitt --beta 1 --n 100|missing option --policy",
        "diffusion --regime halfin-whitt --policy jsq --beta 1|missing option --n",
        "pde --d 2 --t-end 1 --dt 1|missing option --lambda",
        "pde --d 2 --lambda 0.5 --t-end 1|missing option --dt"})
    void aMissingRequiredOptionIsAUsageErrorNamingTheFlag(String args, String expected) {
        CliTest.Run r = CliTest.run(args.split(" "));
        assertEquals(Mflb.EXIT_USAGE, r.code(), r.err());
        assertTrue(r.err().startsWith("mflb: ") && r.err().contains(expected), r.err());
        assertTrue(r.err().strip().lines().count() <= 2, r.err());
    }

    /** The library names parameters; the command line names their options. */
    @Test
    void theLibrarysMissingParametersAreSaidOfTheirOptions() {
        assertEquals("missing option --n: must be given with distinct sampling (the number of servers N)",
                Mflb.missingOption(MflbException.missing("n", "with distinct sampling (the number of servers N)")));
        assertEquals("--initial-threshold", Mflb.flag("initialThreshold"));
        assertEquals("--t-end", Mflb.flag("t-end"));
        assertEquals("--lambda", Mflb.flag("lambda"));
        assertEquals("--n", Mflb.flag("servers"));
    }

    @Test
    void halfinWhittIsAModeOfDiffusionWithTheCommonOptions() throws Exception {
        String[] study = {"diffusion", "--policy", "jsq", "--regime", "halfin-whitt", "--beta", "1", "--n", "100",
            "--events", "0", "--tolerance", "1e-3", "--plot", dir.resolve("hw.png").toString()};
        CliTest.Run loud = CliTest.run(study);
        assertEquals(0, loud.code(), loud.err());
        assertFalse(loud.err().isBlank(), "progress by default");
        String[] quiet = Arrays.copyOf(study, study.length + 1);
        quiet[study.length] = "--quiet";
        CliTest.Run r = CliTest.run(quiet);
        assertEquals(0, r.code(), r.err());
        assertEquals("", r.err());
        assertTrue(r.out().startsWith("Diffusion limit, beta = 1.0"), r.out());
        // the other mode's options, and this mode's without it, are one usage line
        CliTest.Run levels = CliTest.run("diffusion", "--policy", "jsq", "--regime", "halfin-whitt", "--beta", "1",
                "--n", "100", "--levels", "3");
        assertEquals(Mflb.EXIT_USAGE, levels.code());
        assertTrue(levels.err().startsWith("mflb: --levels cannot be used with --regime halfin-whitt"), levels.err());
        CliTest.Run beta = CliTest.run("diffusion", "--system", "supermarket", "--policy", "sqd", "--lambda", "0.5",
                "--n", "100", "--beta", "1");
        assertEquals(Mflb.EXIT_USAGE, beta.code());
        assertTrue(beta.err().startsWith("mflb: --beta is used only with --regime halfin-whitt"), beta.err());
        CliTest.Run list = CliTest.run("simulate", "--system", "supermarket", "--policy", "sqd", "--lambda", "0.5",
                "--n", "10,20", "--t-end", "5");
        assertEquals(Mflb.EXIT_USAGE, list.code());
        assertTrue(list.err().contains("--n takes one number N here"), list.err());
    }

    @Test
    void compareTakesARateProfileIntoTheFluidTransientAndTheSimulation() throws Exception {
        Path profile = Files.writeString(dir.resolve("profile.csv"), "t,lambda\n0,2.0\n3,3.2\n6,1.5\n");
        JsonNode compare = CliTest.json("compare", "--system", "pools", "--policy", "sqd", "--lambda-profile",
                profile.toString(), "--n", "200", "--t-end", "4", "--dt", "2", "--replications", "2", "--seed", "3",
                "--quiet", "--format", "json");
        assertTrue(compare.get("title").asText().contains("lambda(t) from " + profile), compare.get("title").asText());
        JsonNode fluid = CliTest.json("transient", "--system", "pools", "--policy", "sqd", "--lambda-profile",
                profile.toString(), "--t-end", "4", "--dt", "2", "--format", "json");
        double predicted = Double.NaN;
        for (JsonNode row : compare.get("rows")) {
            if (row.get("quantity").asText().equals("x_1(t=4)")) {
                predicted = row.get("predicted").asDouble();
            }
        }
        assertEquals(fluid.get("tail").get(2).get(1).asDouble(), predicted, 0.0);
        assertEquals(0, compare.get("failed").asInt(), compare.toString());
        CliTest.Run steady = CliTest.run("compare", "--system", "pools", "--policy", "sqd", "--lambda-profile",
                profile.toString(), "--n", "200");
        assertEquals(1, steady.code());
        assertTrue(steady.err().startsWith("mflb: lambda-profile = "), steady.err());
    }

    @Test
    void compareTakesAServiceLawWhereItsFluidHoldsAndRefusesItElsewhere() throws Exception {
        JsonNode det = CliTest.json("compare", "--system", "loss", "--capacity", "4", "--policy", "random", "--lambda",
                "3", "--service", "det", "--n", "100", "--t-end", "200", "--replications", "2", "--seed", "9", "--quiet",
                "--format", "json");
        assertTrue(det.get("title").asText().endsWith(", service det"), det.get("title").asText());
        JsonNode exp = CliTest.json("compare", "--system", "loss", "--capacity", "4", "--policy", "random", "--lambda",
                "3", "--n", "100", "--t-end", "200", "--replications", "2", "--seed", "9", "--quiet", "--format", "json");
        // the insensitive fixed point: the same predictions, other simulated numbers
        assertEquals(exp.get("rows").get(1).get("predicted"), det.get("rows").get(1).get("predicted"));
        assertFalse(exp.get("rows").get(1).get("simulated").equals(det.get("rows").get(1).get("simulated")));
        for (String[] refused : new String[][] {
            {"compare", "--system", "supermarket", "--policy", "sqd", "--lambda", "0.5", "--service", "lognormal:scv=4",
                "--n", "50"},
            {"compare", "--system", "loss", "--capacity", "4", "--policy", "random", "--lambda", "3", "--service", "det",
                "--n", "50", "--t-end", "2", "--dt", "1"},
            {"fixed-point", "--system", "supermarket", "--policy", "sqd", "--lambda", "0.5", "--service", "h2:scv=4"},
            {"transient", "--system", "pools", "--policy", "jsq", "--lambda", "2", "--service", "det", "--t-end", "1",
                "--dt", "1"}}) {
            CliTest.Run r = CliTest.run(refused);
            assertEquals(1, r.code(), String.join(" ", refused) + ": " + r.err());
            assertTrue(r.err().startsWith("mflb: service = ") && r.err().contains("must be exp for " + refused[0])
                    && r.err().contains("mflb pde"), r.err());
            assertEquals(1, r.err().strip().lines().count(), r.err());
        }
    }
}
