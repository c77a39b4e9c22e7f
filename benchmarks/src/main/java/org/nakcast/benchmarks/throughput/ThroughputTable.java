package org.nakcast.benchmarks.throughput;

import java.util.List;
import java.util.Locale;
import org.nakcast.benchmarks.child.ChildJvm;
import org.nakcast.benchmarks.child.Figures;

/**
 * The throughput table: one row per run, printed as each run ends, and the whole invocation as
 * one JSON object for scripts. Rates are millions of messages per second, medians of the
 * per-second rates after the warm-up; {@code lines} is how many lines nakcast's topic travels on
 * ({@code --lines}; a peer's one); {@code media} how its nodes reach the kernel ({@code --media});
 * {@code loss} the kernel's loss on each line; {@code dgram} is
 * the datagram size every system of the run sends ({@code --datagram-size}); {@code pub cpu} and
 * {@code sub cpu} are the cores each side's JVM used per measured second (median). A figure a
 * system does not have (a peer's NAK counters) is {@code -}.
 */
final class ThroughputTable {
    private static final String FORMAT =
        "%-9s %-10s %3s %5s %8s %5s %6s %6s %8s %9s %9s %11s %9s %7s %9s %9s %9s %9s %7s %7s %10s %7s %10s"
            + " %9s %7s %7s%n";

    private ThroughputTable() {
    }

    /** The column titles. */
    static String header() {
        return String.format(Locale.ROOT, FORMAT, "system", "rate", "fc", "lines", "media", "dgram", "loss", "inj",
            "stranger",
            "recv M/s", "offer M/s",
            "delivered", "lost", "seq err", "unacct", "NAKs sent", "NAKs recv", "retrans", "dups", "gaps",
            "back-press", "unrecov", "kern drops", "rule drops", "pub cpu", "sub cpu");
    }

    /** One run's row. */
    static String row(RunResult result) {
        final RunSettings settings = result.settings();
        final String system = settings.system().label();
        final String loss = percent(settings.loss());
        final String injected = percent(settings.injectedLoss());
        if (result.isFailed()) {
            return String.format(Locale.ROOT, "%-9s %-10s %3s %5s %8s %5s %6s %6s %8s FAILED: %s%n", system,
                settings.rateText(), flowControl(settings), settings.lines(), media(settings), settings.datagramSize(),
                loss, injected,
                settings.strangerText(), result.failure());
        }
        final Figures publisher = result.publisher();
        final Figures subscriber = result.subscriber();
        return String.format(Locale.ROOT, FORMAT,
            system,
            settings.rateText(),
            flowControl(settings),
            settings.lines(),
            media(settings),
            settings.datagramSize(),
            loss,
            injected,
            settings.strangerText(),
            millions(subscriber.doubleValue("deliveredPerSecond")),
            millions(publisher.doubleValue("offeredPerSecond")),
            subscriber.longValue("delivered"),
            subscriber.longValue("lost"),
            subscriber.longValue("sequenceErrors"),
            result.unaccounted(),
            figure(subscriber, "naksSent"),
            figure(publisher, "naksReceived"),
            figure(publisher, "retransmitsSent"),
            figure(subscriber, "duplicates"),
            figure(subscriber, "gaps"),
            figure(publisher, "backPressure"),
            figure(publisher, "unrecoverableSent"),
            result.kernelDrops() == KernelUdpDrops.UNKNOWN ? "?" : Long.toString(result.kernelDrops()),
            result.lossDropped(),
            cores(publisher),
            cores(subscriber));
    }

    /** The cores a side's JVM used per measured second, {@code -} where it could not tell. */
    private static String cores(Figures side) {
        final double cores = side.asMap().containsKey("cpuCores") ? side.doubleValue("cpuCores") : Double.NaN;
        return Double.isNaN(cores) ? "-" : String.format(Locale.ROOT, "%.2f", cores);
    }

    /**
     * nakcast's media, {@code nio} or {@code native}, with {@code +a} when its datagrams are
     * authenticated; {@code -} for a peer.
     */
    static String media(RunSettings settings) {
        return settings.system() == Contender.NAKCAST
            ? settings.media().name().toLowerCase(Locale.ROOT) + (settings.authKeyFile() == null ? "" : "+a") : "-";
    }

    /** nakcast's flow control, {@code min} or {@code max}; {@code -} for a peer. */
    static String flowControl(RunSettings settings) {
        return settings.system() == Contender.NAKCAST ? settings.flowControl().name().toLowerCase(Locale.ROOT) : "-";
    }

    static String percent(double fraction) {
        return String.format(Locale.ROOT, "%.1f%%", fraction * 100);
    }

    static String millions(double perSecond) {
        return String.format(Locale.ROOT, "%.3f", perSecond / 1e6);
    }

    private static String figure(Figures figures, String name) {
        return figures.asMap().containsKey(name) ? Long.toString(figures.longValue(name)) : "-";
    }

    /**
     * Every run of one invocation as one JSON object on one line.
     *
     * @param base the settings the runs share (codec, seconds, warm-up, size, datagram size, seed)
     * @param codecSpeed the codec's own rates ({@code encodePerSecond}, {@code decodePerSecond},
     *     {@code min}), or null when the runs carry raw bytes or they were not measured
     * @param comparison nakcast against each peer, or empty without peers
     * @param strangerComparison each run with a stranger against the same run without, or empty
     */
    static String json(RunSettings base, Figures codecSpeed, List<RunResult> results,
        List<PeerComparison.Row> comparison, List<List<TwinComparison.Row>> twinComparisons) {
        final StringBuilder json = new StringBuilder("{\"system\": \"nakcast\"")
            .append(", \"codec\": \"").append(base.codec()).append('"')
            .append(", \"seconds\": ").append(base.seconds())
            .append(", \"warmup\": ").append(base.warmupSeconds())
            .append(", \"size\": ").append(base.messageLength())
            .append(", \"datagramSize\": ").append(base.datagramSize().bytes())
            .append(", \"seed\": ").append(base.seed())
            .append(", \"cores\": ").append(Runtime.getRuntime().availableProcessors())
            .append(", \"collector\": \"").append(ChildJvm.collector()).append('"');
        if (codecSpeed != null) {
            json.append(", \"codecSpeed\": {\"encodePerSecond\": ")
                .append(Figures.format(codecSpeed.doubleValue("encodePerSecond")))
                .append(", \"decodePerSecond\": ").append(Figures.format(codecSpeed.doubleValue("decodePerSecond")))
                .append(", \"min\": ").append(Figures.format(codecSpeed.doubleValue("min"))).append('}');
        }
        json.append(", \"runs\": [");
        for (int i = 0; i < results.size(); i++) {
            json.append(i == 0 ? "" : ", ").append(results.get(i).toJson());
        }
        json.append(']');
        if (!comparison.isEmpty()) {
            json.append(", \"comparison\": [");
            for (int i = 0; i < comparison.size(); i++) {
                json.append(i == 0 ? "" : ", ").append(comparison.get(i).toJson());
            }
            json.append(']');
        }
        for (List<TwinComparison.Row> rows : twinComparisons) {
            if (rows.isEmpty()) {
                continue;
            }
            json.append(", \"").append(rows.get(0).addition().jsonKey()).append("\": [");
            for (int i = 0; i < rows.size(); i++) {
                json.append(i == 0 ? "" : ", ").append(rows.get(i).toJson());
            }
            json.append(']');
        }
        return json.append('}').toString();
    }
}
