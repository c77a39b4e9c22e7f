package org.nakcast.micrometer;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import io.micrometer.core.instrument.Tags;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;
import org.agrona.concurrent.status.CountersManager;
import org.agrona.concurrent.status.CountersReader;
import org.junit.jupiter.api.Test;
import org.nakcast.transport.status.DatagramCheck;
import org.nakcast.transport.status.LineCounter;
import org.nakcast.transport.status.SystemCounter;
import org.nakcast.transport.status.SystemCounters;

class CounterMeterTest {
    private static final int ROOM_FOR_COUNTERS = 128;

    private final CountersManager manager = new CountersManager(
        new UnsafeBuffer(ByteBuffer.allocateDirect(ROOM_FOR_COUNTERS * CountersReader.METADATA_LENGTH)),
        new UnsafeBuffer(ByteBuffer.allocateDirect(ROOM_FOR_COUNTERS * CountersReader.COUNTER_LENGTH)));
    private final SystemCounters counters = new SystemCounters(manager);

    @Test
    void eachSystemCounterIsACounterNamedAfterItsConstantAndTaggedWithTheNode() {
        final List<CounterMeter> meters = meters();

        for (SystemCounter counter : SystemCounter.values()) {
            assertThat(meters).filteredOn(meter -> meter.name().equals(NakcastMetrics.meterName(counter)))
                .singleElement()
                .satisfies(meter -> {
                    assertThat(meter.monotonic()).isTrue();
                    assertThat(meter.tags()).isEqualTo(Tags.of("node", "n1"));
                    assertThat(meter.description()).isEqualTo(counter.label());
                    assertThat(meter.slot().counterId()).isEqualTo(counters.get(counter).id());
                });
        }
        assertThat(NakcastMetrics.meterName(SystemCounter.DATAGRAMS_SENT)).isEqualTo("nakcast.datagrams.sent");
        assertThat(NakcastMetrics.meterName(SystemCounter.NAKS_RECEIVED)).isEqualTo("nakcast.naks.received");
    }

    @Test
    void malformedDatagramsAreOneCounterTaggedWithEachCause() {
        final List<String> causes = new ArrayList<>();
        for (CounterMeter meter : meters()) {
            if (meter.name().equals(NakcastMetrics.MALFORMED_BY_CAUSE)) {
                assertThat(meter.monotonic()).isTrue();
                causes.add(meter.tags().stream().filter(tag -> tag.getKey().equals("cause")).findFirst()
                    .orElseThrow().getValue());
            }
        }

        assertThat(causes).hasSize(DatagramCheck.values().length - 1)
            .contains("too_short", "bad_magic", "status_beyond_sent")
            .doesNotContain("valid");
    }

    @Test
    void eachStreamCounterIsAGaugeTaggedWithItsTopicAndSession() {
        counters.streams().publisherPosition("prices", 1, 42);
        counters.streams().receiverPosition("orders", 2, -7);
        counters.streams().receiverLag("orders", 2, -7);

        assertThat(streamMeters()).containsExactlyInAnyOrder(
            NakcastMetrics.PUBLISHER_POSITION + " " + Tags.of("node", "n1", "topic", "prices", "topic.id", "1",
                "session", "42"),
            NakcastMetrics.RECEIVER_POSITION + " " + Tags.of("node", "n1", "topic", "orders", "topic.id", "2",
                "session", "-7"),
            NakcastMetrics.RECEIVER_LAG + " " + Tags.of("node", "n1", "topic", "orders", "topic.id", "2",
                "session", "-7"));
    }

    @Test
    void eachLineOfAStreamOnTwoLinesIsTaggedWithItsLineAndCopiesAreCountedLagAndDownGauged() {
        for (LineCounter kind : LineCounter.values()) {
            counters.streams().line(kind, "md-b", 1, "prices", 1, 42);
        }
        counters.streams().gapsBothLinesMissed("prices", 1, 42);

        final Tags line = Tags.of("node", "n1", "topic", "prices", "topic.id", "1", "session", "42", "line", "md-b");
        assertThat(meters()).extracting(meter -> meter.name() + " " + meter.tags() + " " + meter.monotonic())
            .contains(NakcastMetrics.lineMeterName(LineCounter.FIRST_COPIES) + " " + line + " true",
                "nakcast.stream.line.second.copies " + line + " true",
                "nakcast.stream.line.missed.alone " + line + " true",
                "nakcast.stream.line.lag.ns " + line + " false",
                "nakcast.stream.line.down " + line + " false",
                NakcastMetrics.GAPS_BOTH_LINES_MISSED + " " + Tags.of("node", "n1", "topic", "prices", "topic.id", "1",
                    "session", "42") + " true");
    }

    @Test
    void aStreamWhoseLabelHasNoRoomForItsTopicNameIsTaggedWithTheTopicId() {
        counters.streams().receiverPosition("t".repeat(CountersReader.MAX_LABEL_LENGTH), 9, 5);

        assertThat(streamMeters()).containsExactly(
            NakcastMetrics.RECEIVER_POSITION + " " + Tags.of("node", "n1", "topic", "9", "topic.id", "9",
                "session", "5"));
    }

    @Test
    void aCounterOfATypeThisVersionDoesNotKnowIsNotExported() {
        final int before = meters().size();
        manager.newCounter("something new", 999);

        assertThat(meters()).hasSize(before);
    }

    @Test
    void aSlotHoldsItsCounterUntilItIsFreedAndNotTheNextStreamThatTakesIt() {
        final AtomicCounter first = counters.streams().receiverPosition("prices", 1, 10);
        final CounterSlot slot = slotOf(first.id());
        assertThat(slot.isHeldIn(manager)).isTrue();

        counters.streams().free(first);
        assertThat(slot.isHeldIn(manager)).isFalse();

        final AtomicCounter next = counters.streams().receiverPosition("prices", 1, 11);
        assertThat(next.id()).isEqualTo(first.id());
        assertThat(slot.isHeldIn(manager)).isFalse();
        assertThat(slotOf(next.id()).isHeldIn(manager)).isTrue();
    }

    private CounterSlot slotOf(int counterId) {
        return meters().stream().map(CounterMeter::slot).filter(slot -> slot.counterId() == counterId)
            .findFirst().orElseThrow();
    }

    private List<String> streamMeters() {
        return meters().stream().filter(meter -> !meter.monotonic())
            .map(meter -> meter.name() + " " + meter.tags()).toList();
    }

    private List<CounterMeter> meters() {
        final List<CounterMeter> meters = new ArrayList<>();
        manager.forEach((counterId, typeId, key, label) -> {
            final CounterMeter meter = CounterMeter.of("n1", counterId, typeId, key, label);
            if (meter != null) {
                meters.add(meter);
            }
        });
        return meters;
    }
}
