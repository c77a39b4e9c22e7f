package org.nakcast.transport.status;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;
import org.agrona.concurrent.status.CountersManager;
import org.agrona.concurrent.status.CountersReader;
import org.junit.jupiter.api.Test;

class StreamCountersTest {
    private static final int ROOM_FOR_COUNTERS = 4;

    private final CountersManager manager = new CountersManager(
        new UnsafeBuffer(ByteBuffer.allocateDirect(ROOM_FOR_COUNTERS * CountersReader.METADATA_LENGTH)),
        new UnsafeBuffer(ByteBuffer.allocateDirect(ROOM_FOR_COUNTERS * CountersReader.COUNTER_LENGTH)));
    private final AtomicCounter unavailable = manager.newCounter("unavailable", 1);
    private final StreamCounters streams = new StreamCounters(manager, unavailable);

    @Test
    void eachCounterNamesItsStreamInItsLabelAndKey() {
        streams.publisherPosition("prices", 1, 42).set(7);
        streams.receiverLag("orders", 2, -5).set(3);

        final List<String> seen = new ArrayList<>();
        manager.forEach((counterId, typeId, key, label) -> {
            if (typeId != 1) {
                seen.add(typeId + " " + key.getInt(StreamCounters.KEY_TOPIC_ID_OFFSET) + "/"
                    + key.getInt(StreamCounters.KEY_SESSION_ID_OFFSET) + " " + label + "="
                    + manager.getCounterValue(counterId));
            }
        });
        assertThat(seen).containsExactly(
            CounterTypeIds.PUBLISHER_POSITION + " 1/42 publisher position: topic 'prices' (1), session 42=7",
            CounterTypeIds.RECEIVER_LAG + " 2/-5 receiver lag (datagrams): topic 'orders' (2), session -5=3");
    }

    @Test
    void aLineCounterNamesItsLineInItsLabelAndItsIndexInItsKeyAndTheLineNameIsReadBack() {
        streams.line(LineCounter.LAG_NS, "md b", 1, "prices", 1, 42).set(1_500);

        final List<String> seen = new ArrayList<>();
        manager.forEach((counterId, typeId, key, label) -> {
            if (typeId == LineCounter.LAG_NS.typeId()) {
                seen.add(key.getInt(StreamCounters.KEY_TOPIC_ID_OFFSET) + "/"
                    + key.getInt(StreamCounters.KEY_SESSION_ID_OFFSET) + "/"
                    + key.getInt(StreamCounters.KEY_LINE_OFFSET) + " " + label + "="
                    + manager.getCounterValue(counterId));
                assertThat(StreamCounters.lineName(label, LineCounter.LAG_NS)).isEqualTo("md b");
                assertThat(StreamCounters.lineName(label, LineCounter.DOWN)).as("another kind's label").isNull();
                assertThat(StreamCounters.topicName(label, 1, 42)).isEqualTo("prices");
            }
        });
        assertThat(seen).containsExactly("1/42/1 line md b lag (ns): topic 'prices' (1), session 42=1500");
        assertThat(LineCounter.ofTypeId(LineCounter.LAG_NS.typeId())).isEqualTo(LineCounter.LAG_NS);
        assertThat(LineCounter.ofTypeId(CounterTypeIds.RECEIVER_LAG)).isNull();
    }

    @Test
    void aFreedCounterLeavesTheFileAndItsSlotServesTheNextStream() {
        final AtomicCounter first = streams.receiverPosition("prices", 1, 10);
        streams.free(first);

        final AtomicCounter next = streams.receiverPosition("prices", 1, 11);

        assertThat(next.id()).isEqualTo(first.id());
        assertThat(labels()).containsExactly("unavailable", "receiver position: topic 'prices' (1), session 11");
    }

    @Test
    void whenTheFileIsFullAStreamStillGetsAWorkingCounterAndTheShortfallIsCounted() {
        for (int session = 0; session < ROOM_FOR_COUNTERS - 1; session++) {
            streams.receiverPosition("prices", 1, session);
        }

        final AtomicCounter overflow = streams.receiverPosition("prices", 1, 99);
        overflow.setOrdered(1234);

        assertThat(overflow.get()).isEqualTo(1234);
        assertThat(unavailable.get()).isOne();
        assertThat(labels()).hasSize(ROOM_FOR_COUNTERS).noneMatch(label -> label.contains("session 99"));
        streams.free(overflow);
        assertThat(labels()).hasSize(ROOM_FOR_COUNTERS);
    }

    @Test
    void theTopicNameIsReadBackFromTheLabelOfItsStream() {
        assertThat(StreamCounters.topicName(StreamCounters.label("receiver lag", "prices", 1, 42), 1, 42))
            .isEqualTo("prices");
        assertThat(StreamCounters.topicName(StreamCounters.label("publisher position", "it's (1)", 7, -3), 7, -3))
            .isEqualTo("it's (1)");
    }

    @Test
    void aLabelNotOfItsStreamHasNoTopicName() {
        final String label = StreamCounters.label("receiver position", "prices", 1, 42);

        assertThat(StreamCounters.topicName(label, 1, 43)).isNull();
        assertThat(StreamCounters.topicName(label.substring(0, label.length() - 4), 1, 42)).isNull();
        assertThat(StreamCounters.topicName("datagrams sent", 1, 42)).isNull();
    }

    private List<String> labels() {
        final List<String> labels = new ArrayList<>();
        manager.forEach((counterId, label) -> labels.add(label));
        return labels;
    }
}
