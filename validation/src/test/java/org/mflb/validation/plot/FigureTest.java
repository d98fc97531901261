package org.mflb.validation.plot;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mflb.core.MflbException;

class FigureTest {

    @TempDir
    Path dir;

    @Test
    void writesPngAndSvgEvenWithValuesALogAxisCannotShow() throws Exception {
        double[] levels = {0, 1, 2, 3, 4, 5};
        double[] predicted = Arrays.stream(levels).map(i -> Math.pow(0.9, Math.pow(2, i) - 1)).toArray();
        double[] simulated = predicted.clone();
        simulated[5] = 0; // an empty level: must be dropped on the log axis, not crash
        double[] half = Arrays.stream(predicted).map(v -> 0.05 * v).toArray();
        Figure figure = Figure.of("SQ(2), lambda = 0.9", "level i", "x_i (fraction with >= i jobs)").logY()
                .line("fluid", 0, levels, predicted).points("simulation", 0, levels, simulated, half);
        Path png = dir.resolve("tail.png");
        Path svg = dir.resolve("tail.svg");
        figure.save(png);
        figure.save(svg);
        byte[] head = Arrays.copyOf(Files.readAllBytes(png), 4);
        assertArrayEquals(new byte[] {(byte) 0x89, 'P', 'N', 'G'}, head);
        assertTrue(Files.readString(svg).contains("<svg"));
        assertEquals(5, figure.chart().getSeriesMap().get("simulation").getXData().length);
        assertThrows(MflbException.class, () -> figure.save(dir.resolve("tail.gif")));
    }
}
