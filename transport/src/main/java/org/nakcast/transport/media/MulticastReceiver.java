package org.nakcast.transport.media;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;

import org.agrona.CloseHelper;
import org.agrona.concurrent.UnsafeBuffer;
import org.nakcast.transport.TransportException;
import org.nakcast.transport.protocol.HeaderFlyweight;
import org.nakcast.transport.status.SystemCounter;
import org.nakcast.transport.status.SystemCounters;

/**
 * The {@code nio} media's receiving socket: a non-blocking {@code DatagramChannel} that joins a
 * multicast group on one interface and reads datagrams sent to one port, one per system call.
 * Several receivers, in one process or many, may listen on the same group and port: each gets its
 * own copy (SO_REUSEADDR). Bound to the group address, so datagrams for other groups on the same
 * port are not seen. {@code DatagramChannel.receive} decodes the sender's address and
 * keeps only the last one, so a socket that hears several senders in turn allocates an address per
 * datagram (about 120 bytes), and its source is read out of it then (16 or 32 bytes more); one
 * sender heard in a row allocates nothing. The {@code native} media reads the address the kernel
 * writes, and allocates nothing either way.
 */
public final class MulticastReceiver implements DatagramReceiver {
    private final DatagramChannel channel;
    private final ByteBuffer byteBuffer = ByteBuffer.allocateDirect(HeaderFlyweight.MAX_DATAGRAM_LENGTH + 1);
    private final UnsafeBuffer buffer = new UnsafeBuffer(byteBuffer);
    private final DatagramSource source = new DatagramSource();
    /** The address object the channel returned last: the same one again is the same sender. */
    private SocketAddress lastSender;
    private final SystemCounters counters;

    /**
     * Opens, binds and joins.
     *
     * @throws TransportException naming the group, port and interface if that fails
     */
    public MulticastReceiver(MulticastAddress address, int port, SystemCounters counters) {
        this.counters = counters;
        DatagramChannel opened = null;
        try {
            opened = DatagramChannel.open(address.family());
            opened.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            opened.setOption(StandardSocketOptions.SO_RCVBUF, address.receiveBufferBytes());
            opened.bind(new InetSocketAddress(address.group(), port));
            opened.join(address.group(), address.networkInterface());
            opened.configureBlocking(false);
            this.channel = opened;
        } catch (IOException | RuntimeException ex) {
            CloseHelper.quietClose(opened);
            throw new TransportException("cannot listen on " + address.describe(port) + ": " + ex.getMessage()
                + Media.LISTEN_REFUSED_HINT, ex);
        }
    }

    @Override
    public UnsafeBuffer buffer() {
        return buffer;
    }

    @Override
    public DatagramSource source() {
        return source;
    }

    @Override
    public int receive() {
        byteBuffer.clear();
        try {
            final SocketAddress sender = channel.receive(byteBuffer);
            if (sender == null) {
                return 0;
            }
            if (sender != lastSender) {
                lastSender = sender;
                source.set((InetSocketAddress) sender);
            }
        } catch (IOException ex) {
            counters.get(SystemCounter.ERRORS).increment();
            return -1;
        }
        final int length = byteBuffer.position();
        counters.get(SystemCounter.DATAGRAMS_RECEIVED).increment();
        counters.get(SystemCounter.BYTES_RECEIVED).getAndAdd(length);
        return length;
    }

    @Override
    public void close() {
        CloseHelper.quietClose(channel);
    }
}
