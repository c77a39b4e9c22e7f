package org.nakcast.rtt;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * Writes a run's files next to the {@code .hlog} interval logs: one {@code .hgrm} percentile
 * distribution per path (HdrHistogram's own format, in microseconds) and the PNG plot.
 */
final class ReportFiles {
    private static final double NANOS_PER_MICRO = 1000.0;

    private ReportFiles() {
    }

    /**
     * Writes the {@code .hgrm} files and the plot.
     *
     * @return the plot's path
     */
    static Path write(RttReport report, RunOptions options, String title) {
        try {
            for (RttResult result : report.results()) {
                writeHgrm(result, options.file(result.link(), ".hgrm"));
            }
            final Path png = options.file(null, ".png");
            PercentilePlot.write(title, report.results(), png);
            return png;
        } catch (IOException ex) {
            throw new UncheckedIOException("cannot write the report in " + options.output + ": " + ex.getMessage(), ex);
        }
    }

    /** The percentile distribution, values in microseconds. */
    static void writeHgrm(RttResult result, Path hgrm) throws IOException {
        try (PrintStream out = new PrintStream(hgrm.toFile(), StandardCharsets.US_ASCII)) {
            result.histogram().outputPercentileDistribution(out, NANOS_PER_MICRO);
        }
    }
}
