package org.mflb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The command line as a new user meets it: the JSON contract, and one clear line for bad input. */
class CliTest {

    record Run(int code, String out, String err) {
    }

    static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Mflb.execute(args, new PrintWriter(out), new PrintWriter(err));
        return new Run(code, out.toString(), err.toString());
    }

    static JsonNode json(String... args) throws Exception {
        Run r = run(args);
        assertEquals(0, r.code(), r.err());
        return new ObjectMapper().readTree(r.out());
    }

    @Test
    void fixedPointJsonHoldsTheContractKeys() throws Exception {
        JsonNode fp = json("fixed-point", "--system", "supermarket", "--policy", "sqd", "--d", "2", "--lambda", "0.9",
                "--format", "json");
        assertEquals(1.0, fp.get("tail").get(0).asDouble());
        assertEquals(0.729, fp.get("tail").get(2).asDouble(), 1e-12);
        assertTrue(fp.get("meanQueueLength").isNumber());
        assertTrue(fp.get("truncation").isInt());
        assertTrue(fp.get("residual").asDouble() < 1e-13);
        assertFalse(fp.has("blocking"));
        JsonNode loss = json("fixed-point", "--system", "loss", "--capacity", "3", "--policy", "random", "--lambda",
                "2", "--format", "json");
        // Erlang-B B(3, 2) = (8/6)/(1 + 2 + 2 + 8/6) = 4/19.
        assertEquals(4.0 / 19, loss.get("blocking").asDouble(), 1e-12);
    }

    @Test
    void transientJsonHoldsTheContractKeys() throws Exception {
        JsonNode tr = json("transient", "--system", "pools", "--policy", "sqd", "--lambda", "3", "--t-end", "2",
                "--dt", "0.5", "--init", "tail:1,0.8,0.3", "--format", "json");
        assertEquals(5, tr.get("t").size());
        assertEquals(5, tr.get("tail").size());
        assertEquals(0.8, tr.get("tail").get(0).get(1).asDouble(), 0.0);
        assertEquals(1.1, tr.get("meanQueueLength").get(0).asDouble(), 1e-15);
        // du/dt = λ − u: u(2) = 3 + (1.1 − 3)e^{−2}.
        assertEquals(3 + (1.1 - 3) * Math.exp(-2), tr.get("meanQueueLength").get(4).asDouble(), 1e-9);
    }

    @Test
    void csvAndTableFormatsPrint() {
        Run csv = run("transient", "--system", "supermarket", "--policy", "random", "--lambda", "0.5", "--t-end", "1",
                "--dt", "1", "--format", "csv");
        assertEquals(0, csv.code());
        assertTrue(csv.out().startsWith("t,meanQueueLength,meanResponseTime,responseTime_p50,"), csv.out());
        assertTrue(csv.out().contains(",x0,x1"), csv.out());
        assertEquals(3, csv.out().strip().split("\n").length);
        Run table = run("fixed-point", "--system", "pools", "--policy", "sqd", "--lambda", "2.5");
        assertEquals(0, table.code());
        assertTrue(table.out().contains("mean queue length"));
    }

    @Test
    void everyCommandHasHelp() {
        for (String command : new String[] {"fixed-point", "transient"}) {
            Run help = run(command, "--help");
            assertEquals(0, help.code());
            assertTrue(help.out().contains("--format"), help.out());
        }
        Run top = run("--help");
        assertTrue(top.out().contains("fixed-point") && top.out().contains("transient"), top.out());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "fixed-point --system supermarket --policy sqd --lambda 1.0|lambda = 1.0 is invalid: must be in (0, 1)",
        "fixed-point --system supermarket --policy sqd --lambda 0.5 --d 0|d = 0 is invalid",
        "fixed-point --system pools --policy sqd --lambda -1|lambda = -1.0 is invalid",
        "fixed-point --system pools --policy sqd --lambda NaN|lambda = NaN is invalid",
        "fixed-point --system loss --capacity 0 --policy sqd --lambda 1|capacity = 0 is invalid",
        "fixed-point --system loss --policy sqd --lambda 1|missing option --capacity",
        "fixed-point --system supermarket --policy sqd --sampling distinct --lambda 0.5|missing option --n",
        "transient --system pools --policy sqd --lambda 2 --t-end 5 --dt 1 --init tail:0.3|init = tail",
        "transient --system pools --policy sqd --lambda 2 --t-end 5 --dt 0|dt = 0.0 is invalid",
        "fixed-point --system pools --policy sqd --lambda 2 --bogus|Unknown option: '--bogus'",
        "fixed-point --system pools --policy best --lambda 2|Invalid value for option '--policy'"})
    void badInputGivesOneClearLineAndNonZeroExit(String args, String expected) {
        Run r = run(args.split(" "));
        assertTrue(r.code() != 0);
        assertTrue(r.err().startsWith("mflb: " ) && r.err().contains(expected), r.err());
        assertFalse(r.err().contains("\tat "), "no stack trace without --debug: " + r.err());
        assertTrue(r.err().strip().split("\n").length <= 2, r.err());
    }

    @Test
    void debugShowsTheStackTrace() {
        Run r = run("fixed-point", "--system", "supermarket", "--policy", "sqd", "--lambda", "2", "--debug");
        assertEquals(Mflb.EXIT_FAILURE, r.code());
        assertTrue(r.err().contains("\tat "), r.err());
    }
}
