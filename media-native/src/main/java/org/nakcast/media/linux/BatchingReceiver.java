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
 * the socket hears. Each datagram has a slot of {@value #SLOT_BYTES} bytes, more than any IPv4 UDP
 * datagram carries (65,507), so none is ever cut short.
 *
 * <p><b>A quiet socket</b> (the last {@code recvmmsg} found at most one datagram, or the last
 * single call none) is asked for one datagram instead: {@code recvmmsg} costs the kernel more per
 * call, and looks for a second datagram after the first, which a quiet socket rarely has. The one
 * is asked for with {@code recvfrom} (into the first slot, its sender into the first name) while
 * UDP GRO is off: it reads no msghdr or iovec from the caller, and a spinning poller's empty calls
 * and a round trip's one datagram are cheapest that way; once GRO is on, with {@code recvmsg},
 * whose control message tells a train. A single call that finds one makes the next call a
 * {@code recvmmsg} again, so a stream that picks up is taken in batches from its second call on.
 * That next call waits for the caller's next poll: once a quiet socket's datagram (or train) is
 * handed out, {@link #receive()} answers 0 without asking the kernel, so the caller goes on with
 * what the datagram asked for (a round trip's answer is sent) before a call that would most likely
 * find nothing. A round trip saves that empty call on its path (about 5% of it on lo, the module's
 * README says how measured); on a control socket, what follows the first datagram of a burst waits
 * for the agent's next control poll.
 *
 * <p><b>UDP GRO, once the socket is busy.</b> A socket that finds a full batch waiting (a call took
 * {@value #BATCH} datagrams) asks the kernel to coalesce from then on (UDP_GRO): datagrams of one
 * sender of one length in a row (and one shorter after them) may then come as one train in one
 * slot, with a UDP_GRO control message giving the length of each. {@link #receive()} hands out each
 * datagram of a train in turn, as it would have come alone, with the train's sender; a train is
 * never longer than a slot, as the kernel coalesces no more than one UDP datagram may carry. Until
 * then every datagram comes alone (the kernel cuts a GSO sender's trains for a socket without
 * GRO): UDP_GRO costs a quiet socket's round trip about 0.4 us on lo, where the datagrams it would
 * coalesce are not there to save on. It is never turned off again: the kernel tells a train from a
 * datagram only while GRO is on, so a train queued just before GRO went off would read as one
 * datagram; turning it on is safe, as what waits then came as single datagrams. Any sender, with
 * GSO or without, reaches the socket the same way; without GRO from the kernel (refused, or a path
 * that does not coalesce) every datagram simply comes alone.
 *
 * <pre>
 *   slot     [ 1376 | 1376 | 1376 | 900 ]   msg_len 5028, UDP_GRO 1376
 *   receive()  -> 1376, 1376, 1376, 900, then the next slot
 * </pre>
 */
final class BatchingReceiver implements DatagramReceiver {
    /** Datagrams (or trains of them) per system call at most. */
    static final int BATCH = 16;
    static final int SLOT_BYTES = 65_536;

    private final UdpSocket socket;
    private final MemorySegment vector;
    private final long slotsAddress;
    private final MemorySegment names;
    private final MemorySegment controls;
    /** What a quiet socket's {@code recvfrom} fills: the first slot and name, the first entry's name length. */
    private final MemorySegment firstSlot;
    private final MemorySegment firstName;
    private final MemorySegment firstNameLength;
    /** Whether the kernel coalesces for this socket (UDP_GRO on): from the first full batch. */
    private boolean gro;
    /** Whether UDP_GRO was asked for (once, at the call after the first full batch). */
    private boolean groAsked;
    private final UnsafeBuffer buffer = new UnsafeBuffer(0, 0);
    private final DatagramSource source = new DatagramSource();
    private final AtomicCounter datagramsReceived;
    private final AtomicCounter bytesReceived;
    private final AtomicCounter trainsReceived;
    private final AtomicCounter errors;
    private int batched;
    private int next;
    /** Whether the next call to the kernel asks for one datagram (not {@code recvmmsg}): the socket looked quiet. */
    private boolean quiet = true;
    /** Whether the slot being handed out came from a quiet socket's single call: once it is used up, the poll ends. */
    private boolean endsPoll;
    /** The slot being handed out: its address, its bytes, how long each of its datagrams is, how far it is read. */
    private long slotAddress;
    private int slotLength;
    private int segmentLength;
    private int slotOffset;

    BatchingReceiver(MulticastAddress address, int port, SystemCounters counters) {
        this.datagramsReceived = counters.get(SystemCounter.DATAGRAMS_RECEIVED);
        this.bytesReceived = counters.get(SystemCounter.BYTES_RECEIVED);
        this.trainsReceived = counters.get(SystemCounter.GRO_TRAINS_RECEIVED);
        this.errors = counters.get(SystemCounter.ERRORS);
        this.socket = UdpSocket.listening(address, port);
        final MemorySegment slots = socket.allocate((long) SLOT_BYTES * BATCH, 64);
        this.slotsAddress = slots.address();
        this.vector = socket.messageVector(slots, BATCH, SLOT_BYTES);
        this.names = socket.allocate((long) UdpSocket.SOCKADDR_IN_BYTES * BATCH, 8);
        this.controls = socket.allocate((long) UdpSocket.CMSG_SPACE_8 * BATCH, 8);
        UdpSocket.nameSlots(vector, names, BATCH);
        this.firstSlot = slots.asSlice(0, SLOT_BYTES);
        this.firstName = names.asSlice(0, UdpSocket.SOCKADDR_IN_BYTES);
        this.firstNameLength = vector.asSlice(UdpSocket.MSG_NAMELEN, Integer.BYTES);
        for (int i = 0; i < BATCH; i++) {
            vector.set(ValueLayout.JAVA_LONG, (long) UdpSocket.MMSGHDR_BYTES * i + UdpSocket.MSG_CONTROL,
                controls.address() + (long) UdpSocket.CMSG_SPACE_8 * i);
        }
    }

    @Override
    public int receive() {
        if (slotOffset >= slotLength) {
            if (next == batched) {
                if (endsPoll) {
                    endsPoll = false;
                    return 0;
                }
                final int received = receiveBatch();
                if (received <= 0) {
                    return received;
                }
            }
            openSlot(next++);
        }
        final int length = Math.min(segmentLength, slotLength - slotOffset);
        buffer.wrap(slotAddress + slotOffset, length);
        slotOffset += Math.max(length, 1);
        datagramsReceived.increment();
        bytesReceived.getAndAdd(length);
        return length;
    }

    /**
     * {@code recvfrom} of one datagram into the first entry, as {@code recvmsg} would fill it: its
     * slot, its sender's name and its length in msg_len.
     *
     * @return 1 if a datagram came; 0 if none was waiting; -1 on another error
     */
    private int receiveAlone() {
        final long received = socket.receiveOne(firstSlot, firstName, firstNameLength);
        if (received < 0) {
            return received == UdpSocket.NOTHING_WAITING ? 0 : -1;
        }
        vector.set(ValueLayout.JAVA_INT, UdpSocket.MSG_LEN, (int) received);
        return 1;
    }

    /**
     * One call to the kernel, {@code recvfrom} or {@code recvmsg} on a quiet socket, {@code recvmmsg} otherwise: the
     * number of slots filled, 0 if nothing waited, -1 (counted) on an error.
     */
    private int receiveBatch() {
        if (socket.isClosed()) {
            errors.increment();
            return -1;
        }
        if (batched == BATCH && !groAsked) {
            groAsked = true;
            turnGroOn();
        }
        UdpSocket.resetNames(vector, batched);
        if (gro) {
            resetControls(batched);
        }
        final int received;
        if (quiet) {
            received = gro ? socket.receiveMessage(vector) : receiveAlone();
            quiet = received <= 0;
            endsPoll = received > 0;
        } else {
            received = socket.receiveBatch(vector, BATCH);
            quiet = received <= 1;
        }
        next = 0;
        batched = Math.max(received, 0);
        if (received < 0) {
            errors.increment();
        }
        return received;
    }

    /** Asks the kernel for UDP_GRO, with room for its control message in every entry; refused, nothing changes. */
    private void turnGroOn() {
        if (socket.trySetInt(Libc.SOL_UDP, Libc.UDP_GRO, 1)) {
            resetControls(BATCH);
            gro = true;
        }
    }

    /**
     * Gives the first {@code count} entries (those the last call filled) back the room of their
     * control message: the kernel writes the length it used, and a train without room for its
     * UDP_GRO message would read as one datagram.
     */
    private void resetControls(int count) {
        for (int i = 0; i < count; i++) {
            vector.set(ValueLayout.JAVA_LONG, (long) UdpSocket.MMSGHDR_BYTES * i + UdpSocket.MSG_CONTROLLEN,
                UdpSocket.CMSG_SPACE_8);
        }
    }

    /** Makes {@code slot} the one handed out: its sender, its length, and its datagrams' if it is a train. */
    private void openSlot(int slot) {
        final long entry = (long) UdpSocket.MMSGHDR_BYTES * slot;
        slotAddress = slotsAddress + (long) SLOT_BYTES * slot;
        slotLength = vector.get(ValueLayout.JAVA_INT, entry + UdpSocket.MSG_LEN);
        slotOffset = 0;
        final int trainSegment = gro ? UdpSocket.groSegmentSize(controls, (long) UdpSocket.CMSG_SPACE_8 * slot,
            vector.get(ValueLayout.JAVA_LONG, entry + UdpSocket.MSG_CONTROLLEN)) : 0;
        if (trainSegment > 0 && trainSegment < slotLength) {
            segmentLength = trainSegment;
            trainsReceived.increment();
        } else {
            segmentLength = slotLength;
        }
        UdpSocket.readName(names, (long) UdpSocket.SOCKADDR_IN_BYTES * slot, source);
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
