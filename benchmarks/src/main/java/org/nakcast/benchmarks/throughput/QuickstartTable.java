package org.nakcast.benchmarks.throughput;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.nakcast.benchmarks.child.ChildJvm;
import org.nakcast.benchmarks.child.Figures;

/**
 * The quickstart's table, one row per codec: encode/s, decode/s, min(enc,dec), end-to-end
 * messages per second and messages lost; the notes under it that say how each figure was
 * measured and the verdict; and the whole run as one JSON object for scripts.
 */
final class QuickstartTable {
    private static final String FORMAT = "%-20s %13s %13s %13s %18s %8s%n";
    private static final String NONE = "-";

    private QuickstartTable() {
    }

    /** The column titles. */
    static String header() {
        return String.format(Locale.ROOT, FORMAT, "codec", "encode/s", "decode/s", "min(enc,dec)",
            "end-to-end msgs/s", "lost");
    }

    /** One codec's row; a figure that could not be measured is {@value #NONE}. */
    static String row(QuickstartRow row) {
        final RunResult run = row.endToEnd();
        return String.format(Locale.ROOT, FORMAT,
            row.codec(),
            rate(row.speed().doubleValue("encodePerSecond")),
            rate(row.speed().doubleValue("decodePerSecond")),
            rate(row.minRate()),
            run.isFailed() ? NONE : rate(run.subscriber().doubleValue("deliveredPerSecond")),
            run.isFailed() ? NONE : Long.toString(run.subscriber().longValue("lost")));
    }

    /**
     * How the figures were measured, then the verdict: what failed, lost or broke the order, or
     * that every codec delivered everything.
     *
     * @param settings the end-to-end runs' settings (any codec's: they differ only in it)
     * @param speedWarmupMs warm-up of each codec-speed loop
     * @param speedMeasureMs measured time of each codec-speed loop
     */
    static String footer(RunSettings settings, List<QuickstartRow> rows, long speedWarmupMs, long speedMeasureMs) {
        final StringBuilder notes = new StringBuilder()
            .append(String.format(Locale.ROOT, "%nencode/s, decode/s: one thread on the sample PriceUpdate, a plain"
                + " timed loop (%d ms warm-up, %d ms measured) in a JVM of its own per codec; flyweight is its"
                + " zero-copy path.%n  ops/codec-bench gives the JMH figures (forks, iterations, error bars,"
                + " allocation).%n",
                speedWarmupMs, speedMeasureMs))
            .append(String.format(Locale.ROOT, "end-to-end msgs/s: median of the per-second messages the subscriber"
                + " decoded and checked over %d measured seconds (after %d s warm-up);%n  publisher and subscriber in"
                + " two JVMs on loopback multicast in a private network namespace, %s, topic on flow control min.%n",
                settings.seconds(), settings.warmupSeconds(), settings.rateText()))
            .append(String.format(Locale.ROOT, "lost: messages reported lost by loss events; must be 0.%n"));
        final List<String> problems = problems(rows);
        if (problems.isEmpty()) {
            notes.append(String.format(Locale.ROOT, "OK: every codec delivered every message exactly once and in order,"
                + " none lost.%n"));
        } else {
            problems.forEach(problem -> notes.append(String.format(Locale.ROOT, "FAILED: %s%n", problem)));
        }
        return notes.toString();
    }

    private static List<String> problems(List<QuickstartRow> rows) {
        final List<String> problems = new ArrayList<>();
        for (QuickstartRow row : rows) {
            if (row.speedFailure() != null) {
                problems.add(row.codec() + ": encode/decode measurement failed: " + row.speedFailure());
            }
            final RunResult run = row.endToEnd();
            if (run.isFailed()) {
                problems.add(row.codec() + ": end-to-end run failed: " + run.failure());
            } else if (row.lostOrBroken()) {
                problems.add(String.format(Locale.ROOT, "%s: %d lost, %d out of order, %d gone without a loss event",
                    row.codec(), run.subscriber().longValue("lost"), run.subscriber().longValue("sequenceErrors"),
                    run.unaccounted()));
            }
        }
        return problems;
    }

    /**
     * The whole quickstart as one JSON object on one line: the settings, whether it passed, and per
     * codec its rates and its end-to-end run in full ({@link RunResult#toJson()}).
     */
    static String json(RunSettings settings, List<QuickstartRow> rows) {
        final StringBuilder json = new StringBuilder("{\"command\": \"quickstart\"")
            .append(", \"cores\": ").append(Runtime.getRuntime().availableProcessors())
            .append(", \"collector\": \"").append(ChildJvm.collector()).append('"')
            .append(", \"seconds\": ").append(settings.seconds())
            .append(", \"warmup\": ").append(settings.warmupSeconds())
            .append(", \"rate\": ").append(settings.sendRate().bytes())
            .append(", \"ok\": ").append(problems(rows).isEmpty())
            .append(", \"codecs\": [");
        for (int i = 0; i < rows.size(); i++) {
            final QuickstartRow row = rows.get(i);
            json.append(i == 0 ? "" : ", ")
                .append("{\"codec\": \"").append(row.codec()).append('"')
                .append(", \"encodePerSecond\": ").append(number(row.speed().doubleValue("encodePerSecond")))
                .append(", \"decodePerSecond\": ").append(number(row.speed().doubleValue("decodePerSecond")))
                .append(", \"min\": ").append(number(row.minRate()))
                .append(", \"bytes\": ").append(row.speedFailure() == null ? row.speed().longValue("bytes") : "null");
            if (row.speedFailure() != null) {
                json.append(", \"speedFailure\": \"").append(RunResult.escape(row.speedFailure())).append('"');
            }
            json.append(", \"endToEnd\": ").append(row.endToEnd().toJson()).append('}');
        }
        return json.append("]}").toString();
    }

    /** A rate in whole messages per second with thousands separated, or {@value #NONE}. */
    static String rate(double perSecond) {
        return Double.isNaN(perSecond) ? NONE : String.format(Locale.ROOT, "%,d", Math.round(perSecond));
    }

    private static String number(double value) {
        return Double.isNaN(value) ? "null" : Figures.format(value);
    }
}
