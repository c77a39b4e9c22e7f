package org.nakcast.benchmarks.throughput;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.nakcast.benchmarks.child.Figures;

/**
 * What a stranger's NAKs cost a stream: each run with a stranger ({@code --stranger-naks}) against
 * the run of the same invocation that differs from it only in having none, their delivered rates,
 * the ratio flooded/clean and what each lost. A flooded run without its clean run is not shown.
 */
final class StrangerComparison {
    private StrangerComparison() {
    }

    /**
     * A run with a stranger and the same run without.
     *
     * @param flooded the run with the stranger
     * @param clean the same settings, no stranger
     */
    record Row(RunResult flooded, RunResult clean) {
        /** The flooded run's rate over the clean run's; NaN if either failed. */
        double ratio() {
            if (flooded.isFailed() || clean.isFailed()) {
                return Double.NaN;
            }
            return rate(flooded) / rate(clean);
        }

        String toJson() {
            final RunSettings settings = flooded.settings();
            final double ratio = ratio();
            return "{\"strangerNaks\": \"" + settings.strangerText() + '"'
                + ", \"loss\": " + Figures.format(settings.loss())
                + ", \"injectedLoss\": " + Figures.format(settings.injectedLoss())
                + ", \"rateText\": \"" + settings.rateText() + '"'
                + ", \"flowControl\": \"" + ThroughputTable.flowControl(settings) + '"'
                + ", \"clean\": " + jsonRate(clean) + ", \"flooded\": " + jsonRate(flooded)
                + ", \"floodedOverClean\": " + (Double.isFinite(ratio) ? Figures.format(ratio) : "null")
                + ", \"lostClean\": " + lost(clean) + ", \"lostFlooded\": " + lost(flooded) + '}';
        }
    }

    /** One row per run with a stranger whose clean twin ran too, in the order they ran. */
    static List<Row> rows(List<RunResult> results) {
        final List<Row> rows = new ArrayList<>();
        for (RunResult result : results) {
            if (result.settings().strangerNaks().isZero()) {
                continue;
            }
            final RunSettings clean = result.settings().withoutStranger();
            results.stream().filter(other -> other.settings().equals(clean)).findFirst()
                .ifPresent(twin -> rows.add(new Row(result, twin)));
        }
        return rows;
    }

    /** The comparison: a title, the column titles and one line per row; empty without rows. */
    static String table(List<Row> rows) {
        if (rows.isEmpty()) {
            return "";
        }
        final String format = "%6s %6s %-10s %3s %8s %9s %11s %13s %10s %12s%n";
        final StringBuilder table = new StringBuilder(String.format(Locale.ROOT,
            "%na stranger NAKing the whole history: recv M/s without and with it%n"));
        table.append(String.format(Locale.ROOT, format, "loss", "inj", "rate", "fc", "stranger", "clean M/s",
            "flooded M/s", "flooded/clean", "lost clean", "lost flooded"));
        for (Row row : rows) {
            final RunSettings settings = row.flooded().settings();
            final double ratio = row.ratio();
            table.append(String.format(Locale.ROOT, format, ThroughputTable.percent(settings.loss()),
                ThroughputTable.percent(settings.injectedLoss()), settings.rateText(),
                ThroughputTable.flowControl(settings), settings.strangerText(), textRate(row.clean()),
                textRate(row.flooded()), Double.isNaN(ratio) ? "-" : String.format(Locale.ROOT, "%.2f", ratio),
                textLost(row.clean()), textLost(row.flooded())));
        }
        return table.toString();
    }

    private static double rate(RunResult result) {
        return result.subscriber().doubleValue("deliveredPerSecond");
    }

    private static String textRate(RunResult result) {
        return result.isFailed() ? "-" : ThroughputTable.millions(rate(result));
    }

    private static String textLost(RunResult result) {
        return result.isFailed() ? "-" : Long.toString(lost(result));
    }

    private static String jsonRate(RunResult result) {
        return result.isFailed() ? "null" : Figures.format(rate(result));
    }

    /** Messages reported lost plus those gone without a word: all the stream did not deliver. */
    private static long lost(RunResult result) {
        return result.subscriber().longValue("lost") + result.unaccounted();
    }
}
