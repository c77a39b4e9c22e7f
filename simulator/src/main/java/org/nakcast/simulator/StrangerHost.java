package org.nakcast.simulator;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
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
import org.nakcast.transport.protocol.StatusFlyweight;
import org.nakcast.transport.protocol.UnrecoverableFlyweight;
import org.nakcast.transport.status.DatagramCheck;

/**
 * A stranger on the segment: it reads the live sessions off the wire, then, every interval until
 * the network heals, sends one of: a NAK for the whole of a live session (or a random part), a
 * STATUS with a made-up receiver and position, the datagrams of a session it makes up (DATA with
 * a gap, heartbeats, each on a topic that exists), a stray datagram (a NAK or STATUS to the data
 * port, DATA or a heartbeat to the control port, of a live session or a made-up one), bytes that
 * are no datagram at all, to either port, or datagrams in a live session's name on its data port:
 * <ul>
 *   <li>from its own address: DATA just ahead of what the session sent, a RETRANSMIT of what it
 *       sent (other bytes), an END_OF_STREAM heartbeat at the highest it sent, an UNRECOVERABLE
 *       within what it sent. A receiver that hears the session drops them all (source pinning);
 *       one that does not hear it yet would take the stranger for its publisher, so these reach
 *       only nodes that hold a stream of the session already ({@link NodeHost#reads}), and only on
 *       a topic's one line;</li>
 *   <li>from the session's publisher's address (spoofed): an UNRECOVERABLE that gives up datagrams
 *       far past any it has heard of, which no stream may act on (it has not seen them). Spoofed
 *       DATA, or an UNRECOVERABLE within what was sent, nothing but authentication could tell from
 *       the publisher's own; the stranger sends none.</li>
 * </ul>
 *
 * <p>On an authenticated segment ({@link FaultKind#AUTHENTICATION}) it has no key. It forges all of
 * the above, each from its own address or spoofed (the publisher's of the session it names, or of
 * any), to every node on either line, with no trailer or a made-up one ({@link ForgedTrailers}); and
 * it captures what the nodes send to either port ({@link CapturedDatagrams}) and sends it again, as
 * it was or with a byte changed, from its own address or its sender's, on the line it was read on,
 * as long as the session it names is live (a replay of a session that ended, to a receiver started
 * since, would be taken as the session's: no socket of that receiver heard it).
 */
final class StrangerHost extends SimHost {
    private static final int DATA_LENGTH = DataFlyweight.DATA_HEADER_LENGTH + MessageFrame.FRAME_HEADER_LENGTH + 8;

    private final SplittableRandom random;
    private final SplittableRandom holderRandom;
    /** What it does to trailers on an authenticated segment; null on another. */
    private final ForgedTrailers trailers;
    private final CapturedDatagrams captured = new CapturedDatagrams();
    private final long intervalNs;
    private final int[] topicIds;
    private final UnsafeBuffer out = new UnsafeBuffer(ByteBuffer.allocateDirect(HeaderFlyweight.MAX_DATAGRAM_LENGTH));
    private final List<long[]> liveSessions = new ArrayList<>();
    private final Map<Integer, PublishedSession> sessions;
    private final List<SimSocket> sockets = new ArrayList<>();
    private final HeaderFlyweight header = new HeaderFlyweight();
    private final UnsafeBuffer in = new UnsafeBuffer(new byte[0]);
    private long nextSendNs;
    /** The session a holder reports at a standstill (session id, topic id, position, receiver id); null if none. */
    private long[] held;
    /** Datagrams forged. */
    long sent;

    /**
     * @param random what it forges
     * @param holderRandom whether and how it holds: apart from {@code random}, so that holding
     *     changes nothing of what it forges
     * @param sessions the real sessions, whose ids a made-up session never takes
     * @param authenticated whether the segment's datagrams are signed (with a key it does not have)
     */
    StrangerHost(Scheduler scheduler, List<SimNetwork> lines, HostShape shape, SplittableRandom random,
        SplittableRandom holderRandom, long intervalNs, int[] topicIds, Map<Integer, PublishedSession> sessions,
        boolean authenticated) {
        super(scheduler, lines, "stranger", shape);
        this.random = random;
        this.holderRandom = holderRandom;
        this.trailers = authenticated ? new ForgedTrailers() : null;
        this.intervalNs = intervalNs;
        this.topicIds = topicIds;
        this.sessions = sessions;
    }

    @Override
    void onStart(long nowNs) {
        nextSendNs = nowNs;
        sockets.clear();
        for (int line = 0; line < lines.size(); line++) {
            sockets.add(openSocket(line, FrameType.Port.DATA));
            if (trailers != null) {
                sockets.add(openSocket(line, FrameType.Port.CONTROL));
            }
        }
    }

    @Override
    void onCrash(long nowNs) {
    }

    @Override
    int round(long nowNs) {
        int work = 0;
        for (SimSocket socket : sockets) {
            SimSocket.Arrival arrival;
            for (int read = 0; read < 64 && (arrival = socket.poll()) != null; read++) {
                in.wrap(arrival.datagram());
                if (trailers == null) {
                    learn(in, arrival.datagram().length);
                } else {
                    captured.capture(socket.line, socket.port, arrival, random);
                    if (socket.port == FrameType.Port.DATA) {
                        learn(in, arrival.datagram().length - TrailerLayout.LENGTH);
                    }
                }
                work++;
            }
        }
        if (nowNs >= nextSendNs) {
            nextSendNs = nowNs + intervalNs;
            if (lines.get(0).faults().active(nowNs)) {
                forge();
                work++;
            }
            if (held != null) {
                hold();
                work++;
            }
        }
        return work;
    }

    private void learn(UnsafeBuffer buffer, int length) {
        if (DatagramValidator.check(buffer, 0, length) != DatagramCheck.VALID) {
            return;
        }
        header.wrap(buffer, 0);
        final int type = header.typeCode();
        if (type != FrameType.DATA.code() && type != FrameType.HEARTBEAT.code()) {
            return;
        }
        for (long[] session : liveSessions) {
            if (session[0] == header.sessionId() && session[1] == header.topicId()) {
                session[2] = Math.max(session[2], header.sequence());
                return;
            }
        }
        liveSessions.add(new long[] {header.sessionId(), header.topicId(), header.sequence()});
    }

    private void forge() {
        if (trailers != null && random.nextInt(4) == 0) {
            sendCaptured();
            return;
        }
        final int kind = random.nextInt(17);
        final long[] live = liveSessions.isEmpty() ? null : liveSessions.get(random.nextInt(liveSessions.size()));
        if (kind < 4 && live != null) {
            send(FrameType.Port.CONTROL, writeNak(live));
        } else if (kind < 6 && live != null) {
            send(FrameType.Port.CONTROL, writeStatus(live));
            if (held == null && holderRandom.nextBoolean()) {
                held = new long[] {live[0], live[1], Math.max(0, live[2] - holderRandom.nextInt(100)),
                    holderRandom.nextInt(64)};
            }
        } else if (kind < 9) {
            forgeSession();
        } else if (kind < 11) {
            forgeStray(live != null && random.nextBoolean() ? live : madeUp());
        } else if (kind == 12 && live != null) {
            spoof(live, writeGoneBeyondSent(live));
        } else if (kind > 12 && live != null && (lines.size() == 1 || trailers != null)) {
            send(FrameType.Port.DATA, writeInSessionsName(kind - 13, live));
        } else {
            final int length = 1 + random.nextInt(200);
            for (int i = 0; i < length; i++) {
                out.putByte(i, (byte) random.nextInt());
            }
            send(random.nextBoolean() ? FrameType.Port.DATA : FrameType.Port.CONTROL, length);
        }
    }

    /** Sends what it forged on one line: with two, either at random. */
    private void send(FrameType.Port port, int length) {
        send(random, port, length);
    }

    /**
     * Sends what it forged on one line, drawn from {@code draws} (as is, on an authenticated segment,
     * its trailer and whether it goes from its own address or a spoofed one).
     */
    private void send(SplittableRandom draws, FrameType.Port port, int length) {
        final int line = lines.size() == 1 ? 0 : draws.nextInt(lines.size());
        if (trailers == null) {
            transmit(line, port, out, 0, length);
        } else {
            final int source = draws.nextBoolean() ? id : spoofedSource(draws, length);
            transmitAs(source, line, port, out, 0, trailers.dress(out, length, draws));
        }
        sent++;
    }

    /** Sends what it forged to the data port with the address of {@code session}'s publisher. */
    private void spoof(long[] session, int length) {
        final int publisher = sessions.get((int) session[0]).host.id;
        final int line = lines.size() == 1 ? 0 : random.nextInt(lines.size());
        transmitAs(publisher, line, FrameType.Port.DATA, out, 0,
            trailers == null ? length : trailers.dress(out, length, random));
        sent++;
    }

    /**
     * The address a forgery of {@code length} bytes at the start of {@code out} goes out from when
     * spoofed: that of the publisher of the real session it names, or of a live session's, or its own
     * if it knows none.
     */
    private int spoofedSource(SplittableRandom draws, int length) {
        PublishedSession named = length < HeaderFlyweight.HEADER_LENGTH ? null
            : sessions.get(HeaderFlyweight.sessionIdAt(out, 0));
        if (named == null && !liveSessions.isEmpty()) {
            named = sessions.get((int) liveSessions.get(draws.nextInt(liveSessions.size()))[0]);
        }
        return named == null ? id : named.host.id;
    }

    /**
     * On an authenticated segment: a signed datagram it captured of a live session, sent again on
     * the line and to the port it was read on, from its own address or its sender's, as it was or, one
     * time in three, with a byte changed. Nothing if it holds none of a live session.
     */
    private void sendCaptured() {
        final CapturedDatagrams.Captured copy = captured.pick(random, sessionId -> {
            final PublishedSession session = sessions.get(sessionId);
            return session != null && !session.mayBeGone();
        });
        if (copy == null) {
            return;
        }
        final byte[] datagram = random.nextInt(3) == 0 ? trailers.tamper(copy.datagram(), random) : copy.datagram();
        transmitAs(random.nextBoolean() ? id : copy.source(), copy.line(), copy.port(), new UnsafeBuffer(datagram), 0,
            datagram.length);
        sent++;
    }

    /**
     * A datagram in {@code session}'s name: DATA ahead of the highest it sent, a RETRANSMIT of one it
     * sent, its END_OF_STREAM at the highest, or an UNRECOVERABLE within what it sent, by {@code variant}.
     */
    private int writeInSessionsName(int variant, long[] session) {
        final int sessionId = (int) session[0];
        final int topicId = (int) session[1];
        final long highest = session[2];
        switch (variant) {
            case 0 -> {
                writeData(FrameType.DATA, sessionId, topicId, highest + 1 + random.nextInt(500));
                return DATA_LENGTH;
            }
            case 1 -> {
                writeData(FrameType.RETRANSMIT, sessionId, topicId, Math.max(0, highest - random.nextInt(100)));
                return DATA_LENGTH;
            }
            case 2 -> {
                final int length = writeHeartbeat(sessionId, topicId, highest);
                final HeartbeatFlyweight heartbeat = new HeartbeatFlyweight();
                heartbeat.wrap(out, 0);
                heartbeat.endOfStream(true);
                return length;
            }
            default -> {
                final UnrecoverableFlyweight gone = new UnrecoverableFlyweight();
                gone.wrap(out, 0);
                final long from = random.nextLong(Math.max(1, highest + 1));
                gone.writeHeader(FrameType.UNRECOVERABLE, UnrecoverableFlyweight.UNRECOVERABLE_LENGTH, sessionId,
                    topicId, 0);
                gone.lostRange(from, Math.min(Math.max(from, highest), from + random.nextInt(100)),
                    random.nextInt(1 << 20));
                return UnrecoverableFlyweight.UNRECOVERABLE_LENGTH;
            }
        }
    }

    /** A session it makes up (an id no real session has) on a real topic, as {session, topic, sequence}. */
    private long[] madeUp() {
        int sessionId;
        do {
            sessionId = random.nextInt();
        } while (sessionId == 0 || sessions.containsKey(sessionId));
        return new long[] {sessionId, topicIds[random.nextInt(topicIds.length)], random.nextInt(1 << 16)};
    }

    /** A datagram of {@code session} to the port where its type does not belong. */
    private void forgeStray(long[] session) {
        switch (random.nextInt(4)) {
            case 0 -> send(FrameType.Port.DATA, writeNak(session));
            case 1 -> send(FrameType.Port.DATA, writeStatus(session));
            case 2 -> send(FrameType.Port.CONTROL, writeHeartbeat((int) session[0], (int) session[1], session[2]));
            default -> {
                writeData(FrameType.DATA, (int) session[0], (int) session[1], session[2]);
                send(FrameType.Port.CONTROL, DATA_LENGTH);
            }
        }
    }

    private int writeNak(long[] session) {
        final NakFlyweight nak = new NakFlyweight();
        nak.wrap(out, 0);
        final long from = random.nextBoolean() ? 0 : random.nextLong(Math.max(1, session[2] + 1));
        final long to = random.nextBoolean() ? 1L << 62 : from + random.nextInt(1000);
        nak.writeHeader(FrameType.NAK, NakFlyweight.lengthFor(1), (int) session[0], (int) session[1], 0);
        nak.receiverId(random.nextInt()).rangeCount(1).range(0, from, to);
        return NakFlyweight.lengthFor(1);
    }

    /**
     * An UNRECOVERABLE of {@code session} from a datagram it has sent to one far past the highest it
     * has sent (more than ten thousand past what the stranger last read of it): the row of a forged
     * UNRECOVERABLE that would give up a stream's future.
     */
    private int writeGoneBeyondSent(long[] session) {
        final UnrecoverableFlyweight gone = new UnrecoverableFlyweight();
        gone.wrap(out, 0);
        final long from = random.nextLong(Math.max(1, session[2] + 1));
        gone.writeHeader(FrameType.UNRECOVERABLE, UnrecoverableFlyweight.UNRECOVERABLE_LENGTH, (int) session[0],
            (int) session[1], 0);
        gone.lostRange(from, session[2] + 10_000 + random.nextInt(1_000_000), random.nextInt(1 << 20));
        return UnrecoverableFlyweight.UNRECOVERABLE_LENGTH;
    }

    private int writeStatus(long[] session) {
        final StatusFlyweight status = new StatusFlyweight();
        status.wrap(out, 0);
        final long position = switch (random.nextInt(4)) {
            case 0 -> 0;
            case 1 -> Long.MAX_VALUE - random.nextInt(10);
            case 2 -> session[2] + 1 + random.nextInt(100);
            default -> Math.max(0, session[2] - random.nextInt(100));
        };
        status.writeHeader(
            FrameType.STATUS, StatusFlyweight.STATUS_LENGTH, (int) session[0], (int) session[1], position);
        status.receiverId(random.nextInt(64));
        return StatusFlyweight.STATUS_LENGTH;
    }

    /**
     * What it holds: the session id, topic id, position and made-up receiver id it reports to the
     * end of the run; null while it holds nothing.
     */
    long[] held() {
        return held;
    }

    /** Reports the held session's made-up receiver at its standstill again. */
    private void hold() {
        final StatusFlyweight status = new StatusFlyweight();
        status.wrap(out, 0);
        status.writeHeader(FrameType.STATUS, StatusFlyweight.STATUS_LENGTH, (int) held[0], (int) held[1], held[2]);
        status.receiverId((int) held[3]);
        send(holderRandom, FrameType.Port.CONTROL, StatusFlyweight.STATUS_LENGTH);
    }

    /** The datagrams of a session it makes up: a heartbeat, or two DATA with a gap between them. */
    private void forgeSession() {
        final long[] session = madeUp();
        if (random.nextBoolean()) {
            send(FrameType.Port.DATA, writeHeartbeat((int) session[0], (int) session[1], random.nextInt(1 << 20)));
            return;
        }
        for (int i = 0; i < 2; i++) {
            writeData(FrameType.DATA, (int) session[0], (int) session[1], session[2] + 2 * i);
            send(FrameType.Port.DATA, DATA_LENGTH);
        }
    }

    private int writeHeartbeat(int sessionId, int topicId, long highestSequence) {
        final HeartbeatFlyweight heartbeat = new HeartbeatFlyweight();
        heartbeat.wrap(out, 0);
        heartbeat.writeHeader(FrameType.HEARTBEAT, HeartbeatFlyweight.HEARTBEAT_LENGTH, sessionId, topicId,
            highestSequence);
        heartbeat.oldestSequence(0).publisherId(random.nextLong());
        return HeartbeatFlyweight.HEARTBEAT_LENGTH;
    }

    /** A DATA (or RETRANSMIT) datagram of one 8-byte message; {@link #DATA_LENGTH} long. */
    private void writeData(FrameType type, int sessionId, int topicId, long sequence) {
        final DataFlyweight data = new DataFlyweight();
        data.wrap(out, 0);
        data.writeHeader(type, DATA_LENGTH, sessionId, topicId, sequence);
        data.completedMessages(sequence);
        MessageFrame.write(out, DataFlyweight.DATA_HEADER_LENGTH, 8, MessageFrame.UNFRAGMENTED);
    }
}
