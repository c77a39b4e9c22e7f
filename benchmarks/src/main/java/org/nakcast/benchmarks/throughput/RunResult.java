package org.nakcast.benchmarks.throughput;

import java.util.Map;
import org.nakcast.benchmarks.child.Figures;

/**
 * What one run measured: the publisher's and the subscriber's figures, or why the run failed.
 *
 * @param settings the run
 * @param publisher the publisher's figures (empty if the run failed)
 * @param subscriber the subscriber's figures (empty if the run failed)
 * @param kernelDrops datagrams the kernel dropped for a full socket receive buffer during the run
 *     ({@link KernelUdpDrops}), or {@link KernelUdpDrops#UNKNOWN}
 * @param lossDropped datagrams the kernel loss rules dropped during the run ({@link RunSettings#kernelLoss()})
 * @param strangerNaksSent forged NAKs the run's stranger sent ({@link StrangerNaks}); 0 without one
 * @param loadBefore the host's one-minute load average when the run started ({@link HostLoad})
 * @param failure why the run failed, or null
 * @param recorder the recorder's figures ({@link RecorderMain}); null without a recorder, or if the run failed
 */
record RunResult(RunSettings settings, Figures publisher, Figures subscriber, long kernelDrops, long lossDropped,
    long strangerNaksSent, double loadBefore, String failure, Figures recorder) {

    static RunResult of(RunSettings settings, Figures publisher, Figures subscriber, long kernelDrops,
        long lossDropped, long strangerNaksSent, double loadBefore, Figures recorder) {
        return new RunResult(settings, publisher, subscriber, kernelDrops, lossDropped, strangerNaksSent, loadBefore,
            null, recorder);
    }

    static RunResult failed(RunSettings settings, double loadBefore, String failure) {
        return new RunResult(settings, new Figures(), new Figures(), KernelUdpDrops.UNKNOWN, 0, 0, loadBefore,
            failure == null ? "unknown failure" : failure, null);
    }

    boolean isFailed() {
        return failure != null;
    }

    /**
     * Messages offered that were neither delivered nor reported lost: silent loss, never acceptable
     * from nakcast. A peer reports no loss, so for a peer this is every message it did not deliver.
     */
    long unaccounted() {
        return publisher.longValue("offered") - subscriber.longValue("delivered") - subscriber.longValue("lost");
    }

    /**
     * Offered messages the run's recorder neither recorded nor recorded as a hole: gone from the
     * recording without a word; 0 without a recorder.
     */
    long unrecorded() {
        return recorder == null ? 0
            : publisher.longValue("offered") - recorder.longValue("recordedMessages")
                - recorder.longValue("holeMessages");
    }

    /**
     * Whether nakcast broke its contract: a sequence error, a message gone without a loss event, or
     * one its recorder neither recorded nor recorded as a hole. A peer keeps no such contract: what
     * it loses is a result.
     */
    boolean brokeContract() {
        return !isFailed() && settings.system() == Contender.NAKCAST
            && (subscriber.longValue("sequenceErrors") != 0 || unaccounted() != 0 || unrecorded() != 0);
    }

    /** The run as one JSON object: the headline figures, then each side's figures in full. */
    String toJson() {
        final StringBuilder json = new StringBuilder("{");
        json.append("\"system\": \"").append(settings.system().label()).append('"')
            .append(", \"rate\": ").append(settings.sendRate().bytes())
            .append(", \"rateText\": \"").append(settings.rateText()).append('"')
            .append(", \"flowControl\": \"").append(ThroughputTable.flowControl(settings)).append('"')
            .append(", \"lines\": ").append(settings.lines())
            .append(", \"media\": \"").append(ThroughputTable.media(settings)).append('"')
            .append(", \"loss\": ").append(Figures.format(settings.loss()))
            .append(", \"injectedLoss\": ").append(Figures.format(settings.injectedLoss()))
            .append(", \"loadBefore\": ").append(Double.isNaN(loadBefore) ? "null" : Figures.format(loadBefore));
        if (isFailed()) {
            json.append(", \"failure\": \"").append(escape(failure)).append("\"}");
            return json.toString();
        }
        json.append(", \"deliveredPerSecond\": ").append(Figures.format(subscriber.doubleValue("deliveredPerSecond")))
            .append(", \"delivered\": ").append(subscriber.longValue("delivered"))
            .append(", \"lost\": ").append(subscriber.longValue("lost"))
            .append(", \"sequenceErrors\": ").append(subscriber.longValue("sequenceErrors"))
            .append(", \"unaccounted\": ").append(unaccounted())
            .append(", \"kernelDrops\": ").append(kernelDrops)
            .append(", \"lossDropped\": ").append(lossDropped)
            .append(", \"strangerNaks\": ").append(settings.strangerNaks().isZero() ? "null"
                : "\"" + settings.strangerText() + "\"")
            .append(", \"strangerNaksSent\": ").append(strangerNaksSent)
            .append(", \"publisher\": ");
        appendObject(json, publisher.asMap());
        json.append(", \"subscriber\": ");
        appendObject(json, subscriber.asMap());
        if (recorder != null) {
            json.append(", \"unrecorded\": ").append(unrecorded()).append(", \"recorder\": ");
            appendObject(json, recorder.asMap());
        }
        return json.append('}').toString();
    }

    private static void appendObject(StringBuilder json, Map<String, Number> figures) {
        json.append('{');
        boolean first = true;
        for (Map.Entry<String, Number> figure : figures.entrySet()) {
            json.append(first ? "" : ", ").append('"').append(figure.getKey()).append("\": ");
            final String value = Figures.format(figure.getValue());
            json.append("NaN".equals(value) ? "null" : value);
            first = false;
        }
        json.append('}');
    }

    /** {@code text} as the inside of a JSON string: quotes and backslashes escaped, control characters blanked. */
    static String escape(String text) {
        final StringBuilder escaped = new StringBuilder();
        for (char c : text.toCharArray()) {
            if (c == '"' || c == '\\') {
                escaped.append('\\').append(c);
            } else if (c < 0x20) {
                escaped.append(' ');
            } else {
                escaped.append(c);
            }
        }
        return escaped.toString();
    }
}
