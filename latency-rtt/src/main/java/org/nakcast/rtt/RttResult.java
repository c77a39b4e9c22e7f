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
 */
record RttResult(String link, Histogram histogram, long roundTrips, long collections, Path hlog) {
    /** A percentile in microseconds. */
    double micros(double percentile) {
        return histogram.getValueAtPercentile(percentile) / 1000.0;
    }

    /** The largest round trip in microseconds. */
    double maxMicros() {
        return histogram.getMaxValue() / 1000.0;
    }
}
