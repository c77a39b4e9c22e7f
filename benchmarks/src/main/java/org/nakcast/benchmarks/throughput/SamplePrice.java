package org.nakcast.benchmarks.throughput;

import org.nakcast.codecs.sample.PriceUpdate;
import org.nakcast.codecs.sample.SampleMessages;

/**
 * The values every {@code PriceUpdate} of a codec run carries besides its number (the seed's
 * sample: "EURUSD", 1,000,000 at 1.0825), and the subscriber's check that a decoded message
 * still has them.
 */
final class SamplePrice {
    /** The sample; its instrument id is replaced by each message's number. */
    static final PriceUpdate VALUES = SampleMessages.samplePriceUpdate();

    private SamplePrice() {
    }

    /** Whether a decoded quantity and price are the sample's. */
    static boolean matches(int qty, double price) {
        return qty == VALUES.qty() && Double.compare(price, VALUES.price()) == 0;
    }
}
