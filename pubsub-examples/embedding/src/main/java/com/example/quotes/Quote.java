package com.example.quotes;

/**
 * A quote as an object: what the flyweight codec is bound to ({@link QuoteBinding}), and what its
 * object path carries. The publisher and subscriber of {@link QuoteService} never make one: they
 * write and read the flyweights in place.
 *
 * @param sequence     the publisher's count, from 0
 * @param instrumentId what is quoted
 * @param bidTicks     the bid, in ticks
 * @param askTicks     the ask, in ticks
 */
public record Quote(long sequence, int instrumentId, long bidTicks, long askTicks) {
}
