package org.mflb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The main job as CI runs it: the quick catalogue passes and leaves a complete report. */
class ValidateCommandTest {

    @TempDir
    Path dir;

    @Test
    void quickCataloguePassesAndWritesReportFiguresAndSummary() throws Exception {
        CliTest.Run run = CliTest.run("validate", "--quick", "--quiet", "--out", dir.toString());
        assertEquals(0, run.code(), run.out() + run.err());
        String report = Files.readString(dir.resolve("report.md"));
        JsonNode summary = new ObjectMapper().readTree(dir.resolve("summary.json").toFile());
        assertTrue(summary.get("allPassed").asBoolean());
        assertEquals(summary.get("scenarios").asInt(), summary.get("passed").asInt());
        for (JsonNode result : summary.get("results")) {
            String id = result.get("id").asText();
            assertTrue(report.contains("id=\"" + id + "\""), id);
            Path figure = dir.resolve(result.get("figure").asText());
            assertTrue(Files.size(figure) > 10_000, "figure of " + id);
            // the curves behind the figure, tidy, next to it
            java.util.List<String> data = Files.readAllLines(dir.resolve(result.get("data").asText()));
            assertEquals(org.mflb.validation.plot.Figure.dataFile(figure), dir.resolve(result.get("data").asText()));
            assertEquals("series,x,y,ci95Low,ci95High", data.get(0), id);
            assertTrue(data.size() > 2, id);
            assertTrue(report.contains("(" + result.get("data").asText() + ")"), id);
            assertTrue(result.get("checks").size() > 0, id);
        }
    }

    @Test
    void progressGoesToStderrUnlessQuiet() {
        CliTest.Run run = CliTest.run("validate", "--only", "erlang-b-loss", "--out", dir.toString());
        assertEquals(0, run.code(), run.err());
        assertTrue(run.err().contains("[1/1] erlang-b-loss: pass"), run.err());
        assertTrue(run.out().startsWith("1 of 1 scenarios passed"), run.out());
        CliTest.Run quiet = CliTest.run("validate", "--only", "erlang-b-loss", "--quiet", "--out", dir.toString());
        assertEquals("", quiet.err());
    }

    @Test
    void listPrintsEachScenarioIdWithItsTitleAndRunsNothing() {
        CliTest.Run run = CliTest.run("validate", "--list");
        assertEquals(0, run.code(), run.err());
        java.util.List<String> lines = run.out().lines().toList();
        java.util.List<org.mflb.validation.ValidationScenario> scenarios = org.mflb.validation.Catalogue.scenarios(false);
        assertEquals(scenarios.size(), lines.size());
        for (int i = 0; i < lines.size(); i++) {
            String[] cells = lines.get(i).split("\\s{2,}", 2);
            assertEquals(scenarios.get(i).id(), cells[0]);
            assertEquals(scenarios.get(i).title(), cells[1]);
        }
        assertEquals(org.mflb.validation.Catalogue.scenarios(true).size(),
                CliTest.run("validate", "--list", "--full").out().lines().count());
        CliTest.Run mixed = CliTest.run("validate", "--list", "--only", "erlang-b-loss");
        assertEquals(2, mixed.code());
        assertTrue(mixed.err().startsWith("mflb: --only cannot be used with --list"), mixed.err());
    }

    @Test
    void unknownScenarioIdIsAClearError() {
        CliTest.Run run = CliTest.run("validate", "--only", "nope", "--out", dir.toString());
        assertEquals(Mflb.EXIT_FAILURE, run.code());
        assertTrue(run.err().startsWith("mflb: only = nope is invalid: must be ids from: mm1-random"), run.err());
    }
}
