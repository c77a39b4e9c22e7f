package org.nakcast.benchmarks.throughput;

import java.util.List;
import java.util.Locale;
import org.nakcast.benchmarks.child.Figures;

/**
 * The throughput table: one row per run, printed as each run ends, and the whole invocation as
 * one JSON object for scripts. Rates are millions of messages per second, medians of the
 * per-second rates after the warm-up.
 */
final class ThroughputTable {
    private static final String FORMAT =
        "%-10s %6s %9s %9s %11s %9s %7s %6s %9s %9s %9s %7s %7s %10s %7s %10s%n";

    private ThroughputTable() {
    }

    /** The column titles. */
    static String header() {
        return String.format(Locale.ROOT, FORMAT, "rate", "loss", "recv M/s", "offer M/s", "delivered", "lost",
            "seq err", "unacct", "NAKs sent", "NAKs recv", "retrans", "dups", "gaps", "back-press", "unrecov",
            "kern drops");
    }

    /** One run's row. */
    static String row(RunResult result) {
        final RunSettings settings = result.settings();
        final String loss = String.format(Locale.ROOT, "%.1f%%", settings.loss() * 100);
        if (result.isFailed()) {
            return String.format(Locale.ROOT, "%-10s %6s FAILED: %s%n", settings.rateText(), loss, result.failure());
        }
        final Figures publisher = result.publisher();
        final Figures subscriber = result.subscriber();
        return String.format(Locale.ROOT, FORMAT,
            settings.rateText(),
            loss,
            String.format(Locale.ROOT, "%.3f", subscriber.doubleValue("deliveredPerSecond") / 1e6),
            String.format(Locale.ROOT, "%.3f", publisher.doubleValue("offeredPerSecond") / 1e6),
            subscriber.longValue("delivered"),
            subscriber.longValue("lost"),
            subscriber.longValue("sequenceErrors"),
            result.unaccounted(),
            subscriber.longValue("naksSent"),
            publisher.longValue("naksReceived"),
            publisher.longValue("retransmitsSent"),
            subscriber.longValue("duplicates"),
            subscriber.longValue("gaps"),
            publisher.longValue("backPressure"),
            publisher.longValue("unrecoverableSent"),
            result.kernelDrops() == KernelUdpDrops.UNKNOWN ? "?" : Long.toString(result.kernelDrops()));
    }

    /**
     * Every run of one invocation as one JSON object on one line.
     *
     * @param base the settings the runs share (codec, seconds, warm-up, size, seed)
     */
    static String json(RunSettings base, List<RunResult> results) {
        final StringBuilder json = new StringBuilder("{\"system\": \"nakcast\"")
            .append(", \"codec\": \"").append(base.codec()).append('"')
            .append(", \"seconds\": ").append(base.seconds())
            .append(", \"warmup\": ").append(base.warmupSeconds())
            .append(", \"size\": ").append(base.messageLength())
            .append(", \"seed\": ").append(base.seed())
            .append(", \"cores\": ").append(Runtime.getRuntime().availableProcessors())
            .append(", \"runs\": [");
        for (int i = 0; i < results.size(); i++) {
            json.append(i == 0 ? "" : ", ").append(results.get(i).toJson());
        }
        return json.append("]}").toString();
    }
}
