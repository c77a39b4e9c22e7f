package org.nakcast.transport.system;

import java.nio.ByteBuffer;
import java.util.EnumMap;
import java.util.Map;
import java.util.SplittableRandom;

import org.agrona.concurrent.UnsafeBuffer;
import org.nakcast.transport.protocol.DataFlyweight;
import org.nakcast.transport.protocol.DatagramValidator;
import org.nakcast.transport.protocol.FrameType;
import org.nakcast.transport.protocol.HeaderFlyweight;
import org.nakcast.transport.protocol.HeartbeatFlyweight;
import org.nakcast.transport.protocol.MessageFrame;
import org.nakcast.transport.protocol.NakFlyweight;
import org.nakcast.transport.protocol.UnrecoverableFlyweight;
import org.nakcast.transport.status.DatagramCheck;

/**
 * Hostile datagrams for one transport, drawn from a seeded {@link SplittableRandom}: random bytes
 * of random lengths, header-shaped noise, and real DATA, RETRANSMIT, HEARTBEAT, NAK and
 * UNRECOVERABLE layouts built with the protocol's flyweights and then mutated (bytes flipped,
 * truncated, extended, wrong magic, version, type or flags, lengths that disagree, extreme
 * sequences, counts and ranges, oversized fragments, another session or topic).
 *
 * <p>What comes out well-formed is tamed, because nothing on the wire can tell a forgery that is
 * well-formed and plausible from the publisher's own datagram: a well-formed datagram of a session
 * other than the real one is given one of a few foreign sessions (each a legitimate new publisher
 * stream to a receiver, which costs it a reorder window); one of the real session and topic keeps
 * only sequences far in the future (at least {@link #FAR_FUTURE}) or in the past the receiver has
 * already delivered. NAKs of the real stream are left as drawn: any range is a fair question.
 *
 * <p>A NAK goes to the control port, anything else to the data port, each 15% of the time to the
 * other; random bytes and noise go to either. Not thread-safe; allocation-free but for the tally.
 */
final class HostileDatagrams {
    /** Sequences from here on are far beyond anything a test stream reaches. */
    static final long FAR_FUTURE = 1L << 40;
    /** The longest datagram drawn. */
    static final int MAX_LENGTH = 1500;

    private static final int DATAGRAM_SIZE = 1408;
    private static final int FOREIGN_SESSIONS = 8;

    /** What a datagram turned out to be, once drawn, mutated and tamed. */
    enum Kind {
        /** Random bytes, random length. */
        RANDOM_BYTES,
        /** Magic and mostly the version right, the rest random. */
        NOISY_HEADER,
        /** A real layout, mutated into one the checks refuse. */
        MUTATED_MALFORMED,
        /** Well-formed, for another topic: one the receiver did not subscribe to, or none. */
        OTHER_TOPIC,
        /** Well-formed, of a foreign session on the real topic: a new publisher stream to a receiver. */
        FOREIGN_SESSION,
        /** Real session and topic: DATA or RETRANSMIT far in the future. */
        REAL_DATA_FAR_FUTURE,
        /** Real session and topic: DATA or RETRANSMIT already delivered. */
        REAL_DATA_PAST,
        /** Real session and topic: a HEARTBEAT announcing a sequence far in the future. */
        REAL_HEARTBEAT_FAR_FUTURE,
        /**
         * Real session and topic: a HEARTBEAT announcing a sequence already delivered, half of those
         * tamed into it ending the stream there.
         */
        REAL_HEARTBEAT_PAST,
        /** Real session and topic: an UNRECOVERABLE range far in the future. */
        REAL_UNRECOVERABLE_FAR_FUTURE,
        /** Real session and topic: an UNRECOVERABLE range from the past into the far future. */
        REAL_UNRECOVERABLE_SPANNING,
        /** Real session and topic: an UNRECOVERABLE range already delivered. */
        REAL_UNRECOVERABLE_PAST,
        /** Real session and topic: a NAK, any ranges. */
        REAL_NAK
    }

    private final SplittableRandom random;
    private final int realSession;
    private final int realTopic;
    private final int[] foreignSessions = new int[FOREIGN_SESSIONS];
    private final ByteBuffer byteBuffer = ByteBuffer.allocateDirect(HeaderFlyweight.MAX_DATAGRAM_LENGTH);
    private final UnsafeBuffer buffer = new UnsafeBuffer(byteBuffer);
    private final HeaderFlyweight header = new HeaderFlyweight();
    private final DataFlyweight data = new DataFlyweight();
    private final HeartbeatFlyweight heartbeat = new HeartbeatFlyweight();
    private final NakFlyweight nak = new NakFlyweight();
    private final UnrecoverableFlyweight unrecoverable = new UnrecoverableFlyweight();
    private final EnumMap<Kind, Long> drawn = new EnumMap<>(Kind.class);
    private final byte[] noise = new byte[MAX_LENGTH];

    private int length;
    private boolean toControlPort;

    /**
     * @param seed seeds every draw
     * @param realSession the session of the stream under attack
     * @param realTopic its topic
     */
    HostileDatagrams(long seed, int realSession, int realTopic) {
        this.random = new SplittableRandom(seed);
        this.realSession = realSession;
        this.realTopic = realTopic;
        for (int i = 0; i < FOREIGN_SESSIONS; i++) {
            int session;
            do {
                session = random.nextInt();
            } while (session == realSession || session == 0);
            foreignSessions[i] = session;
        }
        header.wrap(buffer, 0);
        data.wrap(buffer, 0);
        heartbeat.wrap(buffer, 0);
        nak.wrap(buffer, 0);
        unrecoverable.wrap(buffer, 0);
    }

    /**
     * Draws the next datagram into {@link #byteBuffer()} (position 0, limit its length).
     *
     * @param pastLimit sequences below this were delivered already by the receiver under attack
     * @return its kind
     */
    Kind next(long pastLimit) {
        final Kind kind;
        final int pick = random.nextInt(100);
        if (pick < 15) {
            length = random.nextInt(MAX_LENGTH + 1);
            randomBytes(0, length);
            kind = tame(pastLimit, Kind.RANDOM_BYTES);
            toControlPort = random.nextBoolean();
        } else if (pick < 25) {
            noisyHeader();
            kind = tame(pastLimit, Kind.NOISY_HEADER);
            toControlPort = random.nextBoolean();
        } else {
            final FrameType type = template();
            final int mutations = random.nextInt(5) == 0 ? 0 : 1 + random.nextInt(3);
            for (int i = 0; i < mutations; i++) {
                mutate();
            }
            kind = tame(pastLimit, Kind.MUTATED_MALFORMED);
            final boolean toItsOwnPort = random.nextInt(100) < 85;
            toControlPort = type == FrameType.NAK ? toItsOwnPort : !toItsOwnPort;
        }
        drawn.merge(kind, 1L, Long::sum);
        byteBuffer.limit(length).position(0);
        return kind;
    }

    /** Holds the last datagram drawn. */
    ByteBuffer byteBuffer() {
        return byteBuffer;
    }

    /** Whether the last datagram goes to the control port (else the data port). */
    boolean toControlPort() {
        return toControlPort;
    }

    /** The foreign sessions a well-formed datagram may carry. */
    int[] foreignSessions() {
        return foreignSessions.clone();
    }

    /** How many datagrams of each kind were drawn. */
    Map<Kind, Long> drawn() {
        return new EnumMap<>(drawn);
    }

    private void noisyHeader() {
        length = HeaderFlyweight.HEADER_LENGTH + random.nextInt(MAX_LENGTH - HeaderFlyweight.HEADER_LENGTH + 1);
        randomBytes(0, length);
        buffer.putShort(0, HeaderFlyweight.MAGIC, HeaderFlyweight.BYTE_ORDER);
        if (random.nextInt(5) != 0) {
            buffer.putByte(2, (byte) HeaderFlyweight.CURRENT_VERSION);
        }
        buffer.putByte(3, (byte) random.nextInt(8));
        if (random.nextInt(5) != 0) {
            buffer.putShort(4, (short) 0, HeaderFlyweight.BYTE_ORDER);
        }
        if (random.nextInt(3) != 0) {
            header.datagramLength(length);
        }
    }

    /** Writes a well-formed datagram of a random type; returns the type. */
    private FrameType template() {
        final int session = pickSession();
        final int topic = pickTopic();
        switch (random.nextInt(5)) {
            case 0:
            case 1:
                dataTemplate(session, topic);
                return FrameType.DATA;
            case 2:
                heartbeatTemplate(session, topic);
                return FrameType.HEARTBEAT;
            case 3:
                nakTemplate(session, topic);
                return FrameType.NAK;
            default:
                unrecoverableTemplate(session, topic);
                return FrameType.UNRECOVERABLE;
        }
    }

    private void dataTemplate(int session, int topic) {
        final FrameType type = random.nextInt(3) == 0 ? FrameType.RETRANSMIT : FrameType.DATA;
        data.writeHeader(type, 0, session, topic, Math.max(0, pickSequence()));
        data.completedMessages(random.nextLong(1_000_000));
        final int frames = 1 + random.nextInt(4);
        int offset = DataFlyweight.DATA_HEADER_LENGTH;
        final int room = (DATAGRAM_SIZE - offset) / frames - MessageFrame.FRAME_HEADER_LENGTH;
        for (int i = 0; i < frames; i++) {
            final int fragmentLength = random.nextInt(Math.min(room, 200) + 1);
            int flags = MessageFrame.UNFRAGMENTED;
            if (i == 0 && random.nextInt(5) == 0) {
                flags &= ~MessageFrame.BEGIN;
            }
            if (i == frames - 1 && random.nextInt(5) == 0) {
                flags &= ~MessageFrame.END;
            }
            MessageFrame.write(buffer, offset, fragmentLength, flags);
            randomBytes(offset + MessageFrame.FRAME_HEADER_LENGTH, fragmentLength);
            offset += MessageFrame.FRAME_HEADER_LENGTH + fragmentLength;
        }
        length = offset;
        data.datagramLength(length);
    }

    private void heartbeatTemplate(int session, int topic) {
        final long highest = Math.max(-1, Math.min(Long.MAX_VALUE - 2, pickSequence()));
        length = HeartbeatFlyweight.HEARTBEAT_LENGTH;
        heartbeat.writeHeader(FrameType.HEARTBEAT, length, session, topic, highest);
        heartbeat.oldestSequence(random.nextLong(highest + 2));
    }

    /**
     * A NAK of random ranges: half of them narrow enough to be valid (at most 4 ranges of at most 64
     * datagrams), the others of any width, most of them too wide.
     */
    private void nakTemplate(int session, int topic) {
        final boolean narrow = random.nextBoolean();
        final int maxRanges = 1 + random.nextInt(narrow ? 4 : NakFlyweight.maxRanges(DATAGRAM_SIZE));
        nak.writeHeader(FrameType.NAK, 0, session, topic, 0);
        nak.receiverId(random.nextInt());
        long from = random.nextBoolean() ? random.nextLong(100_000) : random.nextLong(Long.MAX_VALUE);
        int ranges = 0;
        while (ranges < maxRanges) {
            final long span = narrow || random.nextBoolean() ? random.nextLong(64) : random.nextLong(Long.MAX_VALUE);
            final long to = from + span < from ? Long.MAX_VALUE : from + span;
            nak.range(ranges++, from, to);
            final long gap = 1 + random.nextLong(1_000);
            if (to > Long.MAX_VALUE - gap) {
                break;
            }
            from = to + gap;
        }
        nak.rangeCount(ranges);
        length = NakFlyweight.lengthFor(ranges);
        nak.datagramLength(length);
    }

    private void unrecoverableTemplate(int session, int topic) {
        final long from = Math.max(0, pickSequence());
        final long span = random.nextBoolean() ? random.nextLong(1_000) : random.nextLong(Long.MAX_VALUE);
        final long to = from + span < from ? Long.MAX_VALUE : from + span;
        length = UnrecoverableFlyweight.UNRECOVERABLE_LENGTH;
        unrecoverable.writeHeader(FrameType.UNRECOVERABLE, length, session, topic, 0);
        unrecoverable.lostRange(from, to, random.nextLong(Long.MAX_VALUE));
    }

    /** One mutation of the datagram in the buffer. */
    private void mutate() {
        switch (random.nextInt(17)) {
            case 0 -> flipBytes();
            case 1 -> length = random.nextInt(length + 1);
            case 2 -> {
                length = random.nextInt(length + 1);
                fixLength();
            }
            case 3 -> extend(false);
            case 4 -> extend(true);
            case 5 -> putIfRoom(0, 2, random.nextInt(1 << 16));
            case 6 -> putIfRoom(2, 1, random.nextInt(256));
            case 7 -> putIfRoom(3, 1, random.nextBoolean() ? random.nextInt(256) : 1 + random.nextInt(5));
            case 8 -> putIfRoom(4, 2, 1 + random.nextInt((1 << 16) - 1));
            case 9 -> putIfRoom(6, 2, random.nextBoolean() ? random.nextInt(1 << 16) : length + 1 + random.nextInt(64));
            case 10 -> putLongIfRoom(16, extremeLong());
            case 11 -> putIfRoom(12, 4, random.nextBoolean() ? -random.nextInt(3) : random.nextInt());
            case 12 -> putIfRoom(8, 4, random.nextBoolean() ? pickSession() : random.nextInt());
            case 13 -> putLongIfRoom(
                HeaderFlyweight.HEADER_LENGTH + 8 * random.nextInt(4), extremeLong());
            case 14 -> putIfRoom(NakFlyweight.NAK_HEADER_LENGTH - 4, 4, extremeCount());
            case 15 -> swapLongs(HeaderFlyweight.HEADER_LENGTH + 8 * random.nextInt(2));
            default -> putIfRoom(DataFlyweight.DATA_HEADER_LENGTH, 2,
                random.nextBoolean() ? 0xFFFF : length - DataFlyweight.DATA_HEADER_LENGTH + random.nextInt(64));
        }
    }

    private void flipBytes() {
        for (int i = 0, flips = 1 + random.nextInt(4); i < flips && length > 0; i++) {
            final int at = random.nextInt(length);
            buffer.putByte(at, (byte) (buffer.getByte(at) ^ (1 + random.nextInt(255))));
        }
    }

    private void extend(boolean fixLength) {
        final int extra = 1 + random.nextInt(Math.max(1, MAX_LENGTH - length));
        final int newLength = Math.min(MAX_LENGTH, length + extra);
        randomBytes(length, newLength - length);
        length = newLength;
        if (fixLength) {
            fixLength();
        }
    }

    private void fixLength() {
        if (length >= 8) {
            header.datagramLength(length);
        }
    }

    private void putIfRoom(int offset, int bytes, int value) {
        if (offset + bytes > length) {
            return;
        }
        switch (bytes) {
            case 1 -> buffer.putByte(offset, (byte) value);
            case 2 -> buffer.putShort(offset, (short) value, HeaderFlyweight.BYTE_ORDER);
            default -> buffer.putInt(offset, value, HeaderFlyweight.BYTE_ORDER);
        }
    }

    /** Swaps the longs at {@code offset} and the next: a range's ends, the wrong way round. */
    private void swapLongs(int offset) {
        if (offset + 2 * Long.BYTES <= length) {
            final long first = buffer.getLong(offset, HeaderFlyweight.BYTE_ORDER);
            buffer.putLong(offset, buffer.getLong(offset + Long.BYTES, HeaderFlyweight.BYTE_ORDER),
                HeaderFlyweight.BYTE_ORDER);
            buffer.putLong(offset + Long.BYTES, first, HeaderFlyweight.BYTE_ORDER);
        }
    }

    private void putLongIfRoom(int offset, long value) {
        if (offset + Long.BYTES <= length) {
            buffer.putLong(offset, value, HeaderFlyweight.BYTE_ORDER);
        }
    }

    /**
     * Classifies the datagram; a well-formed one of a session other than the real one gets a
     * foreign session, one of the real stream keeps only far-future or past sequences.
     *
     * @param malformed what the datagram is if the checks refuse it
     */
    private Kind tame(long pastLimit, Kind malformed) {
        if (DatagramValidator.check(buffer, 0, length) != DatagramCheck.VALID) {
            return malformed;
        }
        if (header.sessionId() != realSession && !isForeign(header.sessionId())) {
            setSession(foreignSessions[Math.floorMod(header.sessionId(), FOREIGN_SESSIONS)]);
        }
        final FrameType type = FrameType.fromCode(header.typeCode());
        if (header.topicId() != realTopic) {
            return Kind.OTHER_TOPIC;
        }
        if (header.sessionId() != realSession) {
            return Kind.FOREIGN_SESSION;
        }
        return switch (type) {
            case NAK -> Kind.REAL_NAK;
            case HEARTBEAT -> tameHeartbeat(pastLimit);
            case UNRECOVERABLE -> tameUnrecoverable(pastLimit);
            default -> tameData(pastLimit);
        };
    }

    private Kind tameData(long pastLimit) {
        final long sequence = data.sequence();
        if (sequence >= FAR_FUTURE) {
            return Kind.REAL_DATA_FAR_FUTURE;
        }
        if (sequence < pastLimit) {
            return Kind.REAL_DATA_PAST;
        }
        if (pastLimit > 0 && random.nextBoolean()) {
            data.sequence(random.nextLong(pastLimit));
            return Kind.REAL_DATA_PAST;
        }
        data.sequence(farFuture());
        return Kind.REAL_DATA_FAR_FUTURE;
    }

    private Kind tameHeartbeat(long pastLimit) {
        final long highest = heartbeat.sequence();
        if (highest >= FAR_FUTURE) {
            return Kind.REAL_HEARTBEAT_FAR_FUTURE;
        }
        if (highest < pastLimit - 1) {
            return Kind.REAL_HEARTBEAT_PAST;
        }
        if (pastLimit > 0 && random.nextBoolean()) {
            final long past = random.nextLong(pastLimit) - 1;
            heartbeat.sequence(past);
            heartbeat.oldestSequence(random.nextLong(past + 2));
            heartbeat.endOfStream(random.nextBoolean());
            return Kind.REAL_HEARTBEAT_PAST;
        }
        heartbeat.sequence(farFuture());
        return Kind.REAL_HEARTBEAT_FAR_FUTURE;
    }

    private Kind tameUnrecoverable(long pastLimit) {
        final long from = unrecoverable.fromSequence();
        final long to = unrecoverable.toSequence();
        final long after = unrecoverable.firstMessageAfter();
        if (from >= FAR_FUTURE) {
            return Kind.REAL_UNRECOVERABLE_FAR_FUTURE;
        }
        if (to < pastLimit) {
            return Kind.REAL_UNRECOVERABLE_PAST;
        }
        if (to >= FAR_FUTURE && from < pastLimit) {
            return Kind.REAL_UNRECOVERABLE_SPANNING;
        }
        if (pastLimit > 0 && random.nextBoolean()) {
            final long pastTo = random.nextLong(pastLimit);
            unrecoverable.lostRange(random.nextLong(pastTo + 1), pastTo, after);
            return Kind.REAL_UNRECOVERABLE_PAST;
        }
        final long farFrom = farFuture();
        unrecoverable.lostRange(farFrom, farFrom + random.nextLong(Long.MAX_VALUE - farFrom), after);
        return Kind.REAL_UNRECOVERABLE_FAR_FUTURE;
    }

    private void setSession(int session) {
        buffer.putInt(8, session, HeaderFlyweight.BYTE_ORDER);
    }

    private boolean isForeign(int session) {
        for (int foreign : foreignSessions) {
            if (foreign == session) {
                return true;
            }
        }
        return false;
    }

    private int pickSession() {
        final int pick = random.nextInt(10);
        if (pick < 5) {
            return realSession;
        }
        return pick < 8 ? foreignSessions[random.nextInt(FOREIGN_SESSIONS)] : random.nextInt();
    }

    private int pickTopic() {
        final int pick = random.nextInt(10);
        if (pick < 7) {
            return realTopic;
        }
        return pick < 8 ? realTopic + 1 : random.nextInt();
    }

    /** Small, far-future, negative or any sequence. */
    private long pickSequence() {
        return switch (random.nextInt(6)) {
            case 0, 1 -> random.nextLong(100_000);
            case 2 -> farFuture();
            case 3 -> Long.MAX_VALUE;
            case 4 -> random.nextBoolean() ? -1 : Long.MIN_VALUE + random.nextLong(1_000);
            default -> random.nextLong();
        };
    }

    private long farFuture() {
        return FAR_FUTURE + random.nextLong(Long.MAX_VALUE - FAR_FUTURE);
    }

    private long extremeLong() {
        return switch (random.nextInt(7)) {
            case 0 -> Long.MAX_VALUE;
            case 1 -> Long.MIN_VALUE;
            case 2 -> -1 - random.nextLong(1_000);
            case 3 -> 0;
            case 4 -> farFuture();
            case 5 -> random.nextLong(100_000);
            default -> random.nextLong();
        };
    }

    private int extremeCount() {
        return switch (random.nextInt(5)) {
            case 0 -> Integer.MAX_VALUE;
            case 1 -> -1 - random.nextInt(1_000);
            case 2 -> 0;
            case 3 -> NakFlyweight.maxRanges(length) + 1 + random.nextInt(100);
            default -> random.nextInt();
        };
    }

    private void randomBytes(int offset, int count) {
        for (int i = 0; i < count; i += 8) {
            final long value = random.nextLong();
            for (int b = 0; b < 8 && i + b < count; b++) {
                noise[b] = (byte) (value >>> (8 * b));
            }
            buffer.putBytes(offset + i, noise, 0, Math.min(8, count - i));
        }
    }
}
