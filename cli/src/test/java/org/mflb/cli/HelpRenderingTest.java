package org.mflb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import picocli.CommandLine;

/**
 * Every command's help renders: picocli formats each description with {@code String.format}, so a
 * literal {@code %} must be written {@code %%}; otherwise it prints {@code [picocli WARN] Could not
 * format ...} on the process's stderr (not the command's writer), which this test captures.
 */
class HelpRenderingTest {

    @Test
    void everyCommandsHelpRendersWithoutAPicocliWarning() {
        List<String> commands = new ArrayList<>(new CommandLine(new Mflb()).getSubcommands().keySet());
        assertTrue(commands.contains("diffusion") && commands.size() >= 10, commands.toString());
        PrintStream stderr = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        try {
            System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
            CliTest.Run main = CliTest.run("--help");
            assertEquals(0, main.code(), main.err());
            for (String command : commands) {
                CliTest.Run run = CliTest.run(command, "--help");
                assertEquals(0, run.code(), command + ": " + run.err());
                assertFalse(run.out().isBlank(), command);
                assertFalse(run.out().contains("%%") || run.err().contains("WARN"), command + ": " + run.out());
            }
        } finally {
            System.setErr(stderr);
        }
        String warnings = captured.toString(StandardCharsets.UTF_8);
        assertFalse(warnings.contains("picocli WARN") || warnings.contains("Could not format"), warnings);
    }

    @Test
    void aPercentInADescriptionShowsAsOnePercent() {
        CliTest.Run run = CliTest.run("diffusion", "--help");
        assertTrue(run.out().contains("95% CIs"), run.out());
    }
}
