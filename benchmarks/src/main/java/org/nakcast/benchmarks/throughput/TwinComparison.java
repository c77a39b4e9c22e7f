package org.nakcast.benchmarks.throughput;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.nakcast.benchmarks.child.Figures;

/**
 * What one thing added to a run costs the stream (a stranger's NAKs, {@code --stranger-naks}; a
 * recorder, {@code --recorder}): each run with it against its twin, the run of the same invocation
 * that differs from it only in lacking it: their delivered rates, the ratio with/without and what
 * each lost. A run whose twin did not run is not shown.
 */
final class TwinComparison {
    /** What a run may have added. */
    enum Addition {
        /** A stranger NAKing the whole history ({@link StrangerNaks}). */
        STRANGER("a stranger NAKing the whole history", "stranger", "strangerComparison") {
            @Override
            boolean in(RunSettings settings) {
                return !settings.strangerNaks().isZero();
            }

            @Override
            RunSettings without(RunSettings settings) {
                return settings.withoutStranger();
            }

            @Override
            String detail(RunResult with) {
                return with.settings().strangerText();
            }
        },
        /** Every datagram signed and checked ({@code auth-key-file}). */
        AUTH("authenticated datagrams", "auth", "authComparison") {
            @Override
            boolean in(RunSettings settings) {
                return settings.authKeyFile() != null;
            }

            @Override
            RunSettings without(RunSettings settings) {
                return settings.withoutAuth();
            }

            @Override
            String detail(RunResult with) {
                return "on";
            }
        },
        /** A recorder as one more subscriber ({@link RecorderMain}): the detail is the holes it recorded. */
        RECORDER("a recorder as one more subscriber", "holes", "recorderComparison") {
            @Override
            boolean in(RunSettings settings) {
                return settings.recorder();
            }

            @Override
            RunSettings without(RunSettings settings) {
                return settings.withoutRecorder();
            }

            @Override
            String detail(RunResult with) {
                return with.isFailed() || with.recorder() == null ? "-"
                    : Long.toString(with.recorder().longValue("holeMessages"));
            }
        };

        private final String title;
        private final String detailTitle;
        private final String jsonKey;

        Addition(String title, String detailTitle, String jsonKey) {
            this.title = title;
            this.detailTitle = detailTitle;
            this.jsonKey = jsonKey;
        }

        /** Whether a run has it. */
        abstract boolean in(RunSettings settings);

        /** The same run without it. */
        abstract RunSettings without(RunSettings settings);

        /** What the table shows of it for a run that has it. */
        abstract String detail(RunResult with);

        /** The key of its comparison in the JSON. */
        String jsonKey() {
            return jsonKey;
        }
    }

    private TwinComparison() {
    }

    /**
     * A run with the addition and the same run without.
     *
     * @param addition what the first has and the second not
     * @param with the run with it
     * @param without the same settings, without it
     */
    record Row(Addition addition, RunResult with, RunResult without) {
        /** The rate with it over the rate without; NaN if either failed. */
        double ratio() {
            if (with.isFailed() || without.isFailed()) {
                return Double.NaN;
            }
            return rate(with) / rate(without);
        }

        String toJson() {
            final RunSettings settings = with.settings();
            final double ratio = ratio();
            return "{\"" + addition.detailTitle + "\": \"" + addition.detail(with) + '"'
                + ", \"loss\": " + Figures.format(settings.loss())
                + ", \"injectedLoss\": " + Figures.format(settings.injectedLoss())
                + ", \"rateText\": \"" + settings.rateText() + '"'
                + ", \"flowControl\": \"" + ThroughputTable.flowControl(settings) + '"'
                + ", \"without\": " + jsonRate(without) + ", \"with\": " + jsonRate(with)
                + ", \"withOverWithout\": " + (Double.isFinite(ratio) ? Figures.format(ratio) : "null")
                + ", \"lostWithout\": " + lost(without) + ", \"lostWith\": " + lost(with) + '}';
        }
    }

    /** One row per run with {@code addition} whose twin ran too, in the order they ran. */
    static List<Row> rows(List<RunResult> results, Addition addition) {
        final List<Row> rows = new ArrayList<>();
        for (RunResult result : results) {
            if (!addition.in(result.settings())) {
                continue;
            }
            final RunSettings twin = addition.without(result.settings());
            results.stream().filter(other -> other.settings().equals(twin)).findFirst()
                .ifPresent(without -> rows.add(new Row(addition, result, without)));
        }
        return rows;
    }

    /** The comparison of one addition's rows: a title, the column titles and one line per row; empty without rows. */
    static String table(List<Row> rows) {
        if (rows.isEmpty()) {
            return "";
        }
        final Addition addition = rows.get(0).addition();
        final String format = "%6s %6s %-10s %3s %8s %11s %9s %12s %12s %9s%n";
        final StringBuilder table = new StringBuilder(String.format(Locale.ROOT,
            "%n%s: recv M/s without and with it%n", addition.title));
        table.append(String.format(Locale.ROOT, format, "loss", "inj", "rate", "fc", addition.detailTitle,
            "without M/s", "with M/s", "with/without", "lost without", "lost with"));
        for (Row row : rows) {
            final RunSettings settings = row.with().settings();
            final double ratio = row.ratio();
            table.append(String.format(Locale.ROOT, format, ThroughputTable.percent(settings.loss()),
                ThroughputTable.percent(settings.injectedLoss()), settings.rateText(),
                ThroughputTable.flowControl(settings), addition.detail(row.with()), textRate(row.without()),
                textRate(row.with()), Double.isNaN(ratio) ? "-" : String.format(Locale.ROOT, "%.2f", ratio),
                textLost(row.without()), textLost(row.with())));
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
