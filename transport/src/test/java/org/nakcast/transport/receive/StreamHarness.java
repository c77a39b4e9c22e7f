package org.nakcast.transport.receive;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.nakcast.transport.LineDown;
import org.nakcast.transport.LineUp;
import org.nakcast.transport.LossEvent;
import org.nakcast.transport.MessageHeader;
import org.nakcast.transport.StreamEventListener;
import org.nakcast.transport.StreamStarted;
import org.nakcast.transport.media.DatagramSink;
import org.nakcast.transport.protocol.DatagramValidator;
import org.nakcast.transport.protocol.HeaderFlyweight;
import org.nakcast.transport.protocol.NakFlyweight;
import org.nakcast.transport.status.DatagramCheck;
import org.nakcast.transport.status.SystemCounter;
import org.nakcast.transport.testing.DataDatagramBuilder;
import org.nakcast.transport.testing.TestCounters;

/**
 * One {@link InboundStream} wired to recorders, with a stepped clock: what the contract tests drive.
 * Records messages, stream events and NAKs in one event log, in the order they happened.
 */
final class StreamHarness implements MessageBytesHandler, StreamEventListener, DatagramSink {
    static final int TOPIC = 7;
    static final int SESSION = 0x5E55;
    static final int RECEIVER = 42;
    static final long SEED = 1234;

    /** A message delivered to the handler. */
    record Delivered(long index, int topicId, int sessionId, String text) {
    }

    /** A stream start raised to the listener. */
    record Started(int topicId, int sessionId, long firstSequence) {
    }

    /** An inclusive range of sequences in a NAK. */
    record Range(long from, long to) {
    }

    /** A NAK handed to the sink, decoded. */
    record SentNak(int typeCode, int sessionId, int topicId, long sequence, int receiverId, List<Range> ranges) {
    }

    final TestCounters counters = new TestCounters();
    final DataDatagramBuilder builder = new DataDatagramBuilder(SESSION, TOPIC);
    private final HeartbeatDatagram heartbeats = new HeartbeatDatagram(TOPIC, SESSION);
    final List<Object> events = new ArrayList<>();
    final InboundStream stream;
    long nowNs = 1_000_000_000L;
    /** The line the next datagrams come on: 0, or 1 once the stream arbitrates two. */
    int line;
    boolean sinkRefuses;
    String handlerThrowsOn;
    DirectBuffer lastMessageBuffer;
    int lastMessageOffset;

    StreamHarness() {
        this(InboundStreamSettings.DEFAULTS);
    }

    StreamHarness(InboundStreamSettings settings) {
        stream = new InboundStream(TOPIC, SESSION, RECEIVER, settings, new SplittableRandom(SEED), this, this, this,
            new UnsafeBuffer(ByteBuffer.allocateDirect(HeaderFlyweight.MAX_DATAGRAM_LENGTH)), counters.counters());
    }

    static byte[] text(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }

    /** Sends a DATA datagram of whole messages. */
    StreamHarness data(long sequence, long completedMessages, String... messages) {
        return datagram(false, sequence, completedMessages, messages);
    }

    /** Sends a RETRANSMIT datagram of whole messages. */
    StreamHarness retransmit(long sequence, long completedMessages, String... messages) {
        return datagram(true, sequence, completedMessages, messages);
    }

    private StreamHarness datagram(boolean retransmit, long sequence, long completedMessages, String... messages) {
        builder.start(sequence, completedMessages).retransmit(retransmit);
        for (String message : messages) {
            builder.message(text(message));
        }
        return deliverBuilt(retransmit);
    }

    /** Hands the datagram in the builder to the stream; it must pass the checks, as the stream's caller ensures. */
    StreamHarness deliverBuilt(boolean retransmit) {
        final DatagramCheck check = DatagramValidator.check(builder.buffer(), 0, builder.length());
        if (check != DatagramCheck.VALID) {
            throw new AssertionError("a test built an invalid datagram: " + check);
        }
        stream.onData(line, builder.buffer(), 0, builder.length(), retransmit, nowNs);
        return this;
    }

    StreamHarness heartbeat(long highestSequence) {
        stream.onHeartbeat(line, heartbeats.saying(highestSequence), nowNs);
        return this;
    }

    /** Makes the next datagrams come on {@code next}. */
    StreamHarness on(int next) {
        line = next;
        return this;
    }

    StreamHarness advance(long ns) {
        nowNs += ns;
        return this;
    }

    /** Steps the clock to the NAK deadline and polls. */
    StreamHarness pollAtDeadline() {
        nowNs = stream.naks().deadlineNs();
        stream.poll(nowNs);
        return this;
    }

    int poll() {
        return stream.poll(nowNs);
    }

    long counter(SystemCounter counter) {
        return counters.get(counter);
    }

    <T> List<T> eventsOf(Class<T> type) {
        return events.stream().filter(type::isInstance).map(type::cast).toList();
    }

    List<Delivered> delivered() {
        return eventsOf(Delivered.class);
    }

    List<String> deliveredTexts() {
        return delivered().stream().map(Delivered::text).toList();
    }

    List<LossEvent> losses() {
        return eventsOf(LossEvent.class);
    }

    List<SentNak> naks() {
        return eventsOf(SentNak.class);
    }

    List<Range> lastNakRanges() {
        final List<SentNak> naks = naks();
        return naks.get(naks.size() - 1).ranges();
    }

    /** A NAK from another receiver with these ranges, as {from, to} pairs. */
    static NakFlyweight nakFromOther(long... bounds) {
        return nakFrom(RECEIVER + 1, bounds);
    }

    /** A NAK from receiver {@code receiverId} with these ranges, as {from, to} pairs. */
    static NakFlyweight nakFrom(int receiverId, long... bounds) {
        final NakFlyweight nak = new NakFlyweight();
        nak.wrap(new UnsafeBuffer(new byte[NakFlyweight.lengthFor(bounds.length / 2)]), 0);
        nak.rangeCount(bounds.length / 2).receiverId(receiverId);
        for (int i = 0; i < bounds.length / 2; i++) {
            nak.range(i, bounds[2 * i], bounds[2 * i + 1]);
        }
        return nak;
    }

    @Override
    public void onMessage(DirectBuffer buffer, int offset, int length, MessageHeader header) {
        lastMessageBuffer = buffer;
        lastMessageOffset = offset;
        final String text = buffer.getStringWithoutLengthAscii(offset, length);
        events.add(new Delivered(header.messageIndex(), header.topicId(), header.sessionId(), text));
        if (text.equals(handlerThrowsOn)) {
            throw new IllegalStateException("handler failed on " + text);
        }
    }

    @Override
    public void onStreamStarted(StreamStarted started) {
        events.add(new Started(started.topicId(), started.sessionId(), started.firstSequence()));
    }

    @Override
    public void onLoss(LossEvent event) {
        events.add(event);
    }

    @Override
    public void onLineDown(LineDown event) {
        events.add(event);
    }

    @Override
    public void onLineUp(LineUp event) {
        events.add(event);
    }

    @Override
    public boolean send(DirectBuffer buffer, int offset, int length) {
        if (sinkRefuses) {
            return false;
        }
        final NakFlyweight nak = new NakFlyweight();
        final UnsafeBuffer copy = new UnsafeBuffer(new byte[length]);
        copy.putBytes(0, buffer, offset, length);
        nak.wrap(copy, 0);
        final List<Range> ranges = new ArrayList<>();
        for (int i = 0; i < nak.rangeCount(); i++) {
            ranges.add(new Range(nak.rangeFrom(i), nak.rangeTo(i)));
        }
        final DatagramCheck check = DatagramValidator.check(copy, 0, length);
        if (check != DatagramCheck.VALID) {
            throw new AssertionError("the stream sent a NAK that fails the checks: " + check);
        }
        events.add(new SentNak(nak.typeCode(), nak.sessionId(), nak.topicId(), nak.sequence(), nak.receiverId(),
            ranges));
        return true;
    }
}
