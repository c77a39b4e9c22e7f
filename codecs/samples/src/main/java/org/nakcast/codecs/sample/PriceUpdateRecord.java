package org.nakcast.codecs.sample;

import java.io.Serializable;

/**
 * {@link PriceUpdate} as a record: records work wherever classes do.
 *
 * @param instrument what is priced
 * @param qty        the quantity
 * @param price      the price
 */
public record PriceUpdateRecord(InstrumentRecord instrument, int qty, double price) implements Serializable {
}
