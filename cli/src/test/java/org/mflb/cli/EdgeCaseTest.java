package org.mflb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;

import com.fasterxml.jackson.databind.JsonNode;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Edge cases of every command, one or more per class of failure of the robustness audit (issue 18):
 * (1) memory, (2) run time, (3) NaN on well-posed models, (4) internal errors, (5) invariants of the
 * fluid output, (6) statistics, (7) messages, (8) ignored options. A valid input gives its answer; an
 * invalid one a single line naming the parameter and its valid range, exit 1 for a bad value and 2
 * for a malformed command line, never a stack trace, and at once (each refusal here is decided before
 * any long work, so the suite takes seconds). The {@code issue29...} tests add the classes of the
 * second audit (issue 29) with instances of their own.
 */
class EdgeCaseTest {

    @TempDir
    Path dir;

    /** Invalid values: exit 1, one line naming the parameter (and what it must be). */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        // (1) sizes that cannot fit are refused with the numbers, before any work
        "simulate --system supermarket --policy sqd --lambda 0.9 --n 100000000 --t-end 1 --engine agent --replications 8 --threads 8|n = 100000000 is invalid: must be smaller: the run needs about",
        "simulate --system pools --policy sqd --lambda 1e6 --n 1000 --t-end 100 --engine agent|lambda = 1000000.0 is invalid",
        "fixed-point --system supermarket --policy random --lambda 0.9999999|more than 2000000 levels",
        // (2) hopeless work is refused with an estimate
        "transient --system supermarket --policy sqd --lambda 1e6 --t-end 1 --dt 0.5|by t = 1.0, more than the 200000 levels",
        "transient --system supermarket --policy sqd --lambda 0.9 --t-end 10 --dt 1 --init all:1000000|init = all:1000000 is invalid: must be a state with at most 199996 jobs per server",
        "pde --d 2 --lambda 0.9 --t-end 10 --dt 1 --da 1e-6|da = 1.0E-6 is invalid: must be larger for this horizon",
        "simulate --system supermarket --policy sqd --lambda 0.9 --n 1000000 --t-end 1000000|t-end = 1000000.0 is invalid: must be shorter",
        // (4) internal errors become messages
        "diffusion --system supermarket --policy sqd --lambda 0.9 --n 100 --levels 0|levels = 0 is invalid: must be an integer in [1, 16] (the fixed point keeps 16 levels",
        "diffusion --system loss --capacity 3 --policy sqd --lambda 0.9 --n 100 --levels 5|levels = 5 is invalid: must be an integer in [1, 3]",
        "bench --repetitions 0|repetitions = 0 is invalid: must be an integer in [1, 1000000]",
        "compare --system supermarket --policy sqd --lambda 0.9 --n 100 --plot /nonexistent-dir/x.png|plot = /nonexistent-dir/x.png is invalid",
        // (7) messages that point the right way
        "fixed-point --system pools --policy random --lambda 1e7|pools at lambda = 1.0E7 hold about lambda jobs each",
        "transient --system pools --policy sqd --t-end 1 --dt 0.5 --lambda-profile /nonexistent.csv|cannot read arrival profile /nonexistent.csv: no such file",
        // (8) options that would be ignored are refused
        "compare --system supermarket --policy sqd --lambda 0.9 --n 100 --init all:3|init = all:3 is invalid: must be used only with --dt",
        "pde --d 2 --lambda 0.9 --equilibrium --t-end 10|t-end = 10.0 is invalid: must be absent with --equilibrium",
        "fixed-point --system supermarket --policy sqd --lambda 0.9 --n 100|n = 100 is invalid: must be used only with --sampling distinct",
        "transient --system supermarket --policy sqd --lambda 0.9 --n 100 --t-end 1 --dt 1|n = 100 is invalid",
        "simulate --system supermarket --policy sqd --lambda 0.9 --n 10 --t-end 10 --warmup -1|warmup = -1.0 is invalid",
        // issue 29 (own instances): sizes, levels, horizons and outputs refused before the work
        "fixed-point --system loss --capacity 60000 --policy sqd --lambda 3|needs dense 60000 x 60000 matrices",
        "diffusion --system supermarket --policy random --lambda 0.5 --n 50 --levels 100|levels = 100 is invalid: must be an integer in [1, ",
        "pde --d 3 --lambda 0.7 --t-end 1 --dt 1 --tolerance 0|tolerance = 0.0 is invalid: must be in (0, 0.1)",
        "models --format csv|format = csv is invalid: must be json or table",
        "compare --system pools --policy random --lambda 2 --n 20 --t-end 1e-3|t-end = 0.001 is invalid: must be long enough for at least 50 arrivals",
        "sweep fixed-point --system supermarket --policy random --lambda 0.3,0.6 --plot x=lambda,y=meanQueueLength --plot-file /nonexistent-dir/s.png|plot-file = /nonexistent-dir/s.png is invalid",
        "diffusion --regime halfin-whitt --policy jsq --beta 2 --n 50 --events 0 --plot /nonexistent-dir/hw.png|plot = /nonexistent-dir/hw.png is invalid"})
    void badValuesGiveOneLineAndExitOne(String line, String expected) {
        CliTest.Run r = CliTest.run(line.split(" "));
        assertEquals(Mflb.EXIT_FAILURE, r.code(), r.err());
        assertOneClearLine(r, expected);
    }

    /** Missing required options, and options that would be ignored, are a malformed command line: exit 2. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "fixed-point --system pools --policy threshold --lambda 2.5|missing option --threshold",
        "fixed-point --system loss --policy sqd --lambda 1|missing option --capacity",
        "simulate --system loss --policy sqd --lambda 1 --n 10 --t-end 1|missing option --capacity",
        "compare --system supermarket --policy sqd --lambda 0.5 --n 10 --dt 1|missing option --t-end",
        "pde --d 2 --lambda 0.5 --t-end 1|missing option --dt",
        "fixed-point --system supermarket --lambda 0.9|Missing required option: '--policy",
        // issue 29 (own instances): options that were silently ignored
        "simulate --system pools --policy sqd --lambda 3 --n 10 --t-end 5 --batches 4 --replications 2|--batches cannot be used with --replications 2",
        "simulate --system loss --capacity 4 --policy random --lambda 1 --n 10 --t-end 5 --percentiles 90|--percentiles cannot be used with --system loss",
        "sweep fixed-point --system supermarket --policy random --lambda 0.3,0.6 --plot-file s.png|--plot-file needs --plot",
        "pde --d 2 --lambda 0.6 --equilibrium --tolerance 1e-3|--tolerance cannot be used with --equilibrium",
        "transient --model sir --param x=1 --param x=3 --t-end 1 --dt 1|--param x is given twice",
        "sweep transient --model sir --param x=1,2 --param x=3 --t-end 1 --dt 1|--param x is given twice"})
    void malformedCommandLinesExitTwo(String line, String expected) {
        CliTest.Run r = CliTest.run(line.split(" "));
        assertEquals(Mflb.EXIT_USAGE, r.code(), r.err());
        assertTrue(r.err().contains(expected), r.err());
        assertFalse(r.err().contains("\tat "), r.err());
    }

    @Test
    void unwritableOutputDirectoryIsRefusedBeforeTheRun() throws Exception {
        Path file = Files.writeString(dir.resolve("a-file"), "x");
        CliTest.Run r = CliTest.run("validate", "--out", file.toString(), "--only", "mm1-random");
        assertEquals(Mflb.EXIT_FAILURE, r.code());
        assertOneClearLine(r, "out = " + file + " is invalid: must be a directory");
    }

    /** (1) Random routing near saturation and M/M/∞ pools at high load: closed forms, no dense K×K solve. */
    @Test
    void randomRoutingAtAnyLoadAnswersFromItsClosedForm() throws Exception {
        JsonNode mm1 = CliTest.json("fixed-point", "--system", "supermarket", "--policy", "random", "--lambda", "0.999",
                "--format", "json");
        assertEquals(999.0, mm1.get("meanQueueLength").asDouble(), 1e-6);
        assertTrue(mm1.get("truncation").asInt() > 27_000);
        JsonNode pools = CliTest.json("fixed-point", "--system", "pools", "--policy", "random", "--lambda", "1e5",
                "--format", "json");
        assertEquals(1e5, pools.get("meanQueueLength").asDouble(), 1e-6);
        JsonNode mm1Distinct = CliTest.json("fixed-point", "--system", "supermarket", "--policy", "sqd", "--d", "1",
                "--sampling", "distinct", "--n", "100", "--lambda", "0.998", "--format", "json");
        assertEquals(499.0, mm1Distinct.get("meanQueueLength").asDouble(), 1e-6);
    }

    /** (3) Well-posed stiff or high-d models that used to produce NaN. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "fixed-point --system pools --policy sqd --d 30 --lambda 2 --format json|2.0",
        "fixed-point --system loss --capacity 5 --policy sqd --lambda 1e6 --format json|",
        "transient --system pools --policy sqd --d 30 --lambda 2 --t-end 3 --dt 1 --format json|"})
    void stiffAndHighDegreeModelsAreSolved(String line, String mean) throws Exception {
        JsonNode json = CliTest.json(line.split(" "));
        JsonNode tail = json.get("tail");
        assertTrue(tail != null, json.toString());
        assertFalse(json.toString().contains("NaN"), json.toString());
        if (mean != null) {
            assertEquals(Double.parseDouble(mean), json.get("meanQueueLength").asDouble(), 1e-9);
        }
    }

    /** (5) Fluid output is a tail vector; refined expansions say when N is too small. */
    @Test
    void fluidOutputKeepsTheTailInvariantsAndRefinedWarnsForSmallN() throws Exception {
        JsonNode jiq = CliTest.json("transient", "--system", "pools", "--policy", "jiq", "--lambda", "2.5", "--t-end", "20",
                "--dt", "0.5", "--format", "json");
        for (JsonNode row : jiq.get("tail")) {
            for (int i = 1; i < row.size(); i++) {
                double x = row.get(i).asDouble();
                assertTrue(x >= 0 && x <= row.get(i - 1).asDouble(), row.toString());
            }
        }
        JsonNode loss = CliTest.json("fixed-point", "--system", "loss", "--capacity", "10", "--policy", "sqd", "--lambda",
                "50", "--format", "json");
        for (JsonNode x : loss.get("tail")) {
            assertTrue(x.asDouble() <= 1.0, loss.get("tail").toString());
        }
        JsonNode refined = CliTest.json("fixed-point", "--system", "supermarket", "--policy", "sqd", "--lambda", "0.9",
                "--refined", "1,100", "--format", "json");
        assertTrue(refined.get("refined").get(0).get("warning").asText().contains("N = 1 is too small"), refined.toString());
        assertTrue(refined.get("refined").get(1).get("warning") == null, refined.toString());
    }

    /** (6) Heavy tails warn; intervals of fractions stay in [0, 1]; nothing completed is "none", never NaN. */
    @Test
    void simulationsSayWhenTheirIntervalsCannotBeTrusted() throws Exception {
        CliTest.Run pareto = CliTest.run("simulate", "--system", "supermarket", "--policy", "sqd", "--lambda", "0.9", "--n",
                "50", "--t-end", "200", "--service", "pareto:shape=1.5", "--format", "json");
        assertEquals(0, pareto.code(), pareto.err());
        assertTrue(pareto.err().contains("infinite variance"), pareto.err());
        JsonNode json = new com.fasterxml.jackson.databind.ObjectMapper().readTree(pareto.out());
        assertTrue(json.get("warnings").size() >= 1);
        for (JsonNode lo : json.get("tail").get("ci95Low")) {
            assertTrue(lo.asDouble() >= 0, json.get("tail").toString());
        }
        for (JsonNode hi : json.get("tail").get("ci95High")) {
            assertTrue(hi.asDouble() <= 1, json.get("tail").toString());
        }
        CliTest.Run empty = CliTest.run("simulate", "--system", "supermarket", "--policy", "sqd", "--lambda", "0.01", "--n",
                "2", "--t-end", "0.01");
        assertEquals(0, empty.code(), empty.err());
        assertTrue(empty.out().contains("mean response time     none"), empty.out());
        assertFalse(empty.out().contains("NaN"), empty.out());
    }

    /** (6) A comparison whose tolerance exceeds every prediction says its checks cannot fail. */
    @Test
    void comparisonMarksChecksThatCannotFail() {
        CliTest.Run r = CliTest.run("compare", "--system", "pools", "--policy", "random", "--lambda", "0.9", "--n", "1",
                "--t-end", "100", "--replications", "2");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("ok*") && r.out().contains("cannot fail"), r.out());
        assertTrue(r.out().contains("no check here tests the model"), r.out());
    }

    /** (8) diffusion writes no figure into the working directory unless --plot is given. */
    @Test
    void diffusionWritesNoFigureWithoutPlot() {
        Path cwdFigure = Path.of("diffusion.png");
        boolean existed = Files.exists(cwdFigure);
        CliTest.Run r = CliTest.run("diffusion", "--system", "loss", "--capacity", "2", "--policy", "random", "--lambda",
                "1", "--n", "20", "--levels", "1");
        assertEquals(0, r.code(), r.err());
        assertFalse(r.out().contains("figure:"), r.out());
        assertEquals(existed, Files.exists(cwdFigure));
    }

    /**
     * Model files (issue 29): the audit's reproducers and instances of our own. Each file (slashes are
     * line breaks) gives one clear line, exit 1, naming the file (and line and column where there is
     * one), never a stack trace or an internal error.
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "fixed-point|var A, B/A -> B ; 0.2 - A/B -> A ; B|no fixed point reached from the init state",
        "fixed-point|var A/-> A ; A + 0.2/A -> ; A|no fixed point reached from the init state: the iteration ran away",
        "fixed-point|var A, B/A -> B ; 1/init A = 1|no fixed point reached from the init state",
        "fixed-point|var A, B/let a = a + 1/A -> B ; A|m.model:2:9: 'a' is defined in terms of itself",
        "fixed-point|param p = p + 1/var A, B/A -> B ; A|m.model:1:11: 'p' is defined in terms of itself",
        "fixed-point|var A, B/let a = b + 1/let b = a/A -> B ; a*A|m.model:3:9: 'a' is defined in terms of itself (through b)",
        "fixed-point|var x[1..x]|m.model:1:10: 'x' is defined in terms of itself",
        "fixed-point|var A, B/A -> B ; NESTED|m.model:2:266: expression nested deeper than 256 levels",
        "fixed-point|var A, B/A -> B ; MINUSES|m.model:2:266: expression nested deeper than 256 levels",
        "fixed-point|var A, B/A -> B ; FAMILIES|expression nested deeper than 1000 levels, counting the lets it uses",
        "transient|var A/-> A ; A^2/init A = 1|the fluid limit blows up near t = 1.00000",
        "transient|var A, B/A -> B ; 1e13*A/B -> A ; B/init A = 1|the transient of m needs about",
        "transient|var A, B/A -> B ; 0.3/init A = 1|below 0 (coordinates are fractions of the N objects"})
    void modelFilesGiveOneClearLine(String command, String file, String expected) throws Exception {
        String source = file.replace("/", "\n").replace("NESTED", "(".repeat(20_000) + "A" + ")".repeat(20_000))
                .replace("MINUSES", "-".repeat(20_000) + "A") + "\n";
        if (source.contains("FAMILIES")) { // 3000 let families, each built on the previous one
            StringBuilder lets = new StringBuilder("var A, B\nlet f0[i in 1..1] = A\n");
            for (int i = 1; i <= 3000; i++) {
                lets.append("let f").append(i).append("[i in 1..1] = 1 * (f").append(i - 1).append("[i])\n");
            }
            source = lets + "A -> B ; f3000[1]\n";
        }
        Path model = Files.writeString(dir.resolve("m.model"), source);
        String[] args = command.equals("transient")
                ? new String[] {"transient", "--model", model.toString(), "--t-end", "5", "--dt", "1"}
                : new String[] {"fixed-point", "--model", model.toString()};
        CliTest.Run r = CliTest.run(args);
        assertEquals(Mflb.EXIT_FAILURE, r.code(), r.err());
        assertOneClearLine(r, expected.replace("m.model", model.toString()));
        assertFalse(r.err().contains("internal error"), r.err());
    }

    /** Model files that are valid but hard: a correct answer (checked against the closed form). */
    @Test
    void stiffAndLongModelFilesAreSolved() throws Exception {
        // A <-> B with rates 1e12·A and B: A = B/1e12, A + B = 1 (the relaxation gives way to implicit steps)
        Path stiff = Files.writeString(dir.resolve("stiff.model"), "var A, B\nA -> B ; 1e12*A\nB -> A ; B\ninit A = 1\n");
        JsonNode fp = CliTest.json("fixed-point", "--model", stiff.toString(), "--format", "json");
        assertEquals(1 / (1 + 1e12), fp.get("state").get(0).asDouble(), 1e-12 / (1 + 1e12));
        assertTrue(fp.get("residual").asDouble() <= 1e-9, fp.toString());
        // a rate of 2000 terms A/1000 + ...: 2A, so A = 1/3
        String terms = String.join(" + ", java.util.Collections.nCopies(2000, "A/1000"));
        Path longRate = Files.writeString(dir.resolve("long.model"), "var A, B\nA -> B ; " + terms
                + "\nB -> A ; B\ninit A = 1\n");
        JsonNode l = CliTest.json("fixed-point", "--model", longRate.toString(), "--format", "json");
        assertEquals(1.0 / 3, l.get("state").get(0).asDouble(), 1e-12);
    }

    /** A stiff transient run past the work estimate (--force): the explicit method's own one-line diagnosis. */
    @Test
    void aForcedStiffTransientSaysItIsStiff() throws Exception {
        Path stiff = Files.writeString(dir.resolve("st.model"), "var A, B\nA -> B ; 1e13*A\nB -> A ; B\ninit A = 1\n");
        CliTest.Run r = CliTest.run("transient", "--model", stiff.toString(), "--t-end", "5", "--dt", "1", "--force",
                "--quiet");
        assertEquals(Mflb.EXIT_FAILURE, r.code(), r.err());
        assertTrue(r.err().contains("the fluid limit is too stiff to integrate"), r.err());
        assertFalse(r.err().contains("internal error") || r.err().contains("\tat "), r.err());
    }

    /** Files that are not model files, and figures that must go where asked. */
    @Test
    void modelFileMessagesAndPlotPaths() throws Exception {
        CliTest.Run d = CliTest.run("fixed-point", "--model", dir.toString());
        assertEquals(Mflb.EXIT_FAILURE, d.code());
        assertOneClearLine(d, "cannot read model file " + dir + ": it is a directory");
        Path binary = Files.write(dir.resolve("b.model"), new byte[] {(byte) 0xCA, (byte) 0xFE, (byte) 0xBA, (byte) 0xBE, 0});
        CliTest.Run b = CliTest.run("fixed-point", "--model", binary.toString());
        assertEquals(Mflb.EXIT_FAILURE, b.code());
        assertOneClearLine(b, "it is not a UTF-8 text model file");
        Path plots = Files.createDirectories(dir.resolve("plots"));
        Path figure = plots.resolve("x.png");
        CliTest.Run c = CliTest.run("compare", "--model", "sir", "--n", "10", "--t-end", "2", "--dt", "1",
                "--replications", "2", "--plot", figure.toString(), "--quiet");
        assertEquals(0, c.code(), c.err());
        assertTrue(Files.size(figure) > 0, "the figure is where --plot says");
        assertTrue(c.out().contains("figure: " + figure), c.out());
        try (var listing = Files.list(plots)) {
            assertEquals(1, listing.count(), "no other figure beside it");
        }
        CliTest.Run bad = CliTest.run("compare", "--model", "sir", "--n", "10", "--plot", dir.resolve("no/x.png").toString());
        assertEquals(Mflb.EXIT_FAILURE, bad.code());
        assertOneClearLine(bad, "plot = ");
    }

    /** Issue 29, valid input answered correctly: closed forms and conservation laws, warnings where due. */
    @Test
    void issue29ValidInputGivesVerifiedNumbers() throws Exception {
        // a percentile beyond the default truncation: M/M/1 response time is Exp(1 - lambda)
        double p = 99.99999999999;
        JsonNode mm1 = CliTest.json("fixed-point", "--system", "supermarket", "--policy", "random", "--lambda", "0.8",
                "--percentiles", Double.toString(p), "--format", "json");
        double exact = -Math.log(1 - p / 100) / (1 - 0.8);
        assertEquals(exact, mm1.get("responseTimeQuantiles").get(0).get("value").asDouble(), 1e-6 * exact);
        // SQ(d) with memory near saturation: finite, residual computed, Little's law
        JsonNode memory = CliTest.json("fixed-point", "--system", "supermarket", "--policy", "memory", "--d", "3",
                "--lambda", "0.99999", "--format", "json");
        assertFalse(memory.toString().contains("NaN"), memory.toString());
        assertTrue(memory.get("residual").asDouble() < 1e-10, memory.toString());
        assertEquals(memory.get("meanQueueLength").asDouble() / 0.99999, memory.get("meanResponseTime").asDouble(), 1e-8);
        // pools above their threshold at a load in the hundreds: the Erlang-B weights rho^j/j! no longer overflow
        JsonNode erlang = CliTest.json("fixed-point", "--system", "pools", "--policy", "threshold", "--threshold", "1100",
                "--lambda", "900", "--format", "json");
        assertFalse(erlang.toString().contains("NaN"), erlang.toString());
        assertEquals(900, erlang.get("meanQueueLength").asDouble(), 1e-6, "Little's law: mean = lambda E[S]");
        assertTrue(erlang.get("residual").asDouble() < 1e-9, erlang.toString());
        // a fixed truncation that cuts off real mass: the numbers, and a warning naming it
        CliTest.Run cut = CliTest.run("fixed-point", "--system", "supermarket", "--policy", "random", "--lambda", "0.7",
                "--truncation", "3");
        assertEquals(0, cut.code(), cut.err());
        assertTrue(cut.err().contains("warning: --truncation 3 cuts off a tail mass"), cut.err());
        // Weibull of the documented minimum shape: the response-time histogram holds it, quantiles bounded
        CliTest.Run weibull = CliTest.run("simulate", "--system", "supermarket", "--policy", "sqd", "--lambda", "0.8",
                "--n", "50", "--t-end", "400", "--service", "weibull:shape=0.05", "--quiet");
        assertEquals(0, weibull.code(), weibull.err());
        assertFalse(weibull.err().contains("internal error"), weibull.err());
    }

    private static void assertOneClearLine(CliTest.Run r, String expected) {
        assertTrue(r.err().startsWith("mflb: ") && r.err().contains(expected), r.err());
        assertFalse(r.err().contains("\tat ") || r.err().contains("Exception"), "no stack trace or class name: " + r.err());
        assertEquals(1, r.err().strip().split("\n").length, r.err());
    }
}
