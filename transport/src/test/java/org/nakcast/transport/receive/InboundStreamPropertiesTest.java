package org.nakcast.transport.receive;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.statistics.Statistics;
import net.jqwik.api.constraints.IntRange;
import org.nakcast.transport.LossEvent;
import org.nakcast.transport.receive.StreamSimulation.Conditions;
import org.nakcast.transport.receive.StreamSimulation.Received;
import org.nakcast.transport.status.SystemCounter;

/**
 * Whatever the network does to a stream (loss, duplication, reordering, lost repairs, other
 * receivers' NAKs), the stream delivers every message exactly once and in order while the
 * publisher still holds what was lost; and when it no longer does, every message is either
 * delivered once or counted in exactly one loss event.
 */
class InboundStreamPropertiesTest {
    private static final int DATAGRAM_LENGTH = 200;

    @Provide
    Arbitrary<List<Integer>> messageSizes() {
        final Arbitrary<Integer> size = Arbitraries.frequencyOf(
            Tuple.of(6, Arbitraries.integers().between(0, 40)),
            Tuple.of(3, Arbitraries.integers().between(41, DATAGRAM_LENGTH)),
            Tuple.of(1, Arbitraries.integers().between(DATAGRAM_LENGTH, 5 * DATAGRAM_LENGTH)));
        return size.list().ofMinSize(1).ofMaxSize(300);
    }

    @Provide
    Arbitrary<Integer> windowCapacities() {
        return Arbitraries.of(1, 4, 16, 1024);
    }

    @Property(tries = 1000)
    void everyMessageIsDeliveredOnceAndInOrderWhenEveryLossCanBeRepaired(
        @ForAll("messageSizes") List<Integer> sizes,
        @ForAll boolean splitAnywhere,
        @ForAll("windowCapacities") int windowCapacity,
        @ForAll @IntRange(min = 0, max = 40) int dropPercent,
        @ForAll @IntRange(min = 0, max = 50) int maxDelaySteps,
        @ForAll boolean startWithHeartbeat,
        @ForAll long seed) {
        final PackedStream packed = PackedStream.pack(sizes, DATAGRAM_LENGTH, splitAnywhere);
        final StreamSimulation simulation = new StreamSimulation(packed, new Conditions(windowCapacity,
            DATAGRAM_LENGTH, Integer.MAX_VALUE, dropPercent / 100.0, 0.1, maxDelaySteps, 0.02, startWithHeartbeat),
            seed);

        assertThat(simulation.run()).as("stream completed").isTrue();

        requireCoverage("NAKs sent", simulation.counters.get(SystemCounter.NAKS_SENT) > 0, 40);
        requireCoverage("window overflowed", simulation.counters.get(SystemCounter.REORDER_WINDOW_OVERFLOWS) > 0, 10);
        requireCoverage("NAKs suppressed", simulation.counters.get(SystemCounter.NAKS_SUPPRESSED) > 0, 10);
        assertThat(simulation.starts).containsExactly(0L);
        assertThat(simulation.losses).isEmpty();
        assertThat(simulation.received).extracting(Received::index)
            .containsExactlyElementsOf(indexes(packed.messages().size()));
        for (Received message : simulation.received) {
            assertThat(message.bytes()).isEqualTo(packed.messages().get((int) message.index()));
        }
    }

    @Property(tries = 1000)
    void everyMessageIsDeliveredOnceOrCountedLostOnceWhenTheHistoryIsShort(
        @ForAll("messageSizes") List<Integer> sizes,
        @ForAll boolean splitAnywhere,
        @ForAll("windowCapacities") int windowCapacity,
        @ForAll @IntRange(min = 1, max = 30) int history,
        @ForAll @IntRange(min = 0, max = 40) int dropPercent,
        @ForAll @IntRange(min = 0, max = 50) int maxDelaySteps,
        @ForAll long seed) {
        final PackedStream packed = PackedStream.pack(sizes, DATAGRAM_LENGTH, splitAnywhere);
        final StreamSimulation simulation = new StreamSimulation(packed, new Conditions(windowCapacity,
            DATAGRAM_LENGTH, history, dropPercent / 100.0, 0.1, maxDelaySteps, 0.02, true), seed);

        assertThat(simulation.run()).as("stream completed").isTrue();

        final long lost = simulation.losses.stream().mapToLong(LossEvent::lostMessages).sum();
        requireCoverage("messages lost", lost > 0, 10);
        assertThat(simulation.received.size() + lost).isEqualTo(packed.messages().size());
        assertThat(simulation.counters.get(SystemCounter.LOST_MESSAGES)).isEqualTo(lost);
        assertThat(simulation.received).extracting(Received::index).isSorted().doesNotHaveDuplicates();
        for (Received message : simulation.received) {
            assertThat(message.bytes()).isEqualTo(packed.messages().get((int) message.index()));
        }
        long previousTo = -1;
        for (LossEvent loss : simulation.losses) {
            assertThat(loss.streamDropped()).isFalse();
            assertThat(loss.fromSequence()).isGreaterThan(previousTo);
            assertThat(loss.toSequence()).isGreaterThanOrEqualTo(loss.fromSequence());
            previousTo = loss.toSequence();
        }
    }

    @Provide
    Arbitrary<List<WireInput.Event>> wireEvents() {
        return WireInput.events();
    }

    @Property(tries = 1000)
    void noWireInputMakesItThrowOrDeliverAMessageIndexTwice(
        @ForAll("wireEvents") List<WireInput.Event> events, @ForAll boolean dropOnLoss) {
        final StreamHarness harness = new StreamHarness(
            new InboundStreamSettings(8, DATAGRAM_LENGTH, 150, dropOnLoss, NakTiming.DEFAULTS));

        for (WireInput.Event event : events) {
            event.apply(harness);
        }

        assertThat(harness.delivered()).extracting(StreamHarness.Delivered::index).isSorted()
            .doesNotHaveDuplicates();
        assertThat(harness.losses()).allSatisfy(loss -> {
            assertThat(loss.lostMessages()).isNotNegative();
            assertThat(loss.toSequence()).isGreaterThanOrEqualTo(loss.fromSequence());
        });
        final int drop = indexOfDrop(harness.events);
        if (drop >= 0) {
            assertThat(dropOnLoss).isTrue();
            assertThat(harness.events.subList(drop + 1, harness.events.size())).isEmpty();
        }
        requireCoverage("stream dropped", drop >= 0, 10);
        requireCoverage("messages delivered", !harness.delivered().isEmpty(), 30);
    }

    /** Counts how often {@code happened}; the property fails if that was in under {@code minPercent} of tries. */
    private static void requireCoverage(String label, boolean happened, int minPercent) {
        Statistics.label(label).collect(happened)
            .coverage(coverage -> coverage.check(true).percentage(percent -> percent >= minPercent));
    }

    private static int indexOfDrop(List<Object> events) {
        for (int i = 0; i < events.size(); i++) {
            if (events.get(i) instanceof LossEvent loss && loss.streamDropped()) {
                return i;
            }
        }
        return -1;
    }

    private static List<Long> indexes(int count) {
        final List<Long> indexes = new ArrayList<>();
        for (long i = 0; i < count; i++) {
            indexes.add(i);
        }
        return indexes;
    }
}
