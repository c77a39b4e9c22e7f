package org.nakcast.media.linux;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;
import org.nakcast.transport.media.DatagramReceiver;
import org.nakcast.transport.media.DatagramSource;
import org.nakcast.transport.media.MulticastAddress;
import org.nakcast.transport.status.SystemCounter;
import org.nakcast.transport.status.SystemCounters;

/**
 * The native media's receiving socket: one {@code recvmmsg} takes up to {@value #BATCH} waiting
 * datagrams, which {@link #receive()} then hands out one by one; the next call to the kernel comes
 * when they are used up. The kernel writes each sender's address into a sockaddr_in of the batch,
 * read from there into the {@link DatagramSource}: nothing is allocated whatever number of senders
 * the socket hears. Each datagram has a slot of {@value #SLOT_BYTES}
 * bytes, more than any IPv4 UDP datagram carries (65,507), so none is ever cut short.
 */
final class BatchingReceiver implements DatagramReceiver {
    /** Datagrams per system call at most. */
    static final int BATCH = 16;
    static final int SLOT_BYTES = 65_536;

    private final UdpSocket socket;
    private final MemorySegment vector;
    private final long slotsAddress;
    private final MemorySegment names;
    private final UnsafeBuffer buffer = new UnsafeBuffer(0, 0);
    private final DatagramSource source = new DatagramSource();
    private final AtomicCounter datagramsReceived;
    private final AtomicCounter bytesReceived;
    private final AtomicCounter errors;
    private int batched;
    private int next;

    BatchingReceiver(MulticastAddress address, int port, SystemCounters counters) {
        this.datagramsReceived = counters.get(SystemCounter.DATAGRAMS_RECEIVED);
        this.bytesReceived = counters.get(SystemCounter.BYTES_RECEIVED);
        this.errors = counters.get(SystemCounter.ERRORS);
        this.socket = UdpSocket.listening(address, port);
        final MemorySegment slots = socket.arena().allocate((long) SLOT_BYTES * BATCH, 64);
        this.slotsAddress = slots.address();
        this.vector = socket.messageVector(slots, BATCH, SLOT_BYTES);
        this.names = socket.arena().allocate((long) UdpSocket.SOCKADDR_IN_BYTES * BATCH, 8);
        UdpSocket.nameSlots(vector, names, BATCH);
    }

    @Override
    public int receive() {
        if (next == batched) {
            UdpSocket.resetNames(vector, batched);
            final int received = socket.receiveBatch(vector, BATCH);
            next = 0;
            batched = Math.max(received, 0);
            if (received <= 0) {
                if (received < 0) {
                    errors.increment();
                }
                return received;
            }
        }
        final int slot = next++;
        final int length = vector.get(ValueLayout.JAVA_INT, (long) UdpSocket.MMSGHDR_BYTES * slot + UdpSocket.MSG_LEN);
        buffer.wrap(slotsAddress + (long) SLOT_BYTES * slot, length);
        UdpSocket.readName(names, (long) UdpSocket.SOCKADDR_IN_BYTES * slot, source);
        datagramsReceived.increment();
        bytesReceived.getAndAdd(length);
        return length;
    }

    @Override
    public DatagramSource source() {
        return source;
    }

    @Override
    public UnsafeBuffer buffer() {
        return buffer;
    }

    @Override
    public void close() {
        socket.close();
    }
}
