package org.nakcast.benchmarks.throughput;

/**
 * Offers the message numbered {@code sequence} of a throughput run, carried as its
 * {@link Payload} says: the number in the first eight bytes of raw bytes, or in the instrument id
 * of a {@code PriceUpdate} encoded with the topic's codec; a peer carries raw bytes and answers
 * the same way (a positive number when taken, a negative {@link org.nakcast.transport.OfferResult}
 * when not). Allocates nothing itself (an object codec may allocate while it encodes).
 */
public interface SequencedPublisher {
    /**
     * Offers one message; offering the same number again after a refusal offers it again.
     *
     * @return &gt; 0 if it was taken, else a negative {@link org.nakcast.transport.OfferResult}
     */
    long offer(long sequence);
}
