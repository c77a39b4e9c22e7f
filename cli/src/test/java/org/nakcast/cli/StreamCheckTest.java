package org.nakcast.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.nakcast.config.ByteSize;
import org.nakcast.config.FlowControlMode;
import org.nakcast.config.LateJoinPolicy;
import org.nakcast.config.TopicConfig;
import org.nakcast.transport.LineDown;
import org.nakcast.transport.LineUp;
import org.nakcast.transport.LossEvent;
import org.nakcast.transport.MessageHeader;
import org.nakcast.transport.RecoveryStarted;
import org.nakcast.transport.PublisherGone;
import org.nakcast.transport.StreamStarted;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

class StreamCheckTest {
    private static final int SESSION = 77;
    private static final TopicConfig PRICES = new TopicConfig("prices", 1, "local", "flyweight");

    private final UnsafeBuffer buffer = new UnsafeBuffer(ByteBuffer.allocateDirect(64));
    private final MessageHeader header = new MessageHeader();

    @Test
    void everyNumberOnceInOrderPasses() {
        final StreamCheck check = check(5);
        for (long number = 0; number < 5; number++) {
            deliver(check, SESSION, number);
        }

        assertThat(check.complete()).isTrue();
        assertThat(check.passed(false)).isTrue();
        assertThat(check.problems(false, 1)).isEmpty();
    }

    @Test
    void aRepeatIsADuplicateAndALateNumberIsOutOfOrder() {
        final StreamCheck check = check(4);
        deliver(check, SESSION, 0);
        deliver(check, SESSION, 2);
        deliver(check, SESSION, 1);
        deliver(check, SESSION, 2);
        deliver(check, SESSION, 3);

        assertThat(check.received()).isEqualTo(4);
        assertThat(check.duplicates()).isOne();
        assertThat(check.outOfOrder()).isOne();
        assertThat(check.passed(false)).isFalse();
        assertThat(check.problems(false, 1)).containsExactly("1 duplicates", "1 out of order");
    }

    @Test
    void numbersOutsideTheRangeShortMessagesAndOtherSessionsAreCountedApart() {
        final StreamCheck check = check(2);
        deliver(check, SESSION, 0);
        deliver(check, SESSION, 2);
        deliver(check, SESSION + 1, 1);
        check.onMessage(new UnsafeBuffer(buffer, 0, 4), header.set(1, SESSION, 3, 0));
        deliver(check, SESSION, 1);

        assertThat(check.complete()).isTrue();
        assertThat(check.problems(false, 1)).containsExactly(
            "1 numbered outside 0..1", "1 shorter than 8 bytes",
            "1 from another publisher session (one publisher at a time)");
    }

    @Test
    void missingMessagesLossEventsAndATimeoutAreReported() {
        final StreamCheck check = check(10);
        deliver(check, SESSION, 0);
        check.onLoss(new LossEvent(1, SESSION, 3, 4, 1, 6, LossEvent.Cause.UNRECOVERABLE, false));
        for (long number = 7; number < 10; number++) {
            deliver(check, SESSION, number);
        }

        assertThat(check.lost()).isEqualTo(6);
        assertThat(check.gaps()).isOne();
        assertThat(check.problems(true, 2.5)).containsExactly(
            "missing 6 of 10 messages", "6 messages lost in 1 loss events",
            "lost under flow-control min (6 messages the publisher no longer held): the publisher waits only for live "
                + "receivers and stopped waiting for this one (silent past flow-control-timeout 2s: a paused or "
                + "starved process), or the publisher's config has flow-control max for topic 'prices'",
            "no new message for 2.5 s");
        assertThat(check.lossDescriptions()).singleElement().asString().contains("6 messages (1..6) lost");
    }

    @Test
    void aLossUnderFlowControlMaxSaysThePublisherDoesNotWaitAndWhatToUse() {
        final StreamCheck check = new StreamCheck(10,
            PRICES.withFlowControl(FlowControlMode.MAX).withHistory(ByteSize.parse("64m")));
        deliver(check, SESSION, 0);
        check.onLoss(new LossEvent(1, SESSION, 3, 4, 1, 6, LossEvent.Cause.UNRECOVERABLE, false));
        check.onLoss(new LossEvent(1, SESSION, 5, 5, 7, 2, LossEvent.Cause.UNRECOVERABLE, false));
        deliver(check, SESSION, 9);

        assertThat(check.problems(false, 1)).containsExactly("missing 8 of 10 messages",
            "8 messages lost in 2 loss events",
            "lost under flow-control max (8 messages the publisher no longer held): the publisher does not wait for "
                + "receivers and outran this one by more than its history (64m); use flow-control min (the default) "
                + "to hold it to its receivers, or pace it (send-rate)");
    }

    @Test
    void aLossFlowControlDidNotCauseNamesNoPolicy() {
        final StreamCheck check = check(10);
        deliver(check, SESSION, 0);
        check.onLoss(new LossEvent(1, SESSION, 3, 4, 1, 6, LossEvent.Cause.SUBSCRIPTION_OVERRUN, false));

        assertThat(check.problems(false, 1)).containsExactly("missing 9 of 10 messages",
            "6 messages lost in 1 loss events");
    }

    @Test
    void noMessageAtAllSuggestsWhatToCheck() {
        assertThat(check(10).problems(true, 60)).containsExactly("missing 10 of 10 messages",
            "no message at all in 60.0 s: is pub running, with the same config and topic?");
    }

    @Test
    void aSubscriberThatMissedTheStartIsToldWhy() {
        final StreamCheck check = check(10);
        deliver(check, SESSION, 8);
        deliver(check, SESSION, 9);

        assertThat(check.problems(true, 1)).last().asString()
            .startsWith("the first message received was number 8: was sub started after pub?");
    }

    @Test
    void aSubscriberThatWantedTheWholeSessionAndMissedItsStartIsToldItWasGivenUp() {
        final StreamCheck check = new StreamCheck(10, PRICES.withLateJoin(LateJoinPolicy.SESSION_START));
        deliver(check, SESSION, 8);

        assertThat(check.problems(true, 1)).last().asString().isEqualTo("the first message received was number 8,"
            + " though sub wanted the session from its start (--from-start): what came before it was given up, by"
            + " the publisher and by every recorder the topic names (see the loss events)");
    }

    @Test
    void aDroppedStreamEndsTheWait() {
        final StreamCheck check = check(10);
        check.onLoss(new LossEvent(1, SESSION, 0, 9, 0, 10, LossEvent.Cause.UNRECOVERABLE, true));

        assertThat(check.ended()).isTrue();
        assertThat(check.problems(false, 1)).contains("the stream was dropped (loss policy drop)");
    }

    @Test
    void aSilentPublisherIsWaitedForAndIfNeverHeardAgainItsSilenceIsTheReason() {
        final StreamCheck check = check(10);
        for (long number = 0; number < 6; number++) {
            deliver(check, SESSION, number);
        }

        check.onPublisherGone(new PublisherGone(1, SESSION, PublisherGone.Cause.SILENT, 2_003_400_000L, 0));

        assertThat(check.ended()).as("a silent publisher may come back").isFalse();
        assertThat(check.problems(true, 10)).containsExactly("missing 4 of 10 messages",
            "publisher gone before the last message and not heard again: session 77 silent for 2003 ms"
                + " (publisher-timeout)", "no new message for 10.0 s");
        assertThat(check.publisherGoneDescriptions())
            .containsExactly("session 77 silent for 2003 ms (publisher-timeout)");
        final JsonNode gone = figures(check).get("publishersGone");
        assertThat(gone).hasSize(1);
        assertThat(gone.get(0).get("session").asInt()).isEqualTo(SESSION);
        assertThat(gone.get(0).get("cause").asString()).isEqualTo("SILENT");
        assertThat(gone.get(0).get("silentMs").asLong()).isEqualTo(2003);
        assertThat(gone.get(0).get("newSession").asInt()).isZero();
    }

    @Test
    void aSilentPublisherHeardAgainResumesAndIsCountedNotBlamed() {
        final StreamCheck check = check(4);
        deliver(check, SESSION, 0);
        deliver(check, SESSION, 1);
        check.onPublisherGone(new PublisherGone(1, SESSION, PublisherGone.Cause.SILENT, 3_000_000_000L, 0));

        check.onStreamStarted(new StreamStarted(1, SESSION, 9));
        deliver(check, SESSION, 2);
        deliver(check, SESSION, 3);

        assertThat(check.complete()).isTrue();
        assertThat(check.resumes()).isOne();
        assertThat(check.problems(false, 10)).isEmpty();
        assertThat(figures(check).get("resumes").asLong()).isOne();
        assertThat(figures(check).get("publishersGone")).hasSize(1);
    }

    @Test
    void aRestartedPublisherEndsTheWaitAndNamesItsNewSession() {
        final StreamCheck check = check(10);
        deliver(check, SESSION, 0);

        check.onPublisherGone(new PublisherGone(1, SESSION, PublisherGone.Cause.RESTARTED, 150_000_000L, 78));

        assertThat(check.ended()).isTrue();
        assertThat(check.problems(false, 10)).contains(
            "publisher gone before the last message: session 77 restarted as session 78 (silent for 150 ms)");
        assertThat(figures(check).get("publishersGone").get(0).get("newSession").asInt()).isEqualTo(78);
    }

    @Test
    void anotherSessionGoneIsReportedButTheCheckedOneIsStillAwaited() {
        final StreamCheck check = check(10);
        deliver(check, SESSION, 0);

        check.onPublisherGone(new PublisherGone(1, SESSION + 1, PublisherGone.Cause.SILENT, 2_000_000_000L, 0));

        assertThat(check.ended()).isFalse();
        assertThat(check.problems(false, 10)).containsExactly("missing 9 of 10 messages");
        assertThat(check.publisherGoneDescriptions()).singleElement().asString().startsWith("session 78 silent");
        assertThat(figures(check).get("publishersGone")).hasSize(1);
    }

    @Test
    void aPublisherGoneAfterEveryMessageIsNoProblem() {
        final StreamCheck check = check(2);
        deliver(check, SESSION, 0);
        deliver(check, SESSION, 1);

        check.onPublisherGone(new PublisherGone(1, SESSION, PublisherGone.Cause.SILENT, 2_000_000_000L, 0));

        assertThat(check.problems(false, 10)).isEmpty();
        assertThat(figures(check).get("publishersGone")).hasSize(1);
    }

    @Test
    void noPublisherGoneIsAnEmptyList() {
        assertThat(figures(check(1)).get("publishersGone").isArray()).isTrue();
        assertThat(figures(check(1)).get("publishersGone")).isEmpty();
    }

    @Test
    void aLineDownAndUpAreFiguresInOrderAndNoProblem() {
        final StreamCheck check = check(2);
        deliver(check, SESSION, 0);
        check.onLineDown(new LineDown(1, SESSION, "lan-a", 12_000_000L));
        deliver(check, SESSION, 1);
        check.onLineUp(new LineUp(1, SESSION, "lan-a", 1_004_000_000L));

        assertThat(check.problems(false, 10)).isEmpty();
        final JsonNode events = figures(check).get("lineEvents");
        assertThat(events).hasSize(2);
        assertThat(events.get(0).get("line").asString()).isEqualTo("lan-a");
        assertThat(events.get(0).get("state").asString()).isEqualTo("down");
        assertThat(events.get(0).get("forMs").asLong()).isEqualTo(12);
        assertThat(events.get(1).get("state").asString()).isEqualTo("up");
        assertThat(events.get(1).get("forMs").asLong()).isEqualTo(1_004);
        assertThat(check.lineEventDescriptions()).hasSize(2);
        assertThat(check.lineEventDescriptions().get(0)).contains("line lan-a down");
        assertThat(check.lineEventDescriptions().get(1)).contains("line lan-a up again after 1004 ms");
    }

    @Test
    void messagesFromTheRecordersAndTheirRecoveriesAreCounted() {
        final StreamCheck check = check(4);
        check.onRecoveryStarted(new RecoveryStarted(1, SESSION, 0, 1, 0, 1));
        for (long number = 0; number < 4; number++) {
            buffer.putLong(8, number, ByteOrder.LITTLE_ENDIAN);
            check.onMessage(new UnsafeBuffer(buffer, 8, 24),
                header.set(1, SESSION, number, number < 2 ? MessageHeader.RECOVERED : number));
        }

        assertThat(check.passed(false)).isTrue();
        assertThat(check.recovered()).isEqualTo(2);
        assertThat(check.recoveries()).isOne();
        assertThat(figures(check).get("recovered").asLong()).isEqualTo(2);
        assertThat(figures(check).get("recoveries").asLong()).isOne();
    }

    /** A check of {@code expected} messages on a topic with every setting at its default. */
    private static StreamCheck check(long expected) {
        return new StreamCheck(expected, PRICES);
    }

    private static JsonNode figures(StreamCheck check) {
        final JsonResult result = new JsonResult();
        check.putFigures(result);
        return JsonMapper.builder().build().readTree(result.toString());
    }

    private void deliver(StreamCheck check, int session, long number) {
        buffer.putLong(8, number, ByteOrder.LITTLE_ENDIAN);
        check.onMessage(new UnsafeBuffer(buffer, 8, 24), header.set(1, session, number, 0));
    }
}
