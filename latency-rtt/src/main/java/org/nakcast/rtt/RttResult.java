package org.nakcast.rtt;

import java.nio.file.Path;

import org.HdrHistogram.Histogram;

/**
 * What one path measured.
 *
 * @param link {@code nakcast} or {@code raw-udp}
 * @param histogram every round trip, in nanoseconds (with the coordinated-omission fill at a fixed rate)
 * @param roundTrips round trips done while measuring
 * @param collections garbage collections while measuring
 * @param hlog the interval log written
 * @param naksSent NAKs sent over the phase, warm-up included: by the ping side, and in {@code local}
 *     by the pong side too; {@link RttLink#NOT_COUNTED} for a path that does not count them
 */
record RttResult(String link, Histogram histogram, long roundTrips, long collections, Path hlog, long naksSent) {
    /** This result with {@code more} NAKs, sent by the other side; unchanged if either is not counted. */
    RttResult plusNaks(long more) {
        return naksSent == RttLink.NOT_COUNTED || more == RttLink.NOT_COUNTED ? this
            : new RttResult(link, histogram, roundTrips, collections, hlog, naksSent + more);
    }

    /** A percentile in microseconds. */
    double micros(double percentile) {
        return histogram.getValueAtPercentile(percentile) / 1000.0;
    }

    /** The largest round trip in microseconds. */
    double maxMicros() {
        return histogram.getMaxValue() / 1000.0;
    }
}
