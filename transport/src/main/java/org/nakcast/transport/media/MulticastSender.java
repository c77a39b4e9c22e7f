package org.nakcast.transport.media;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;

import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.status.AtomicCounter;
import org.nakcast.transport.TransportException;
import org.nakcast.transport.status.SystemCounter;
import org.nakcast.transport.status.SystemCounters;

/**
 * The {@code nio} media's sending socket: a non-blocking {@code DatagramChannel} that sends each
 * datagram in its own system call to one multicast group and port, out of one explicit interface
 * (IP_MULTICAST_IF), with the transport's TTL and with loopback on so that processes on the same
 * host hear each other. The buffers given to {@link #send} must wrap a {@link ByteBuffer}
 * (every nakcast send buffer does), so the kernel reads the bytes in place.
 */
public final class MulticastSender implements DatagramSender {
    private final DatagramChannel channel;
    private final AtomicCounter datagramsSent;
    private final AtomicCounter bytesSent;
    private final AtomicCounter sendFailures;

    /**
     * Opens and connects to {@code group:port}.
     *
     * @throws TransportException naming the group, port and interface if that fails
     */
    public MulticastSender(MulticastAddress address, int port, SystemCounters counters) {
        this.datagramsSent = counters.get(SystemCounter.DATAGRAMS_SENT);
        this.bytesSent = counters.get(SystemCounter.BYTES_SENT);
        this.sendFailures = counters.get(SystemCounter.SEND_FAILURES);
        DatagramChannel opened = null;
        try {
            opened = DatagramChannel.open(address.family());
            opened.setOption(StandardSocketOptions.IP_MULTICAST_IF, address.networkInterface());
            opened.setOption(StandardSocketOptions.IP_MULTICAST_TTL, address.ttl());
            opened.setOption(StandardSocketOptions.IP_MULTICAST_LOOP, true);
            opened.setOption(StandardSocketOptions.SO_SNDBUF, address.sendBufferBytes());
            opened.connect(new InetSocketAddress(address.group(), port));
            opened.configureBlocking(false);
            this.channel = opened;
        } catch (IOException | RuntimeException ex) {
            CloseHelper.quietClose(opened);
            throw new TransportException("cannot send to " + address.describe(port) + ": " + ex.getMessage(), ex);
        }
    }

    @Override
    public boolean send(DirectBuffer buffer, int offset, int length) {
        final ByteBuffer byteBuffer = buffer.byteBuffer();
        final int start = buffer.wrapAdjustment() + offset;
        byteBuffer.limit(start + length).position(start);
        try {
            if (channel.write(byteBuffer) == length) {
                datagramsSent.increment();
                bytesSent.getAndAdd(length);
                return true;
            }
        } catch (IOException ex) {
            sendFailures.increment();
            return false;
        }
        sendFailures.increment();
        return false;
    }

    /** Nothing is held: each datagram went to the kernel in its own {@link #send}. */
    @Override
    public void flush() {
    }

    @Override
    public void close() {
        CloseHelper.quietClose(channel);
    }
}
