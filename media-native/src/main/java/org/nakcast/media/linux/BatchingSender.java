package org.nakcast.media.linux;

import java.lang.foreign.MemorySegment;
import java.net.SocketException;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;
import org.nakcast.transport.media.DatagramSender;
import org.nakcast.transport.media.MulticastAddress;
import org.nakcast.transport.status.SystemCounter;
import org.nakcast.transport.status.SystemCounters;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The native media's sending socket: {@link #send} copies each datagram into a slot of its own
 * ({@value #SLOT_BYTES} bytes, as large as any IPv4 UDP datagram) and {@link #flush()} hands the
 * held ones to the kernel, one call per message: {@code sendmsg} for a UDP GSO train (below) or a
 * datagram among others, {@code sendto} for a datagram that is all a flush holds (the usual case at
 * a low rate, and a round trip's), which costs the kernel about 70 ns less than a {@code sendmsg} of
 * it (thread time on lo). A flush at full rate is one train or a few, so one call per message costs
 * about what one {@code sendmmsg} for the flush would. A send that fills the
 * last of the {@value #BATCH} slots flushes at once. What the kernel does not take (its socket
 * buffer full) stays held, in order, for the next flush, and while every slot is held a send is
 * refused (false, counted as a failed send), as a full {@code DatagramChannel} refuses one: the
 * caller sends it again later, so no datagram is dropped here. Once closed, a send is refused and
 * counted the same way, and a flush sends nothing.
 *
 * <p><b>UDP GSO.</b> Held datagrams of one length in a row, and one shorter one after them, go as
 * one message with a {@code UDP_SEGMENT} control message: the kernel passes the train through its
 * stack once and cuts it into those datagrams, each with its own UDP header, at the device (or in
 * software where the device cannot). What reaches the wire is the same datagrams as without it; a
 * receiver cannot tell, and needs nothing. A stream of equal messages fills its datagrams to one
 * length, so at full rate nearly every flush is one train or a few. A datagram alone, or one whose
 * neighbours differ in length, goes by itself as before; nothing waits for a train to fill. A
 * train holds at most {@value #MAX_TRAIN_SEGMENTS} datagrams and
 * {@value #MAX_TRAIN_BYTES} bytes (the kernel's limits), and only datagrams that fit the
 * interface's MTU unfragmented (the kernel refuses to cut a train into fragments). If the kernel
 * refuses a train all the same (a device that cannot checksum it, an IPsec path, a socket without
 * UDP checksums), the socket says so once, with the reason, and sends each datagram by itself from
 * then on.
 *
 * <pre>
 *   slots (lengths)   1376 1376 1376 1376  900  1376 1376   64
 *   messages          [---- one train, UDP_SEGMENT 1376 ----] [ train 1376 ] [64]
 *                     iov: 5 slots                             iov: 2         iov: 1, no control
 * </pre>
 */
final class BatchingSender implements DatagramSender {
    /** Datagrams held for one flush at most. */
    static final int BATCH = 32;
    static final int SLOT_BYTES = 65_536;
    /** The most bytes one train carries: what one IPv4 UDP datagram may carry. */
    static final int MAX_TRAIN_BYTES = 65_507;
    /** The most datagrams one train carries (the kernel's UDP_MAX_SEGMENTS). */
    static final int MAX_TRAIN_SEGMENTS = 64;
    /** An IPv4 header without options and a UDP header: what a datagram adds to its payload on the link. */
    private static final int IP_UDP_HEADER_BYTES = 28;
    private static final Logger LOG = LoggerFactory.getLogger(BatchingSender.class);

    private final UdpSocket socket;
    private final String describedAs;
    /** Each entry of the message vector, one msghdr of {@link UdpSocket#MMSGHDR_BYTES}, for {@code sendmsg}. */
    private final MemorySegment[] messageHeaders = new MemorySegment[BATCH];
    private final UnsafeBuffer messageView;
    private final UnsafeBuffer iovecs;
    private final long iovecsAddress;
    private final UnsafeBuffer controls;
    private final long controlsAddress;
    private final UnsafeBuffer slots;
    /** Each slot as a segment of its own, for a datagram alone ({@code sendto}). */
    private final MemorySegment[] slotSegments = new MemorySegment[BATCH];
    private final int[] lengths = new int[BATCH];
    /** Per message of the last vector built: the slot after its last. */
    private final int[] messageEnd = new int[BATCH];
    /** The longest datagram a train may carry: the interface's MTU less the headers; 0 with GSO off. */
    private int trainSegmentLimit;
    private final AtomicCounter datagramsSent;
    private final AtomicCounter bytesSent;
    private final AtomicCounter sendFailures;
    private final AtomicCounter trainsSent;
    /** Slots [firstHeld, held) hold datagrams not yet taken by the kernel. */
    private int firstHeld;
    private int held;

    BatchingSender(MulticastAddress address, int port, SystemCounters counters) {
        this.datagramsSent = counters.get(SystemCounter.DATAGRAMS_SENT);
        this.bytesSent = counters.get(SystemCounter.BYTES_SENT);
        this.sendFailures = counters.get(SystemCounter.SEND_FAILURES);
        this.trainsSent = counters.get(SystemCounter.GSO_TRAINS_SENT);
        this.socket = UdpSocket.sendingTo(address, port);
        this.describedAs = address.describe(port);
        final MemorySegment slotMemory = socket.allocate((long) SLOT_BYTES * BATCH, 64);
        this.slots = new UnsafeBuffer(slotMemory.address(), SLOT_BYTES * BATCH);
        final MemorySegment messages = socket.allocate((long) UdpSocket.MMSGHDR_BYTES * BATCH, 8);
        this.messageView = new UnsafeBuffer(messages.address(), UdpSocket.MMSGHDR_BYTES * BATCH);
        for (int i = 0; i < BATCH; i++) {
            messageHeaders[i] = messages.asSlice((long) UdpSocket.MMSGHDR_BYTES * i, UdpSocket.MMSGHDR_BYTES);
        }
        final MemorySegment iovecMemory = socket.allocate((long) UdpSocket.IOVEC_BYTES * BATCH, 8);
        this.iovecsAddress = iovecMemory.address();
        this.iovecs = new UnsafeBuffer(iovecsAddress, UdpSocket.IOVEC_BYTES * BATCH);
        for (int i = 0; i < BATCH; i++) {
            iovecs.putLong(i * UdpSocket.IOVEC_BYTES, slotMemory.address() + (long) SLOT_BYTES * i);
            slotSegments[i] = slotMemory.asSlice((long) SLOT_BYTES * i, SLOT_BYTES);
        }
        final MemorySegment controlMemory = socket.allocate((long) UdpSocket.CMSG_SPACE_8 * BATCH, 8);
        this.controlsAddress = controlMemory.address();
        this.controls = new UnsafeBuffer(controlsAddress, UdpSocket.CMSG_SPACE_8 * BATCH);
        for (int i = 0; i < BATCH; i++) {
            final int control = i * UdpSocket.CMSG_SPACE_8;
            controls.putLong(control + UdpSocket.CMSG_LEN, UdpSocket.CMSG_DATA + Short.BYTES);
            controls.putInt(control + UdpSocket.CMSG_LEVEL, Libc.SOL_UDP);
            controls.putInt(control + UdpSocket.CMSG_TYPE, Libc.UDP_SEGMENT);
        }
        this.trainSegmentLimit = socket.supports(Libc.SOL_UDP, Libc.UDP_SEGMENT)
            ? Math.min(mtuOf(address) - IP_UDP_HEADER_BYTES, MAX_TRAIN_BYTES / 2) : 0;
    }

    /** The MTU of the address's interface; 0 if it cannot be read (no trains then). */
    private static int mtuOf(MulticastAddress address) {
        try {
            return address.networkInterface().getMTU();
        } catch (SocketException ex) {
            return 0;
        }
    }

    @Override
    public boolean send(DirectBuffer buffer, int offset, int length) {
        if (socket.isClosed()) {
            sendFailures.increment();
            return false;
        }
        if (held == BATCH) {
            flush();
            if (held == BATCH) {
                sendFailures.increment();
                return false;
            }
        }
        slots.putBytes(held * SLOT_BYTES, buffer, offset, length);
        iovecs.putLong(held * UdpSocket.IOVEC_BYTES + UdpSocket.IOVEC_LENGTH, length);
        lengths[held] = length;
        held++;
        if (held == BATCH) {
            flush();
        }
        return true;
    }

    @Override
    public void flush() {
        while (firstHeld < held && !socket.isClosed()) {
            final int built = build();
            int sent = 0;
            int taken = 1;
            if (built == 1 && messageEnd[0] - firstHeld == 1 && lengths[firstHeld] > 0) {
                taken = sendAlone(firstHeld);
                sent = Math.max(taken, 0);
            } else {
                while (sent < built && (taken = socket.sendMessage(messageHeaders[sent])) > 0) {
                    sent++;
                }
            }
            if (sent == 0 && taken < 0 && messageEnd[0] - firstHeld > 1 && socket.lastCallRefusedTrain()) {
                refusedTrains();
                continue;
            }
            if (sent == 0) {
                sendFailures.increment();
                return;
            }
            final int sentEnd = messageEnd[sent - 1];
            long bytes = 0;
            for (int i = firstHeld; i < sentEnd; i++) {
                bytes += lengths[i];
            }
            for (int m = 0; m < sent; m++) {
                if (messageEnd[m] - (m == 0 ? firstHeld : messageEnd[m - 1]) > 1) {
                    trainsSent.increment();
                }
            }
            datagramsSent.getAndAdd(sentEnd - firstHeld);
            bytesSent.getAndAdd(bytes);
            firstHeld = sentEnd;
        }
        firstHeld = 0;
        held = 0;
    }

    /**
     * Sends the datagram of {@code slot} by itself with {@code sendto}: 1 if the kernel took it, 0 if
     * its buffer is full, -1 on another error. Only for a datagram of at least one byte: {@code sendto}
     * answers an empty one with 0, as it answers a full buffer.
     */
    private int sendAlone(int slot) {
        final long bytes = socket.sendOne(slotSegments[slot], lengths[slot]);
        return bytes > 0 ? 1 : (int) bytes;
    }

    /**
     * Builds the message vector for the held slots from {@link #firstHeld}: each message one train
     * (or one datagram), its end noted in {@link #messageEnd}.
     *
     * @return the messages built
     */
    private int build() {
        int count = 0;
        for (int first = firstHeld; first < held; count++) {
            final int end = trainEnd(first);
            final int message = count * UdpSocket.MMSGHDR_BYTES;
            messageView.putLong(message + UdpSocket.MSG_IOV, iovecsAddress + (long) first * UdpSocket.IOVEC_BYTES);
            messageView.putLong(message + UdpSocket.MSG_IOVLEN, end - first);
            if (end - first > 1) {
                final int control = count * UdpSocket.CMSG_SPACE_8;
                controls.putShort(control + UdpSocket.CMSG_DATA, (short) lengths[first]);
                messageView.putLong(message + UdpSocket.MSG_CONTROL, controlsAddress + control);
                messageView.putLong(message + UdpSocket.MSG_CONTROLLEN, UdpSocket.CMSG_SPACE_8);
            } else {
                messageView.putLong(message + UdpSocket.MSG_CONTROL, 0);
                messageView.putLong(message + UdpSocket.MSG_CONTROLLEN, 0);
            }
            messageEnd[count] = end;
            first = end;
        }
        return count;
    }

    /**
     * The slot after the train that begins at {@code first}: the datagrams of its length that
     * follow it, then one shorter, within the train's limits; {@code first + 1} for a datagram alone.
     */
    private int trainEnd(int first) {
        final int segment = lengths[first];
        if (segment == 0 || segment > trainSegmentLimit) {
            return first + 1;
        }
        int end = first + 1;
        int bytes = segment;
        while (end < held && end - first < MAX_TRAIN_SEGMENTS && bytes + lengths[end] <= MAX_TRAIN_BYTES
            && lengths[end] <= segment && lengths[end] > 0) {
            bytes += lengths[end];
            end++;
            if (lengths[end - 1] < segment) {
                break;
            }
        }
        return end;
    }

    /** The kernel refused a train: this socket sends each datagram by itself from now on. */
    private void refusedTrains() {
        trainSegmentLimit = 0;
        LOG.warn("the kernel refused a UDP GSO train to {} ({}): this socket sends each datagram by itself from now"
            + " on", describedAs, socket.lastError());
    }

    /** Its socket, for a test to set an option the media does not. */
    UdpSocket socket() {
        return socket;
    }

    @Override
    public void close() {
        socket.close();
    }
}
