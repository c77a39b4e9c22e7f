package org.nakcast.rtt;

import java.io.IOException;
import java.io.OutputStream;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import javax.imageio.ImageIO;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The percentile plot, as HdrHistogram's plotter draws it: latency against percentile, the
 * percentile axis logarithmic in 1 / (1 - percentile), so 90%, 99%, 99.9%, 99.99% are evenly spaced
 * and the tail gets the room. The latency axis is logarithmic too, so a microsecond median and a
 * millisecond maximum both stay readable. One curve per path, on one chart; a headless PNG.
 */
final class PercentilePlot {
    private static final int WIDTH = 1000;
    private static final int HEIGHT = 600;
    private static final int TICKS_PER_HALF_DISTANCE = 5;

    private PercentilePlot() {
    }

    /**
     * Writes the PNG.
     *
     * @param title the chart's title
     * @param results the curves
     * @param png the file
     * @throws IOException if it cannot be written
     */
    static void write(String title, List<RttResult> results, Path png) throws IOException {
        final XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT).title(title)
            .xAxisTitle("percentile").yAxisTitle("round trip (microseconds)").build();
        chart.getStyler().setXAxisLogarithmic(true);
        chart.getStyler().setXAxisLogarithmicDecadeOnly(true);
        chart.getStyler().setXAxisTickLabelsFormattingFunction(PercentilePlot::percentileLabel);
        chart.getStyler().setYAxisLogarithmic(true);
        chart.getStyler().setYAxisDecimalPattern("#,##0.#");
        for (RttResult result : results) {
            final List<Double> x = new ArrayList<>();
            final List<Double> y = new ArrayList<>();
            final Histogram histogram = result.histogram();
            final double lastX = Math.max(histogram.getTotalCount(), 10);
            for (HistogramIterationValue value : histogram.percentiles(TICKS_PER_HALF_DISTANCE)) {
                final double percentile = value.getPercentileLevelIteratedTo();
                x.add(percentile >= 100 ? lastX : Math.min(lastX, 1 / (1 - percentile / 100)));
                y.add(value.getValueIteratedTo() / 1000.0);
            }
            chart.addSeries(result.link(), x, y).setMarker(SeriesMarkers.NONE);
        }
        // BitmapEncoder.saveBitmap(chart, OutputStream, ...) is deprecated in XChart 4: write the image with ImageIO.
        try (OutputStream out = Files.newOutputStream(png)) {
            if (!ImageIO.write(BitmapEncoder.getBufferedImage(chart), "png", out)) {
                throw new IOException("no PNG writer in this JDK");
            }
        }
    }

    /** 1 -> "0%", 10 -> "90%", 100 -> "99%", 1000 -> "99.9%": the percentile at x = 1 / (1 - p). */
    static String percentileLabel(double x) {
        final BigDecimal percent = BigDecimal.valueOf(100 * (1 - 1 / x)).setScale(6, RoundingMode.HALF_UP)
            .stripTrailingZeros();
        return (percent.signum() == 0 ? "0" : percent.toPlainString()) + "%";
    }
}
