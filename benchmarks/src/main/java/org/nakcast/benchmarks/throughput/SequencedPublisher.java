package org.nakcast.benchmarks.throughput;

/**
 * Offers the message numbered {@code sequence} of a throughput run, carried as its
 * {@link Payload} says: the number in the first eight bytes of raw bytes, or in the instrument id
 * of a {@code PriceUpdate} encoded with the topic's codec; a peer carries raw bytes and answers
 * with the same codes. Allocates nothing itself (an object codec may allocate while it encodes).
 */
public interface SequencedPublisher {
    /**
     * Offers one message; offering the same number again after a refusal offers it again.
     *
     * @return a code of {@link org.nakcast.transport.RawPublication#offer}
     */
    long offer(long sequence);
}
