package org.nakcast.rtt;

import java.nio.file.Path;

import org.HdrHistogram.Histogram;

/**
 * What one path measured.
 *
 * @param path the path measured: nakcast in one of its variants, the {@code raw-udp} baseline or a peer
 * @param histogram every round trip, in nanoseconds (with the coordinated-omission fill at a fixed rate)
 * @param roundTrips round trips done while measuring, over every turn
 * @param collections garbage collections while measuring, over every turn
 * @param hlog the interval log written
 * @param naksSent NAKs sent over the path's turns, warm-ups included: by the ping side, and in {@code local}
 *     by the pong side too; {@link RttLink#NOT_COUNTED} for a path that does not count them
 */
record RttResult(RttPath path, Histogram histogram, long roundTrips, long collections, Path hlog, long naksSent) {
    /** This result with {@code more} NAKs, sent by the other side; unchanged if either is not counted. */
    RttResult plusNaks(long more) {
        return naksSent == RttLink.NOT_COUNTED || more == RttLink.NOT_COUNTED ? this
            : new RttResult(path, histogram, roundTrips, collections, hlog, naksSent + more);
    }

    /** Two counts of NAKs added up; {@link RttLink#NOT_COUNTED} if either is. */
    static long sumOfNaks(long naks, long more) {
        return naks == RttLink.NOT_COUNTED || more == RttLink.NOT_COUNTED ? RttLink.NOT_COUNTED : naks + more;
    }

    /** The path's label: its row in the table, its files' names. */
    String link() {
        return path.label();
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
