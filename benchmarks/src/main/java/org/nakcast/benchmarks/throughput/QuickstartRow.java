package org.nakcast.benchmarks.throughput;

import org.nakcast.benchmarks.child.Figures;

/**
 * One codec's line of the quickstart: its encode and decode rates, and its end-to-end run.
 *
 * @param codec the codec's name
 * @param speed {@code encodePerSecond}, {@code decodePerSecond} and {@code bytes} ({@link CodecSpeedMain});
 *     empty if that measurement failed
 * @param speedFailure why the rates could not be measured, or null
 * @param endToEnd the publisher and subscriber run with this codec
 */
record QuickstartRow(String codec, Figures speed, String speedFailure, RunResult endToEnd) {
    /** Whether a measurement did not complete. */
    boolean isFailed() {
        return speedFailure != null || endToEnd.isFailed();
    }

    /** Whether the run lost messages, broke their order, or lost some without a loss event. */
    boolean lostOrBroken() {
        return !endToEnd.isFailed() && (endToEnd.subscriber().longValue("lost") != 0 || endToEnd.brokeContract());
    }

    /** The lower of the encode and decode rates, NaN if they are unknown. */
    double minRate() {
        return Math.min(speed.doubleValue("encodePerSecond"), speed.doubleValue("decodePerSecond"));
    }
}
