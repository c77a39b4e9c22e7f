package org.nakcast.benchmarks.throughput;

import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.time.Duration;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import org.agrona.concurrent.UnsafeBuffer;
import org.nakcast.config.AuthKeys;
import org.nakcast.config.TransportConfig;
import org.nakcast.transport.protocol.DatagramValidator;
import org.nakcast.transport.protocol.FrameType;
import org.nakcast.transport.protocol.HeaderFlyweight;
import org.nakcast.transport.protocol.NakFlyweight;
import org.nakcast.transport.status.DatagramCheck;

/**
 * A stranger on the segment who NAKs a live stream's whole history (sequences 0 to 2^62) every
 * interval, as anyone who can read the group's traffic could: a thread of the orchestrating JVM
 * (inside the run's private namespace) that listens on the transport's data port until a valid
 * DATA or HEARTBEAT of the run's topic tells it the publisher's session id, stops listening, then
 * multicasts a NAK forged with the protocol's flyweights to the control port ({@code port + 1})
 * every interval until closed. The NAK asks for more datagrams than one NAK may (a receiver asks for
 * at most {@link NakFlyweight#MAX_DATAGRAMS_ASKED}), so nakcast counts it as malformed and answers
 * none of it: what the run measures is what checking and dropping it costs the stream. (The same
 * history asked for in valid NAKs costs the stream its repair budget; {@code NakFloodIT} holds a
 * publisher to that.)
 */
final class StrangerNaks implements AutoCloseable {
    /** The last sequence the forged NAK asks for: the whole history of any stream. */
    static final long LAST_ASKED = 1L << 62;
    /** The receiver id the forged NAKs carry ("57RA" in ASCII). */
    static final int STRANGER_ID = 0x3537_5241;
    private static final long LISTEN_PARK_NS = TimeUnit.MICROSECONDS.toNanos(100);
    private static final long JOIN_TIMEOUT_MS = 5_000;

    private final TransportConfig transport;
    private final int topicId;
    private final long intervalNs;
    private final PrintStream log;
    private final Thread thread;
    private volatile boolean running = true;
    private volatile long naksSent;

    private StrangerNaks(TransportConfig transport, int topicId, Duration interval, PrintStream log) {
        this.transport = transport;
        this.topicId = topicId;
        this.intervalNs = interval.toNanos();
        this.log = log;
        this.thread = new Thread(this::run, "stranger-naks");
        this.thread.setDaemon(true);
    }

    /**
     * Starts the stranger of {@code run}; one that does nothing when the run has none.
     *
     * @param log where a failure of the stranger's sockets is told
     */
    static StrangerNaks start(RunSettings run, PrintStream log) {
        final TransportConfig transport = run.nodeConfig().lines(run.nodeConfig().topic(RunSettings.TOPIC)).get(0);
        return start(transport, run.nodeConfig().topic(RunSettings.TOPIC).id(), run.strangerNaks(), log);
    }

    /**
     * Starts a stranger that floods the first session of {@code topicId} heard on {@code transport},
     * every {@code interval}; one that does nothing for a zero interval.
     */
    static StrangerNaks start(TransportConfig transport, int topicId, Duration interval, PrintStream log) {
        final StrangerNaks stranger = new StrangerNaks(transport, topicId, interval, log);
        if (!interval.isZero()) {
            stranger.thread.start();
        }
        return stranger;
    }

    /** The forged NAKs sent so far. */
    long naksSent() {
        return naksSent;
    }

    /** Stops the stranger and waits for its thread (keeping the interrupt if one comes meanwhile). */
    @Override
    public void close() {
        running = false;
        try {
            thread.join(JOIN_TIMEOUT_MS);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Writes the forged NAK: stream {@code sessionId} x {@code topicId}, receiver {@link #STRANGER_ID},
     * one range, 0 to {@link #LAST_ASKED}.
     *
     * @return its length
     */
    static int forge(UnsafeBuffer buffer, int sessionId, int topicId) {
        final int length = NakFlyweight.lengthFor(1);
        final NakFlyweight nak = new NakFlyweight();
        nak.wrap(buffer, 0);
        nak.writeHeader(FrameType.NAK, length, sessionId, topicId, 0);
        nak.receiverId(STRANGER_ID).rangeCount(1).range(0, 0, LAST_ASKED);
        return length;
    }

    /**
     * The session of a live stream of topic {@code topicId}, if the datagram read off the data port
     * is a valid DATA or HEARTBEAT of that topic; an authenticated one read without its trailer, as
     * anyone on the segment can.
     */
    static OptionalInt sessionOf(UnsafeBuffer buffer, int length, int topicId) {
        final boolean signed = length >= HeaderFlyweight.HEADER_LENGTH + AuthKeys.TRAILER_BYTES
            && HeaderFlyweight.datagramLengthAt(buffer, 0) == length - AuthKeys.TRAILER_BYTES;
        if (DatagramValidator.check(buffer, 0, signed ? length - AuthKeys.TRAILER_BYTES : length)
            != DatagramCheck.VALID) {
            return OptionalInt.empty();
        }
        final HeaderFlyweight header = new HeaderFlyweight().wrap(buffer, 0);
        final int type = header.typeCode();
        return (type == FrameType.DATA.code() || type == FrameType.HEARTBEAT.code()) && header.topicId() == topicId
            ? OptionalInt.of(header.sessionId())
            : OptionalInt.empty();
    }

    private void run() {
        try {
            final NetworkInterface nic = NetworkInterface.getByName(transport.networkInterface().name());
            final OptionalInt sessionId = learnSession(nic);
            if (sessionId.isPresent()) {
                flood(nic, sessionId.getAsInt());
            }
        } catch (IOException | RuntimeException ex) {
            log.println("stranger NAKs stopped: " + ex);
        }
    }

    /** Listens on the data port until a datagram of the topic names its session; empty if closed first. */
    private OptionalInt learnSession(NetworkInterface nic) throws IOException {
        final ByteBuffer bytes = ByteBuffer.allocateDirect(HeaderFlyweight.MAX_DATAGRAM_LENGTH + 1);
        final UnsafeBuffer buffer = new UnsafeBuffer(bytes);
        try (DatagramChannel listener = DatagramChannel.open(StandardProtocolFamily.INET)) {
            listener.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            listener.bind(new InetSocketAddress(transport.group(), transport.port()));
            listener.join(transport.group(), nic);
            listener.configureBlocking(false);
            while (running) {
                bytes.clear();
                if (listener.receive(bytes) == null) {
                    LockSupport.parkNanos(LISTEN_PARK_NS);
                    continue;
                }
                final OptionalInt sessionId = sessionOf(buffer, bytes.position(), topicId);
                if (sessionId.isPresent()) {
                    return sessionId;
                }
            }
        }
        return OptionalInt.empty();
    }

    /** Sends the forged NAK every interval until closed; a late wake-up does not send a burst to catch up. */
    private void flood(NetworkInterface nic, int sessionId) throws IOException {
        final ByteBuffer bytes = ByteBuffer.allocateDirect(NakFlyweight.lengthFor(1));
        final int length = forge(new UnsafeBuffer(bytes), sessionId, topicId);
        final InetSocketAddress controlPort = new InetSocketAddress(transport.group(), transport.port() + 1);
        try (DatagramChannel sender = DatagramChannel.open(StandardProtocolFamily.INET)) {
            sender.setOption(StandardSocketOptions.IP_MULTICAST_IF, nic);
            sender.setOption(StandardSocketOptions.IP_MULTICAST_TTL, transport.ttl());
            sender.setOption(StandardSocketOptions.IP_MULTICAST_LOOP, true);
            sender.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            long nextNs = System.nanoTime();
            while (running) {
                bytes.clear().limit(length);
                sender.send(bytes, controlPort);
                naksSent++;
                nextNs = Math.max(nextNs + intervalNs, System.nanoTime());
                LockSupport.parkNanos(nextNs - System.nanoTime());
            }
        }
    }
}
