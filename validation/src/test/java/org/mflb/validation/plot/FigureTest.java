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

    /** The data file holds what is drawn: the kept points, the interval y ± half-width, none for a line. */
    @Test
    void savesTheDrawnSeriesAsTidyCsvNextToTheFigure() throws Exception {
        double[] x = {1, 2, 3};
        Figure figure = Figure.of("t", "x", "y").logY().line("fluid, d = 2", 0, x, new double[] {0.5, 0.25, 0.125})
                .points("simulation", 1, x, new double[] {0.5, 0, 0.1}, new double[] {0.1, 0.2, 0.05})
                .points("exact", 2, x, new double[] {0.4, Double.NaN, 0.2}, null);
        Path png = dir.resolve("fig.png");
        figure.save(png);
        assertEquals(dir.resolve("fig.csv"), Figure.dataFile(png));
        assertEquals(dir.resolve("a.b.csv"), Figure.dataFile(dir.resolve("a.b.svg")));
        java.util.List<String> rows = Files.readAllLines(dir.resolve("fig.csv"));
        assertEquals(java.util.List.of("series,x,y,ci95Low,ci95High",
                "\"fluid, d = 2\",1.0,0.5,,", "\"fluid, d = 2\",2.0,0.25,,", "\"fluid, d = 2\",3.0,0.125,,",
                // y = 0 cannot be drawn on the log axis: left out of the figure and of its data
                "simulation,1.0,0.5,0.4,0.6", "simulation,3.0,0.1,0.05,0.15000000000000002",
                "exact,1.0,0.4,,", "exact,3.0,0.2,,"), rows);
    }
}
