package org.mflb.validation.plot;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.VectorGraphicsEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.XYStyler;
import org.knowm.xchart.style.markers.SeriesMarkers;
import org.mflb.core.MflbException;

/**
 * A headless XChart figure that puts predictions (lines) next to simulated estimates (markers with
 * 95% confidence bars). Series that belong together, e.g. the predicted and the simulated
 * {@code x_3(t)}, share a colour through their {@code group} index. Values a log axis cannot show
 * ({@code ≤ 0}) are left out of that series rather than failing the plot. Wherever a figure is saved,
 * the data it draws is saved next to it ({@link #dataFile}): one tidy CSV row per point,
 * {@code series,x,y,ci95Low,ci95High}, the interval empty for a series without confidence bars.
 */
public final class Figure {

    private static final Color[] PALETTE = {new Color(0x1f77b4), new Color(0xd62728), new Color(0x2ca02c),
        new Color(0xff7f0e), new Color(0x9467bd), new Color(0x8c564b), new Color(0xe377c2), new Color(0x17becf),
        new Color(0x7f7f7f), new Color(0xbcbd22)};

    /** The header of the data file. */
    public static final String DATA_HEADER = "series,x,y,ci95Low,ci95High";

    /** One drawn series: the points kept, with their half-widths ({@code null} without bars). */
    private record Drawn(String name, double[] x, double[] y, double[] halfWidth) {
    }

    private final XYChart chart;
    private final List<Drawn> drawn = new ArrayList<>();
    private boolean logY;
    private boolean logX;

    private Figure(String title, String xLabel, String yLabel) {
        chart = new XYChartBuilder().width(900).height(600).title(title).xAxisTitle(xLabel).yAxisTitle(yLabel).build();
        XYStyler styler = chart.getStyler();
        styler.setLegendPosition(Styler.LegendPosition.OutsideE);
        styler.setChartBackgroundColor(Color.WHITE);
        styler.setPlotBackgroundColor(Color.WHITE);
        styler.setPlotGridLinesColor(new Color(0xdddddd));
        // Long titles shrink rather than being clipped at the chart's edges.
        styler.setChartTitleFont(new Font(Font.SANS_SERIF, Font.BOLD, title.length() > 80 ? 12 : title.length() > 65 ? 14 : 16));
        styler.setAxisTitleFont(new Font(Font.SANS_SERIF, Font.PLAIN, 14));
        styler.setLegendFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        styler.setAxisTickLabelsFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        chart.getStyler().setErrorBarsColorSeriesColor(true);
    }

    /**
     * @param title chart title
     * @param xLabel x axis label, with its unit
     * @param yLabel y axis label, with its unit
     * @return an empty figure
     */
    public static Figure of(String title, String xLabel, String yLabel) {
        return new Figure(title, xLabel, yLabel);
    }

    /** Uses a logarithmic y axis (for tails). */
    public Figure logY() {
        logY = true;
        chart.getStyler().setYAxisLogarithmic(true);
        return this;
    }

    /** Uses a logarithmic x axis (for sizes N spanning decades). */
    public Figure logX() {
        logX = true;
        chart.getStyler().setXAxisLogarithmic(true);
        return this;
    }

    /**
     * Adds a prediction as a line.
     *
     * @param name legend entry
     * @param group colour group
     * @param x abscissae
     * @param y ordinates
     */
    public Figure line(String name, int group, double[] x, double[] y) {
        return line(name, group, x, y, new BasicStroke(2f));
    }

    /**
     * Adds a second prediction of the same quantity as a dashed line (a correction drawn over the
     * line of {@link #line} in the same colour).
     *
     * @param name legend entry
     * @param group colour group
     * @param x abscissae
     * @param y ordinates
     */
    public Figure dashedLine(String name, int group, double[] x, double[] y) {
        return line(name, group, x, y, new BasicStroke(2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f,
                new float[] {6f, 4f}, 0f));
    }

    private Figure line(String name, int group, double[] x, double[] y, BasicStroke stroke) {
        double[][] kept = keep(x, y, null);
        if (kept[0].length == 0) {
            return this;
        }
        XYSeries s = chart.addSeries(name, kept[0], kept[1]);
        drawn.add(new Drawn(name, kept[0], kept[1], null));
        s.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
        s.setMarker(SeriesMarkers.NONE);
        s.setLineColor(PALETTE[group % PALETTE.length]);
        s.setLineStyle(stroke);
        return this;
    }

    /**
     * Adds estimates as markers with symmetric 95% confidence bars.
     *
     * @param name legend entry
     * @param group colour group
     * @param x abscissae
     * @param y estimates
     * @param halfWidth confidence half-widths ({@code null} for none)
     */
    public Figure points(String name, int group, double[] x, double[] y, double[] halfWidth) {
        double[][] kept = keep(x, y, halfWidth);
        if (kept[0].length == 0) {
            return this;
        }
        XYSeries s = halfWidth == null ? chart.addSeries(name, kept[0], kept[1])
                : chart.addSeries(name, kept[0], kept[1], kept[2]);
        drawn.add(new Drawn(name, kept[0], kept[1], halfWidth == null ? null : kept[3]));
        s.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
        s.setMarker(SeriesMarkers.CIRCLE);
        s.setMarkerColor(PALETTE[group % PALETTE.length]);
        s.setLineColor(PALETTE[group % PALETTE.length]); // XChart draws the error bars in the line colour
        return this;
    }

    /**
     * Keeps the finite points (positive ones on log axes); bars are clipped so they stay above 0.
     *
     * @return x, y, the drawn half-widths and the given ones (NaN where none)
     */
    private double[][] keep(double[] x, double[] y, double[] halfWidth) {
        int n = 0;
        for (int i = 0; i < x.length; i++) {
            if (Double.isFinite(x[i]) && Double.isFinite(y[i]) && (!logY || y[i] > 0) && (!logX || x[i] > 0)) {
                n++;
            }
        }
        double[][] out = new double[4][n];
        int k = 0;
        for (int i = 0; i < x.length; i++) {
            if (Double.isFinite(x[i]) && Double.isFinite(y[i]) && (!logY || y[i] > 0) && (!logX || x[i] > 0)) {
                out[0][k] = x[i];
                out[1][k] = y[i];
                double h = halfWidth == null || !Double.isFinite(halfWidth[i]) ? 0 : halfWidth[i];
                out[2][k] = logY ? Math.min(h, 0.999 * y[i]) : h;
                out[3][k] = halfWidth == null || !Double.isFinite(halfWidth[i]) ? Double.NaN : halfWidth[i];
                k++;
            }
        }
        return out;
    }

    /** @return the underlying chart, for further styling */
    public XYChart chart() {
        return chart;
    }

    /**
     * Checks a figure's file name before the work that draws it.
     *
     * @param file destination
     * @return the file name in lower case
     * @throws MflbException unless the name ends in {@code .png} or {@code .svg}
     */
    public static String requireFormat(Path file) {
        String name = file.getFileName() == null ? "" : file.getFileName().toString().toLowerCase(Locale.ROOT);
        if (!name.endsWith(".svg") && !name.endsWith(".png")) {
            throw MflbException.invalid("plot", file, "a file name ending in .png or .svg");
        }
        return name;
    }

    /**
     * @param figure a figure's file
     * @return the file of its data: the same name with {@code .csv} in place of {@code .png} or {@code .svg}
     */
    public static Path dataFile(Path figure) {
        String name = figure.getFileName().toString();
        int dot = name.lastIndexOf('.');
        return figure.resolveSibling((dot > 0 ? name.substring(0, dot) : name) + ".csv");
    }

    /**
     * @return the drawn series as CSV ({@link #DATA_HEADER}, then one row per point in the order drawn;
     *         the interval {@code y ± half-width} of the points with confidence bars, empty otherwise)
     */
    public String data() {
        StringBuilder csv = new StringBuilder(DATA_HEADER).append('\n');
        for (Drawn d : drawn) {
            String name = quoted(d.name());
            for (int i = 0; i < d.x().length; i++) {
                csv.append(name).append(',').append(d.x()[i]).append(',').append(d.y()[i]).append(',');
                if (d.halfWidth() != null && Double.isFinite(d.halfWidth()[i])) {
                    csv.append(d.y()[i] - d.halfWidth()[i]).append(',').append(d.y()[i] + d.halfWidth()[i]);
                } else {
                    csv.append(',');
                }
                csv.append('\n');
            }
        }
        return csv.toString();
    }

    /** @return the CSV field of a series name (RFC 4180: quoted when it holds a comma, a quote or a line break) */
    private static String quoted(String name) {
        if (name.contains(",") || name.contains("\"") || name.contains("\n") || name.contains("\r")) {
            return '"' + name.replace("\"", "\"\"") + '"';
        }
        return name;
    }

    /**
     * Writes the figure; the format follows the file name: {@code .png} (default) or {@code .svg}. Its
     * data goes to {@link #dataFile}.
     *
     * @param file destination
     */
    public void save(Path file) {
        try {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            if (requireFormat(file).endsWith(".svg")) {
                VectorGraphicsEncoder.saveVectorGraphic(chart, file.toString(), VectorGraphicsEncoder.VectorGraphicsFormat.SVG);
            } else {
                BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
            }
            Files.writeString(dataFile(file), data());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }
}
