package org.nakcast.codecs.sample;

/**
 * Which way an {@link OrderLeg} trades.
 */
public enum Side {
    /** Buys the instrument. */
    BUY,
    /** Sells the instrument. */
    SELL
}
