package org.nakcast.transport.publish;

import org.nakcast.transport.media.DatagramSource;
import org.nakcast.transport.media.MulticastAddress;

/**
 * How far ahead of its receivers a publisher stream may send: the topic's {@code flow-control}.
 * Called on the sending thread; implementations do not allocate in steady state.
 */
interface FlowControl {
    /** Flow control {@code max}: the publisher keeps its own pace. */
    FlowControl MAX = new FlowControl() {
        @Override
        public void onStatus(MulticastAddress on, DatagramSource source, int receiverId, long nextNeeded,
            long sentUpTo, long nowNs) {
        }

        @Override
        public long sendLimit(long sentUpTo, long nowNs) {
            return Long.MAX_VALUE;
        }

        @Override
        public boolean hasReceivers() {
            return true;
        }

        @Override
        public boolean receiversHave(long sequence) {
            return false;
        }

        @Override
        public long statusWantedEvery() {
            return 0;
        }
    };

    /**
     * A receiver reported that it needs {@code nextNeeded} next: everything below is delivered.
     *
     * @param on the line's address the STATUS was heard on
     * @param source where it came from
     * @param nextNeeded the STATUS's position, never negative (the validator refuses that)
     * @param sentUpTo every datagram below this has been sent: no receiver can have consumed more
     */
    void onStatus(MulticastAddress on, DatagramSource source, int receiverId, long nextNeeded, long sentUpTo,
        long nowNs);

    /**
     * The first sequence that may not be sent yet.
     *
     * @param sentUpTo every datagram below this has been sent
     */
    long sendLimit(long sentUpTo, long nowNs);

    /** Whether what is sent has someone to go to, as far as this flow control knows. */
    boolean hasReceivers();

    /**
     * Whether every live receiver is known to have consumed everything below {@code sequence}; false
     * when this flow control does not know its receivers.
     */
    boolean receiversHave(long sequence);

    /**
     * Every how many datagrams a DATA asks its receivers for a STATUS once they have passed it
     * ({@code STATUS_WANTED}, on sequences that are multiples of this); 0 for never, where no
     * receiver reports.
     */
    long statusWantedEvery();
}
