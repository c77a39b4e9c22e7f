package org.nakcast.transport.receive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.nakcast.config.LateJoinPolicy;
import org.nakcast.transport.LineDown;
import org.nakcast.transport.LineUp;
import org.nakcast.transport.LossEvent;
import org.nakcast.transport.MessageHeader;
import org.nakcast.transport.StreamEventListener;
import org.nakcast.transport.protocol.HeaderFlyweight;
import org.nakcast.transport.status.SystemCounter;
import org.nakcast.transport.testing.DataDatagramBuilder;
import org.nakcast.transport.testing.TestCounters;
import org.junit.jupiter.api.Test;

/**
 * A topic's subscriptions do not harm each other: a throwing handler, a queue nobody polls, a
 * message longer than a queue's largest record. One stream feeds a {@link TopicReceiver} with two
 * subscriptions, on a stepped clock.
 */
class TopicReceiverTest {
    private static final int TOPIC = 3;
    private static final int SESSION = 77;
    private static final long TIMEOUT_NS = 100_000_000;
    private static final int QUEUE_BYTES = 64 * 1024;

    private final TestCounters counters = new TestCounters();
    private final List<Throwable> errors = new ArrayList<>();
    private final DataDatagramBuilder builder = new DataDatagramBuilder(SESSION, TOPIC);
    private final TopicReceiver topic;
    private final InboundStream stream;
    private long nowNs = 1_000_000_000L;

    TopicReceiverTest() throws Exception {
        final SubscriptionSettings settings = new SubscriptionSettings("t", TOPIC,
            List.of(TestLines.lineA()), 0,
            InboundStreamSettings.DEFAULTS, 2_000_000_000L, LateJoinPolicy.NOW, 100_000_000L, 0, 64, TIMEOUT_NS,
            List.of(), Map.of());
        final UnsafeBuffer nakBuffer = new UnsafeBuffer(ByteBuffer.allocateDirect(HeaderFlyweight.MAX_DATAGRAM_LENGTH));
        topic = new TopicReceiver(settings, ReceiverLog.NONE, errors::add, counters.counters());
        stream = new InboundStream(TOPIC, SESSION, 1, settings.streamSettings(), new SplittableRandom(1), topic, topic,
            (buffer, offset, length) -> true, nakBuffer, counters.counters());
        stream.deliverWhen(topic);
    }

    @Test
    void aHandlerThatThrowsIsReportedAndNeitherItNorAnotherSubscriptionMissesAMessage() {
        final Recorder thrower = new Recorder("m1");
        final Recorder other = new Recorder(null);
        final DeliveryTarget throwing = DeliveryTarget.onReceivingThread(thrower, thrower);
        final DeliveryTarget calm = DeliveryTarget.onReceivingThread(other, other);
        topic.add(throwing);
        topic.add(calm);

        data(0, 0, "m0", "m1", "m2").data(1, 3, "m3");

        assertThat(thrower.messages).containsExactly("m0", "m1", "m2", "m3");
        assertThat(other.messages).containsExactly("m0", "m1", "m2", "m3");
        assertThat(errors).singleElement().extracting(Throwable::getMessage).isEqualTo("handler failed on m1");
        assertThat(counters.get(SystemCounter.HANDLER_ERRORS)).isOne();
        assertThat(throwing.handlerErrors()).as("counted for its subscription").isOne();
        assertThat(calm.handlerErrors()).isZero();
    }

    @Test
    void aQueuedSubscriptionsHandlerThatThrowsReachesThePollerAndIsCountedForItsSubscription() {
        final Recorder thrower = new Recorder("m1");
        final QueuedDelivery queue = new QueuedDelivery(64 * 1024, thrower, thrower);
        topic.add(queue);

        data(0, 0, "m0", "m1", "m2");

        assertThatIllegalStateException().isThrownBy(() -> queue.poll(10)).withMessage("handler failed on m1");
        assertThat(queue.handlerErrors()).isOne();
        queue.poll(10);
        assertThat(thrower.messages).containsExactly("m0", "m1", "m2");
        assertThat(queue.handlerErrors()).isOne();
        assertThat(counters.get(SystemCounter.HANDLER_ERRORS)).as("the poller's to count and report").isZero();
    }

    @Test
    void aFullQueueHoldsTheTopicForAtMostTheTimeoutThenMissesExactlyWhatArrivesUntilItHasRoom() {
        final Recorder stuck = new Recorder(null);
        final QueuedDelivery queue = new QueuedDelivery(QUEUE_BYTES, stuck, stuck);
        final Recorder other = new Recorder(null);
        topic.add(queue);
        topic.add(DeliveryTarget.onReceivingThread(other, other));
        final String big = "x".repeat(1_000);
        final long queued = fill(queue);
        final long sequence = queued;
        assertThat(other.messages).hasSize((int) queued);

        advance(TIMEOUT_NS - 1).poll();
        assertThat(other.messages).as("held while the queue may still make room").hasSize((int) queued);

        advance(1).poll();
        data(sequence + 1, sequence + 1, big);
        assertThat(other.messages).as("the timeout passed: the others go on").hasSize((int) queued + 2);
        assertThat(counters.get(SystemCounter.SUBSCRIPTION_OVERRUN_MESSAGES)).isEqualTo(2);

        queue.poll(Integer.MAX_VALUE);
        data(sequence + 2, sequence + 2, big);
        queue.poll(Integer.MAX_VALUE);

        assertThat(stuck.messages).hasSize((int) queued + 1);
        assertThat(stuck.losses).containsExactly(new LossEvent(TOPIC, SESSION, queued, queued + 1, queued, 2,
            LossEvent.Cause.SUBSCRIPTION_OVERRUN, false));
        assertThat(stuck.indexes.get(stuck.indexes.size() - 1)).isEqualTo(queued + 2);
    }

    @Test
    void anOverrunSubscriptionIsToldWhatItMissedAsSoonAsItHasRoomEvenIfNothingMoreArrives() {
        final Recorder stuck = new Recorder(null);
        final QueuedDelivery queue = new QueuedDelivery(QUEUE_BYTES, stuck, stuck);
        topic.add(queue);
        final long sequence = fill(queue);
        advance(TIMEOUT_NS).poll();

        queue.poll(Integer.MAX_VALUE);
        poll();
        queue.poll(Integer.MAX_VALUE);

        assertThat(stuck.losses).singleElement().extracting(LossEvent::firstMessage, LossEvent::lostMessages)
            .containsExactly(sequence, 1L);
    }

    @Test
    void lineEventsReachEverySubscriptionInOrderWithItsMessagesQueuedOrNot() {
        final Recorder queued = new Recorder(null);
        final QueuedDelivery queue = new QueuedDelivery(QUEUE_BYTES, queued, queued);
        final Recorder direct = new Recorder(null);
        topic.add(queue);
        topic.add(DeliveryTarget.onReceivingThread(direct, direct));

        data(0, 0, "m0");
        topic.onLineDown(new LineDown(TOPIC, SESSION, "md-b", 12_000_000));
        data(1, 1, "m1");
        topic.onLineUp(new LineUp(TOPIC, SESSION, "md-b", 40_000_000));
        data(2, 2, "m2");
        queue.poll(Integer.MAX_VALUE);

        for (Recorder recorder : List.of(queued, direct)) {
            assertThat(recorder.order).containsExactly("m0", new LineDown(TOPIC, SESSION, "md-b", 12_000_000), "m1",
                new LineUp(TOPIC, SESSION, "md-b", 40_000_000), "m2");
        }
    }

    @Test
    void aMessageLongerThanTheQueuesLargestRecordArrivesWholeInPieces() {
        final Recorder polled = new Recorder(null);
        final QueuedDelivery queue = new QueuedDelivery(QUEUE_BYTES, polled, polled);
        final UnsafeBuffer message = new UnsafeBuffer(new byte[QUEUE_BYTES / 2]);
        for (int i = 0; i < message.capacity(); i++) {
            message.putByte(i, (byte) i);
        }

        assertThat(queue.offer(message, 0, message.capacity(), new MessageHeader().set(TOPIC, SESSION, 9, 4)))
            .isTrue();
        queue.poll(Integer.MAX_VALUE);

        assertThat(polled.lengths).containsExactly(message.capacity());
        assertThat(polled.indexes).containsExactly(9L);
        assertThat(polled.lastBytes).isEqualTo(message.byteArray());
    }

    /**
     * Sends datagrams of one long message each until the queue, never polled, holds the topic up.
     *
     * @return how many were queued: the held datagram has that sequence and message index
     */
    private long fill(QueuedDelivery queue) {
        long sequence = 0;
        while (true) {
            final int before = queue.capacity();
            data(sequence, sequence, "x".repeat(1_000));
            if (stream.expectedSequence() == sequence) {
                return sequence;
            }
            sequence++;
            assertThat(sequence).as("a queue of %d bytes fills", before).isLessThan(1_000);
        }
    }

    private TopicReceiverTest data(long sequence, long completedMessages, String... messages) {
        builder.start(sequence, completedMessages);
        for (String message : messages) {
            builder.message(message.getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        }
        stream.onData(0, builder.buffer(), 0, builder.length(), false, nowNs);
        return this;
    }

    private TopicReceiverTest advance(long ns) {
        nowNs += ns;
        return this;
    }

    private void poll() {
        stream.poll(nowNs);
        topic.poll();
    }

    /** One subscription's callbacks, recorded; it throws on the message {@code throwsOn}. */
    private static final class Recorder implements MessageBytesHandler, StreamEventListener {
        private final String throwsOn;
        private final List<String> messages = new ArrayList<>();
        private final List<Long> indexes = new ArrayList<>();
        private final List<Integer> lengths = new ArrayList<>();
        private final List<LossEvent> losses = new ArrayList<>();
        /** Short messages' texts and line events, in the order they came. */
        private final List<Object> order = new ArrayList<>();
        private byte[] lastBytes;

        Recorder(String throwsOn) {
            this.throwsOn = throwsOn;
        }

        @Override
        public void onMessage(DirectBuffer buffer, int offset, int length, MessageHeader header) {
            lastBytes = new byte[length];
            buffer.getBytes(offset, lastBytes);
            final String text = length < 100 ? new String(lastBytes, java.nio.charset.StandardCharsets.US_ASCII) : "";
            messages.add(text);
            order.add(text);
            indexes.add(header.messageIndex());
            lengths.add(length);
            if (text.equals(throwsOn)) {
                throw new IllegalStateException("handler failed on " + text);
            }
        }

        @Override
        public void onLoss(LossEvent event) {
            losses.add(event);
        }

        @Override
        public void onLineDown(LineDown event) {
            order.add(event);
        }

        @Override
        public void onLineUp(LineUp event) {
            order.add(event);
        }
    }
}
