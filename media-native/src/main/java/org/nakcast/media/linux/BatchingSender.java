package org.nakcast.media.linux;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;
import org.nakcast.transport.media.DatagramSender;
import org.nakcast.transport.media.MulticastAddress;
import org.nakcast.transport.status.SystemCounter;
import org.nakcast.transport.status.SystemCounters;

/**
 * The native media's sending socket: {@link #send} copies each datagram into a slot of its own
 * ({@value #SLOT_BYTES} bytes, as large as any IPv4 UDP datagram) and {@link #flush()} hands the
 * held ones to the kernel in one {@code sendmmsg}; a send that fills the last of the
 * {@value #BATCH} slots flushes at once. What the kernel does not take (its socket buffer full)
 * stays held, in order, for the next flush, and while every slot is held a send is refused
 * (false, counted as a failed send), as a full {@code DatagramChannel} refuses one: the caller
 * sends it again later, so no datagram is dropped here.
 */
final class BatchingSender implements DatagramSender {
    /** Datagrams per system call at most. */
    static final int BATCH = 32;
    static final int SLOT_BYTES = 65_536;

    private final UdpSocket socket;
    /** The vector from each slot on: a flush that the kernel cut short goes on from the first not sent. */
    private final MemorySegment[] vectorFrom = new MemorySegment[BATCH];
    private final UnsafeBuffer slots;
    private final UnsafeBuffer iovecs;
    private final AtomicCounter datagramsSent;
    private final AtomicCounter bytesSent;
    private final AtomicCounter sendFailures;
    /** Slots [firstHeld, held) hold datagrams not yet taken by the kernel. */
    private int firstHeld;
    private int held;

    BatchingSender(MulticastAddress address, int port, SystemCounters counters) {
        this.datagramsSent = counters.get(SystemCounter.DATAGRAMS_SENT);
        this.bytesSent = counters.get(SystemCounter.BYTES_SENT);
        this.sendFailures = counters.get(SystemCounter.SEND_FAILURES);
        this.socket = UdpSocket.sendingTo(address, port);
        final MemorySegment slotMemory = socket.arena().allocate((long) SLOT_BYTES * BATCH, 64);
        this.slots = new UnsafeBuffer(slotMemory.address(), SLOT_BYTES * BATCH);
        final MemorySegment vector = socket.messageVector(slotMemory, BATCH, SLOT_BYTES);
        for (int i = 0; i < BATCH; i++) {
            vectorFrom[i] = vector.asSlice((long) UdpSocket.MMSGHDR_BYTES * i);
        }
        final long iovecsAddress = vector.get(ValueLayout.ADDRESS, UdpSocket.MSG_IOV).address();
        this.iovecs = new UnsafeBuffer(iovecsAddress, UdpSocket.IOVEC_BYTES * BATCH);
    }

    @Override
    public boolean send(DirectBuffer buffer, int offset, int length) {
        if (held == BATCH) {
            flush();
            if (held == BATCH) {
                sendFailures.increment();
                return false;
            }
        }
        slots.putBytes(held * SLOT_BYTES, buffer, offset, length);
        iovecs.putLong(held * UdpSocket.IOVEC_BYTES + UdpSocket.IOVEC_LENGTH, length);
        held++;
        if (held == BATCH) {
            flush();
        }
        return true;
    }

    @Override
    public void flush() {
        while (firstHeld < held) {
            final int sent = socket.sendBatch(vectorFrom[firstHeld], held - firstHeld);
            if (sent <= 0) {
                sendFailures.increment();
                return;
            }
            long bytes = 0;
            for (int i = firstHeld; i < firstHeld + sent; i++) {
                bytes += iovecs.getLong(i * UdpSocket.IOVEC_BYTES + UdpSocket.IOVEC_LENGTH);
            }
            firstHeld += sent;
            datagramsSent.getAndAdd(sent);
            bytesSent.getAndAdd(bytes);
        }
        firstHeld = 0;
        held = 0;
    }

    @Override
    public void close() {
        socket.close();
    }
}
