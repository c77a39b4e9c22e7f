package org.nakcast.rtt;

import org.agrona.DirectBuffer;

/**
 * The ping side's receiver: waits for the echo of one sequence and notes when it came and the send
 * time it carries; echoes of any other sequence (late probes, a repeated end) are ignored.
 */
final class EchoWatch implements RttLink.Receiver {
    private long awaited;
    private boolean echoed;
    private long sendTimeNs;
    private long receivedNs;

    /** From now on, waits for the echo of {@code sequence}. */
    void await(long sequence) {
        awaited = sequence;
        echoed = false;
    }

    @Override
    public void onMessage(DirectBuffer buffer, int offset, int length) {
        if (!echoed && length >= PingMessage.LENGTH && PingMessage.sequence(buffer, offset) == awaited) {
            receivedNs = System.nanoTime();
            sendTimeNs = PingMessage.sendTimeNs(buffer, offset);
            echoed = true;
        }
    }

    /** Whether the awaited echo came. */
    boolean echoed() {
        return echoed;
    }

    /** The round trip of the awaited echo: when it came less the send time it carries. */
    long roundTripNs() {
        return receivedNs - sendTimeNs;
    }

    /** When the awaited echo came ({@link System#nanoTime()}). */
    long receivedNs() {
        return receivedNs;
    }
}
