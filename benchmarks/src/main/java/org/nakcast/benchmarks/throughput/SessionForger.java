package org.nakcast.benchmarks.throughput;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.Locale;
import java.util.OptionalInt;

import org.agrona.concurrent.UnsafeBuffer;
import org.nakcast.config.TransportConfig;
import org.nakcast.transport.protocol.DataFlyweight;
import org.nakcast.transport.protocol.FrameType;
import org.nakcast.transport.protocol.HeaderFlyweight;
import org.nakcast.transport.protocol.HeartbeatFlyweight;
import org.nakcast.transport.protocol.MessageFrame;
import org.nakcast.transport.protocol.NakFlyweight;
import org.nakcast.transport.protocol.StatusFlyweight;
import org.nakcast.transport.protocol.UnrecoverableFlyweight;

/**
 * A host on the segment that sends in a live session's name, as anyone who can read the group's
 * traffic could: it listens on the transport's data port until a DATA or HEARTBEAT of the topic
 * names the session, follows the highest sequence the session sends for a while, then multicasts
 * its forgery from a socket of its own ({@code ops/fault-drills forged-*}). What it forges:
 *
 * <ul>
 *   <li>{@link Row#END}: a HEARTBEAT with END_OF_STREAM and a highest sequence of -1 (the session
 *       ended before it sent anything);</li>
 *   <li>{@link Row#UNRECOVERABLE}: an UNRECOVERABLE giving up datagrams 0 to a million past the
 *       highest the session sent;</li>
 *   <li>{@link Row#DATA}: {@value #FORGED_DATA} DATA datagrams just ahead of the highest the session
 *       sent, each one message of {@value #FORGED_MESSAGE} bytes of 0xEE;</li>
 *   <li>{@link Row#STATUS}: a STATUS to the control port of a made-up receiver
 *       ({@value #MADE_UP_RECEIVER}) that needs datagram 0 next: a receiver at a standstill a
 *       {@code min} publisher would wait for;</li>
 *   <li>{@link Row#NAKS}: {@value #FORGED_NAKS} NAKs to the control port, each for the most one
 *       NAK may ask ({@link NakFlyweight#MAX_DATAGRAMS_ASKED} datagrams), going down from the highest
 *       sequence heard: the repairs of a whole history asked for by one host;</li>
 *   <li>{@link Row#SESSIONS}: HEARTBEATs of {@value #MADE_UP_SESSIONS} sessions it makes up, each
 *       announcing a live stream, to fill the receivers' {@code max-publishers} before a real
 *       publisher comes (it follows no session: it forges before there is one).</li>
 * </ul>
 */
final class SessionForger {
    /** DATA datagrams forged ahead of the session per copy. */
    static final int FORGED_DATA = 500;
    static final int FORGED_MESSAGE = 64;
    private static final long GONE_PAST = 1_000_000;
    /** NAKs forged per copy. */
    static final int FORGED_NAKS = 250;
    /** Sessions made up per copy. */
    static final int MADE_UP_SESSIONS = 64;
    /** The first made-up session id; the others follow it. */
    static final int FIRST_MADE_UP_SESSION = 0x5E550000;
    /** The receiver id a forged STATUS or NAK names. */
    static final int MADE_UP_RECEIVER = 0x5EEDF00D;

    /** What it forges. */
    enum Row {
        END, UNRECOVERABLE, DATA, STATUS, NAKS, SESSIONS;

        /** Whether it forges in a live session's name, which it must hear first. */
        boolean followsASession() {
            return this != SESSIONS;
        }

        /** Whether it goes to the control port (else to the data port). */
        boolean toControlPort() {
            return this == STATUS || this == NAKS;
        }

        /** The row named {@code name} as on the command line ({@code end}, {@code unrecoverable}, {@code data}). */
        static Row of(String name) {
            return valueOf(name.toUpperCase(Locale.ROOT));
        }
    }

    private final TransportConfig transport;
    private final int topicId;
    private final ByteBuffer bytes = ByteBuffer.allocateDirect(HeaderFlyweight.MAX_DATAGRAM_LENGTH + 1);
    private final UnsafeBuffer buffer = new UnsafeBuffer(bytes);
    private int sessionId;
    private long highestSequence = -1;

    SessionForger(TransportConfig transport, int topicId) {
        this.transport = transport;
        this.topicId = topicId;
    }

    /** The session it forges in the name of, once {@link #follow} heard one. */
    int sessionId() {
        return sessionId;
    }

    /** The highest sequence the session was heard to send. */
    long highestSequence() {
        return highestSequence;
    }

    /**
     * Listens until the topic's first session is heard, then follows its highest sequence for
     * {@code followMs} more.
     *
     * @return false if no session of the topic was heard within {@code waitMs}
     */
    boolean follow(long waitMs, long followMs) throws IOException {
        final NetworkInterface nic = NetworkInterface.getByName(transport.networkInterface().name());
        try (DatagramChannel listener = DatagramChannel.open(StandardProtocolFamily.INET)) {
            listener.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            listener.bind(new InetSocketAddress(transport.group(), transport.port()));
            listener.join(transport.group(), nic);
            listener.configureBlocking(false);
            long deadlineMs = System.currentTimeMillis() + waitMs;
            boolean heard = false;
            while (System.currentTimeMillis() < deadlineMs) {
                bytes.clear();
                if (listener.receive(bytes) == null) {
                    Thread.onSpinWait();
                    continue;
                }
                final OptionalInt session = StrangerNaks.sessionOf(buffer, bytes.position(), topicId);
                if (session.isEmpty() || heard && session.getAsInt() != sessionId) {
                    continue;
                }
                if (!heard) {
                    heard = true;
                    sessionId = session.getAsInt();
                    deadlineMs = System.currentTimeMillis() + followMs;
                }
                final HeaderFlyweight header = new HeaderFlyweight().wrap(buffer, 0);
                if (header.typeCode() == FrameType.DATA.code()) {
                    highestSequence = Math.max(highestSequence, header.sequence());
                }
            }
            return heard;
        }
    }

    /**
     * Multicasts the forgery of {@code row} to the data port (a STATUS to the control port) from a
     * socket of its own.
     *
     * @return the datagrams sent
     */
    int send(Row row) throws IOException {
        final NetworkInterface nic = NetworkInterface.getByName(transport.networkInterface().name());
        final InetSocketAddress port = new InetSocketAddress(transport.group(),
            row.toControlPort() ? transport.port() + 1 : transport.port());
        try (DatagramChannel sender = DatagramChannel.open(StandardProtocolFamily.INET)) {
            sender.setOption(StandardSocketOptions.IP_MULTICAST_IF, nic);
            sender.setOption(StandardSocketOptions.IP_MULTICAST_TTL, transport.ttl());
            sender.setOption(StandardSocketOptions.IP_MULTICAST_LOOP, true);
            sender.bind(new InetSocketAddress(0));
            final int datagrams = switch (row) {
                case DATA -> FORGED_DATA;
                case NAKS -> FORGED_NAKS;
                case SESSIONS -> MADE_UP_SESSIONS;
                default -> 1;
            };
            for (int i = 0; i < datagrams; i++) {
                final int length = forge(buffer, row, i, sessionId, topicId, highestSequence);
                bytes.clear().limit(length);
                sender.send(bytes, port);
            }
            return datagrams;
        }
    }

    /**
     * Writes into {@code buffer} the {@code index}th datagram of {@code row}'s forgery in the name of
     * session {@code sessionId} of {@code topicId}, whose highest sequence heard is {@code highest}.
     *
     * @return its length
     */
    static int forge(UnsafeBuffer buffer, Row row, int index, int sessionId, int topicId, long highest) {
        switch (row) {
            case END -> {
                final HeartbeatFlyweight heartbeat = new HeartbeatFlyweight();
                heartbeat.wrap(buffer, 0);
                heartbeat.writeHeader(FrameType.HEARTBEAT, HeartbeatFlyweight.HEARTBEAT_LENGTH, sessionId, topicId, -1);
                heartbeat.endOfStream(true).oldestSequence(0).publisherId(0).sessionAgeNs(0);
                return HeartbeatFlyweight.HEARTBEAT_LENGTH;
            }
            case UNRECOVERABLE -> {
                final UnrecoverableFlyweight gone = new UnrecoverableFlyweight();
                gone.wrap(buffer, 0);
                gone.writeHeader(FrameType.UNRECOVERABLE, UnrecoverableFlyweight.UNRECOVERABLE_LENGTH, sessionId,
                    topicId, 0);
                gone.lostRange(0, highest + GONE_PAST, highest + GONE_PAST);
                return UnrecoverableFlyweight.UNRECOVERABLE_LENGTH;
            }
            case NAKS -> {
                final NakFlyweight nak = new NakFlyweight();
                nak.wrap(buffer, 0);
                nak.writeHeader(FrameType.NAK, NakFlyweight.lengthFor(1), sessionId, topicId, 0);
                final long to = Math.max(NakFlyweight.MAX_DATAGRAMS_ASKED - 1,
                    highest - (long) index * NakFlyweight.MAX_DATAGRAMS_ASKED);
                nak.receiverId(MADE_UP_RECEIVER).rangeCount(1)
                    .range(0, to - NakFlyweight.MAX_DATAGRAMS_ASKED + 1, to);
                return NakFlyweight.lengthFor(1);
            }
            case SESSIONS -> {
                final HeartbeatFlyweight heartbeat = new HeartbeatFlyweight();
                heartbeat.wrap(buffer, 0);
                heartbeat.writeHeader(FrameType.HEARTBEAT, HeartbeatFlyweight.HEARTBEAT_LENGTH,
                    FIRST_MADE_UP_SESSION + index, topicId, 0);
                heartbeat.oldestSequence(0).publisherId(FIRST_MADE_UP_SESSION + index).sessionAgeNs(1_000_000);
                return HeartbeatFlyweight.HEARTBEAT_LENGTH;
            }
            case STATUS -> {
                final StatusFlyweight status = new StatusFlyweight();
                status.wrap(buffer, 0);
                status.writeHeader(FrameType.STATUS, StatusFlyweight.STATUS_LENGTH, sessionId, topicId, 0);
                status.receiverId(MADE_UP_RECEIVER);
                return StatusFlyweight.STATUS_LENGTH;
            }
            default -> {
                final int length = DataFlyweight.DATA_HEADER_LENGTH + MessageFrame.FRAME_HEADER_LENGTH + FORGED_MESSAGE;
                final long sequence = highest + 1 + index;
                final DataFlyweight data = new DataFlyweight();
                data.wrap(buffer, 0);
                data.writeHeader(FrameType.DATA, length, sessionId, topicId, sequence);
                data.completedMessages(sequence);
                MessageFrame.write(buffer, DataFlyweight.DATA_HEADER_LENGTH, FORGED_MESSAGE, MessageFrame.UNFRAGMENTED);
                buffer.setMemory(DataFlyweight.DATA_HEADER_LENGTH + MessageFrame.FRAME_HEADER_LENGTH, FORGED_MESSAGE,
                    (byte) 0xEE);
                return length;
            }
        }
    }
}
