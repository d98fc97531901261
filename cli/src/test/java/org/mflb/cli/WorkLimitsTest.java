package org.mflb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import com.fasterxml.jackson.databind.JsonNode;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.mflb.core.WorkEstimate;
import org.mflb.core.modelfile.ModelFile;
import org.mflb.fluid.Truncation;

import picocli.CommandLine;

/**
 * Every command's work is estimated before it starts ({@link WorkLimits}, issue 29 classes 3 and 8):
 * a run beyond the limits is one line with the numbers, exit 1, at once; a long one announces its
 * size, also with --quiet. Each refusal here comes before any work, so each case takes well under a
 * second; the long runs that are only announced are checked on their estimates.
 */
class WorkLimitsTest {

    @TempDir
    Path dir;

    /** Loads the command line's classes once, so that the times below are those of the refusals. */
    @org.junit.jupiter.api.BeforeAll
    static void warmUp() {
        CliTest.run("simulate", "--model", "sir", "--n", "2000000000", "--t-end", "1e6");
        CliTest.run("sweep", "simulate", "--system", "supermarket", "--policy", "sqd", "--n", "10", "--lambda", "0.5",
                "--t-end", "1", "--quiet");
    }

    private static void assertRefusedAtOnce(String expected, String... args) {
        long start = System.nanoTime();
        CliTest.Run r = CliTest.run(args);
        double seconds = (System.nanoTime() - start) * 1e-9;
        assertEquals(Mflb.EXIT_FAILURE, r.code(), r.err());
        assertTrue(r.err().startsWith("mflb: " + expected), r.err());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertFalse(r.err().contains("Exception"), r.err());
        assertTrue(seconds < 1, "refused after " + seconds + " s");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "simulate --model sir --n 2000000000 --t-end 1e6|n = 2000000000 is invalid: must be smaller: simulating SIR"
                + " with N = 2000000000 needs about 4.2e+15 events (~1.6e+04 days at 3e+06 events/s); the limit is a day of"
                + " work (2.6e+11 events per core): reduce --n, --t-end or --replications, or add --force",
        "compare --model sir --n 2000000000 --t-end 1e6 --threads 1|n = 2000000000 is invalid: must be smaller: simulating"
                + " SIR with N = 2000000000 needs about 3.4e+16 events",
        "diffusion --model sir --n 2000000000 --threads 1|n = 2000000000 is invalid: must be smaller: simulating SIR with"
                + " N = 2000000000 needs about 1.4e+14 events",
        "pde --d 2 --lambda 0.9 --t-end 1e9 --dt 1e8|t-end = 1.0E9 is invalid: must be shorter: the two probe grids",
        "fixed-point --system supermarket --policy sqd --d 2147483647 --lambda 0.9|d = 2147483647 is invalid: must be"
                + " smaller: the fixed point (60.0 levels, d = 2147483647) needs about 2.6e+14 operations (~30 days at 1e+08"
                + " operations/s); the limit is a day of work",
        "fixed-point --system pools --policy threshold --threshold 1000000000 --lambda 0.9|threshold = 1000000000 is"
                + " invalid: must be smaller: the fixed point (1.00e+09 levels, d = 1) needs about 512000 MB of memory",
        "fixed-point --system supermarket --policy sqd --lambda 0.9 --truncation 100000000|truncation = 100000000 is"
                + " invalid: must be smaller: the fixed point (1.00e+08 levels, d = 2) needs about 51200 MB of memory",
        "transient --system pools --policy sqd --lambda 20000 --t-end 1e4 --dt 1000|t-end = 10000.0 is invalid: must be"
                + " smaller: the fluid transient (2.14e+04 levels, d = 2) needs about",
        "transient --model sir --t-end 1e12 --dt 1e11|t-end = 1.0E12 is invalid: must be smaller: the transient of SIR"
                + " needs about"})
    void beyondTheLimitsIsOneLineAtOnce(String line, String expected) {
        assertRefusedAtOnce(expected, line.split(" "));
    }

    @Test
    void aMultiplicityOf1e20IsRefusedAtOnce() throws Exception {
        Path file = Files.writeString(dir.resolve("mult.model"),
                "var A, B\n100000000000000000000 A -> B ; A\nB -> A ; B\ninit A = 1\n");
        // a jump of 1e20 objects: rates of order 1e20, far beyond any explicit integration of the transient
        assertRefusedAtOnce("t-end = 10.0 is invalid: must be smaller: the transient of mult needs about", "transient",
                "--model", file.toString(), "--t-end", "10", "--dt", "1");
    }

    /** --force lifts the time limit, not the memory limit. */
    @Test
    void forceLiftsTheTimeLimitOnly() {
        assertRefusedAtOnce("truncation = 100000000 is invalid: must be smaller", "fixed-point", "--system", "supermarket",
                "--policy", "sqd", "--lambda", "0.9", "--truncation", "100000000", "--force");
        // forced past the estimate, the model file's simulation is refused by the simulator's own bound (N an int)
        CliTest.Run r = CliTest.run("simulate", "--model", "sir", "--n", "20", "--t-end", "10", "--force", "--quiet");
        assertEquals(0, r.code(), r.err());
    }

    /** Long but feasible runs are announced with their size and run: checked on their estimates. */
    @Test
    void longFeasibleRunsAreAnnouncedNotRefused() throws Exception {
        // transient --model sir --t-end 1e9: about an hour or two
        ModelFile sir = org.mflb.core.modelfile.ShippedModels.load("sir", Map.of());
        WorkEstimate transientSir = WorkLimits.modelFile("the transient of SIR", sir, 1e9, false);
        assertAnnouncedOnly(transientSir);
        // transient --system pools --policy sqd --lambda 20000 --t-end 10: hours, 2.1e4 levels
        CommandLine cli = new CommandLine(new Mflb());
        cli.parseArgs("transient", "--system", "pools", "--policy", "sqd", "--lambda", "20000", "--t-end", "10", "--dt", "1");
        var pools = ((TransientCommand) cli.getSubcommands().get("transient").getCommand()).model.model();
        assertAnnouncedOnly(WorkLimits.fluid("the fluid transient", pools, Truncation.DEFAULT, null, 10));
        // fixed-point --system loss --capacity 3000 --lambda 2000: minutes of dense Schur forms (was no notice);
        // C = 1000 takes 15 s of CPU and runs without one
        cli.parseArgs("fixed-point", "--system", "loss", "--capacity", "3000", "--policy", "sqd", "--lambda", "2000");
        var loss = ((FixedPointCommand) cli.getSubcommands().get("fixed-point").getCommand()).model.model();
        assertAnnouncedOnly(WorkLimits.fluid("the fixed point", loss, Truncation.DEFAULT, null, 0));
        cli.parseArgs("fixed-point", "--system", "loss", "--capacity", "1000", "--policy", "sqd", "--lambda", "700");
        var smallLoss = ((FixedPointCommand) cli.getSubcommands().get("fixed-point").getCommand()).model.model();
        assertTrue(WorkLimits.fluid("the fixed point", smallLoss, Truncation.DEFAULT, null, 0).notice().isEmpty());
        // a 3001-variable model and the cache with n = 300 (600 variables, 89700 transitions): minutes to hours
        String vars = IntStream.range(0, 3001).mapToObj(i -> "x" + i).collect(Collectors.joining(", "));
        String jumps = IntStream.range(0, 3001).mapToObj(i -> "x" + i + " -> x" + ((i + 1) % 3001) + " ; x" + i)
                .collect(Collectors.joining("\n"));
        Path big = Files.writeString(dir.resolve("big.model"), "var " + vars + "\n" + jumps + "\ninit x0 = 1\n");
        assertAnnouncedOnly(WorkLimits.modelFile("the fixed point of big", ModelFile.read(big, Map.of()), 0, true));
        // (the cache with n = 300, 89700 transitions, is announced the same way: its parsing alone takes seconds)
    }

    private static void assertAnnouncedOnly(WorkEstimate e) {
        assertTrue(e.notice().isPresent(), e.task() + ": " + e.seconds() + " s");
        e.require(false, 1e10); // not refused
    }

    /** The notice of size is printed whatever --quiet says: it is no progress. */
    @Test
    void theSizeNoticeIsShownWithQuiet() {
        CommandLine cli = new CommandLine(new Mflb());
        StringWriter err = new StringWriter();
        cli.setErr(new PrintWriter(err));
        cli.parseArgs("simulate", "--system", "supermarket", "--policy", "sqd", "--n", "100000", "--lambda", "0.9",
                "--t-end", "3000", "--quiet");
        SimulateCommand simulate = cli.getSubcommands().get("simulate").getCommand();
        assertTrue(simulate.progress.quiet);
        simulate.limits.check(simulate.spec, simulate.estimate());
        assertEquals("mflb: simulating N = 100000 up to t = 3000.0 needs about 5.4e+08 events (~3 min at 3e+06"
                + " events/s)", err.toString().strip());
    }

    /** A sweep announces each long point before any runs, with --quiet too; a point beyond a day fails on its row. */
    @Test
    void aSweepAnnouncesItsLongPoints() throws Exception {
        long start = System.nanoTime();
        CliTest.Run r = CliTest.run("sweep", "simulate", "--system", "supermarket", "--policy", "sqd", "--n", "1000000",
                "--lambda", "0.9", "--t-end", "5e5", "--format", "json", "--quiet");
        double seconds = (System.nanoTime() - start) * 1e-9;
        assertTrue(seconds < 5, seconds + " s"); // the point is refused when it runs, in a pool of its own
        assertEquals(Mflb.EXIT_FAILURE, r.code(), r.err());
        assertTrue(r.err().startsWith("mflb: point 1: simulating N = 1000000 up to t = 500000.0 needs about 9.0e+11"
                + " events (~3.5 days at 3e+06 events/s)\nmflb: the sweep needs about 3.5 days"), r.err());
        JsonNode row = new com.fasterxml.jackson.databind.ObjectMapper().readTree(r.out()).get("points").get(0);
        assertTrue(row.get("error").asText().startsWith("t-end = 500000.0 is invalid: must be smaller: simulating"
                + " N = 1000000 up to t = 500000.0 needs about 9.0e+11 events"), row.toString());
    }
}
