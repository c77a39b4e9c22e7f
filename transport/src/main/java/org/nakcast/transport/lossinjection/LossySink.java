package org.nakcast.transport.lossinjection;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.status.AtomicCounter;
import org.nakcast.transport.media.DatagramSink;

/**
 * A sink that loses what its {@link LossGenerator} picks, as if the network had: the sender
 * believes the datagram went out.
 */
public final class LossySink implements DatagramSink {
    private final DatagramSink delegate;
    private final LossGenerator lossGenerator;
    private final AtomicCounter dropped;

    /**
     * @param delegate where surviving datagrams go
     * @param lossGenerator picks the datagrams to lose
     * @param dropped counts them
     */
    public LossySink(DatagramSink delegate, LossGenerator lossGenerator, AtomicCounter dropped) {
        this.delegate = delegate;
        this.lossGenerator = lossGenerator;
        this.dropped = dropped;
    }

    @Override
    public boolean send(DirectBuffer buffer, int offset, int length) {
        if (lossGenerator.shouldDrop(buffer, offset, length)) {
            dropped.increment();
            return true;
        }
        return delegate.send(buffer, offset, length);
    }
}
