package org.mflb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Pins the JSON output of a few fixed points and transients, smooth and non-smooth, byte for byte
 * against golden files written by the code before the fluid API was unified (issue 11): a refactoring
 * of the fluid models or of the commands' dispatch must not move a key or a digit. The wider check
 * over every system, policy and format is {@code scripts/compare-outputs.sh REV}.
 * <p>
 * To rewrite the goldens after an intended change of output, run this test with
 * {@code -Dmflb.golden.write=DIR} (DIR = {@code cli/src/test/resources/golden}) and review the diff.
 */
class GoldenOutputTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "fp-supermarket-sqd2 | fixed-point --system supermarket --policy sqd --d 2 --lambda 0.9 --format json",
        "fp-supermarket-jsq | fixed-point --system supermarket --policy jsq --lambda 0.8 --format json",
        "fp-pools-threshold2 | fixed-point --system pools --policy threshold --threshold 2 --lambda 2.5 --format json",
        "fp-pools-threshold4 | fixed-point --system pools --policy threshold --threshold 4 --lambda 2.5 --format json",
        "fp-pools-adaptive | fixed-point --system pools --policy adaptive-threshold --alpha 0.9 --lambda 2.5 --format json",
        "fp-loss-sqd2 | fixed-point --system loss --capacity 4 --policy sqd --d 2 --lambda 3.5 --format json",
        "fp-refined | fixed-point --system supermarket --policy sqd --d 2 --lambda 0.9 --refined 10,50 --order 2 --format json",
        "tr-pools-sqd2 | transient --system pools --policy sqd --d 2 --lambda 2.5 --t-end 4 --dt 1 --init all:4 --format json",
        "tr-pools-jiq | transient --system pools --policy jiq --lambda 2.5 --t-end 3 --dt 0.5 --format json",
        "tr-pools-adaptive | transient --system pools --policy adaptive-threshold --alpha 0.9 --lambda 2.5 --t-end 3 --dt 0.5 --format json",
        "tr-loss-random | transient --system loss --capacity 5 --policy random --lambda 4 --t-end 3 --dt 1 --init fixed-point --format json",
    })
    void jsonOutputIsUnchanged(String name, String line) throws IOException {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Mflb.execute(line.trim().split("\\s+"), new PrintWriter(out), new PrintWriter(err));
        assertEquals(0, code, err.toString());
        String write = System.getProperty("mflb.golden.write");
        if (write != null) {
            Files.writeString(Path.of(write, name + ".json"), out.toString(), StandardCharsets.UTF_8);
            return;
        }
        try (InputStream golden = GoldenOutputTest.class.getResourceAsStream("/golden/" + name + ".json")) {
            assertEquals(new String(golden.readAllBytes(), StandardCharsets.UTF_8), out.toString(), line);
        }
    }
}
