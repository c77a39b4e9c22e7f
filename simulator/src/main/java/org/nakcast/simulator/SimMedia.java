package org.nakcast.simulator;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.nakcast.transport.media.DatagramReceiver;
import org.nakcast.transport.media.DatagramSource;
import org.nakcast.transport.media.DatagramSender;
import org.nakcast.transport.media.Media;
import org.nakcast.transport.media.MulticastAddress;
import org.nakcast.transport.protocol.FrameType;
import org.nakcast.transport.status.SystemCounter;
import org.nakcast.transport.status.SystemCounters;

/**
 * The media a simulated node runs on: its sockets are {@link SimSocket}s of its host on the
 * simulated segments, one segment per line, the line told by the transport's group. A receiver
 * hands over one queued datagram per {@code receive()}; a sender holds up to {@value #BATCH}
 * datagrams and puts them on the segment at the agent's end-of-cycle {@code flush()} (or when it
 * holds a full batch), as a media that batches system calls does, so a flush the node forgets is a
 * datagram that never leaves. A send is refused, and counted as a failed send, while its line's
 * faults refuse sends.
 */
final class SimMedia implements Media {
    /** The most datagrams a sender holds before it sends them: what the native media's sendmmsg takes. */
    static final int BATCH = 32;

    private final NodeHost host;
    private final List<InetAddress> lineGroups;

    /**
     * @param host the process whose sockets these are
     * @param lineGroups the multicast group of each line, line A first
     */
    SimMedia(NodeHost host, List<InetAddress> lineGroups) {
        this.host = host;
        this.lineGroups = lineGroups;
    }

    @Override
    public String name() {
        return "sim";
    }

    @Override
    public String unavailableBecause() {
        return null;
    }

    @Override
    public DatagramReceiver openReceiver(MulticastAddress address, int port, SystemCounters counters) {
        return new Receiver(host.openSocket(line(address), port(address, port)),
            address.authKeys() == null ? null : new SocketNonces());
    }

    @Override
    public DatagramSender openSender(MulticastAddress address, int port, SystemCounters counters) {
        return new Sender(line(address), port(address, port), counters,
            address.authKeys() == null ? 0 : TrailerLayout.LENGTH);
    }

    private int line(MulticastAddress address) {
        final int line = lineGroups.indexOf(address.group());
        if (line < 0) {
            throw new IllegalArgumentException("no simulated line has the group " + address.group());
        }
        return line;
    }

    private static FrameType.Port port(MulticastAddress address, int port) {
        return port == address.dataPort() ? FrameType.Port.DATA : FrameType.Port.CONTROL;
    }

    /**
     * A socket's queue, read one datagram at a time, each from the address of the host it came from
     * ({@link SimHost#sourceOf}); what the host withholds is passed over ({@link NodeHost#reads}). On
     * an authenticated line the datagrams go on as they arrived, trailer and all, to the node's
     * checks; the host works out what they take ({@link SocketNonces}).
     */
    private final class Receiver implements DatagramReceiver {
        private final SimSocket socket;
        private final SocketNonces nonces;
        private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[0]);
        private final DatagramSource source = new DatagramSource();

        /** @param nonces what the socket took, on an authenticated line; null on another */
        Receiver(SimSocket socket, SocketNonces nonces) {
            this.socket = socket;
            this.nonces = nonces;
        }

        @Override
        public int receive() {
            SimSocket.Arrival arrival;
            do {
                arrival = socket.poll();
                if (arrival == null) {
                    return 0;
                }
            } while (!host.reads(socket.line, socket.port, arrival));
            final byte[] datagram = arrival.datagram();
            buffer.wrap(datagram);
            SimHost.sourceOf(arrival.source(), socket.line, source);
            host.handingOver(socket.line, socket.port, buffer, datagram.length, nonces);
            return datagram.length;
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
        public void close() {
            host.closeSocket(socket);
        }
    }

    /**
     * Holds what it is given until flushed, then puts it on the line's segment. On an authenticated
     * line it is given each datagram signed; the host is shown its protocol bytes, the segment all.
     */
    private final class Sender implements DatagramSender {
        private final int line;
        private final FrameType.Port port;
        private final SystemCounters counters;
        /** The bytes of a trailer after the protocol's: none on a line that is not authenticated. */
        private final int trailer;
        private final List<byte[]> held = new ArrayList<>(BATCH);
        private final UnsafeBuffer view = new UnsafeBuffer(new byte[0]);

        Sender(int line, FrameType.Port port, SystemCounters counters, int trailer) {
            this.line = line;
            this.port = port;
            this.counters = counters;
            this.trailer = trailer;
        }

        @Override
        public boolean send(DirectBuffer buffer, int offset, int length) {
            if (host.refusesSend(line)) {
                counters.get(SystemCounter.SEND_FAILURES).increment();
                return false;
            }
            host.handedToMedia(port, buffer, offset, length - trailer);
            final byte[] copy = new byte[length];
            buffer.getBytes(offset, copy);
            held.add(copy);
            if (held.size() == BATCH) {
                flush();
            }
            return true;
        }

        @Override
        public void flush() {
            for (int i = 0; i < held.size(); i++) {
                final byte[] datagram = held.get(i);
                view.wrap(datagram);
                host.sending(line, port, view, datagram.length - trailer);
                host.transmit(line, port, view, 0, datagram.length);
            }
            held.clear();
        }

        @Override
        public void close() {
            held.clear();
        }
    }
}
