package org.nakcast.transport.receive;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.nakcast.transport.LossEvent;
import org.nakcast.transport.receive.StreamSimulation.Conditions;
import org.nakcast.transport.receive.StreamSimulation.Received;
import org.nakcast.transport.status.SystemCounter;

/**
 * Whatever the network does to a stream (loss, duplication, reordering, lost repairs, other
 * receivers' NAKs), the stream delivers every message exactly once and in order while the
 * publisher still holds what was lost; and when it no longer does, every message is either
 * delivered once or counted in exactly one loss event.
 *
 * <p>Each property runs {@value #CASES} cases, numbered from 1 like JUnit's invocations ({@code [n]}
 * in a report), each drawing its input from the property's fixed seed and its number (see
 * {@link Draw}): a failing case is rerun by its number alone. Each property also requires that
 * enough of its cases reached what it is about (NAKs sent, a window overflowed, messages lost, a
 * stream dropped): that is checked once all cases have run.
 */
class InboundStreamPropertiesTest {
    private static final int CASES = 1000;
    private static final int DATAGRAM_LENGTH = 200;
    private static final int MAX_MESSAGES = 300;
    private static final Coverage REPAIRABLE = new Coverage("loss that can be repaired");
    private static final Coverage SHORT_HISTORY = new Coverage("a short history");
    private static final Coverage WIRE_INPUT = new Coverage("any wire input");

    static IntStream cases() {
        return IntStream.rangeClosed(1, CASES);
    }

    /** Between 1 and {@value #MAX_MESSAGES} messages: most small, some up to a datagram, a few of several. */
    private static List<Integer> messageSizes(Draw draw) {
        return draw.list(1, MAX_MESSAGES, () -> switch (draw.weighted(6, 3, 1)) {
            case 0 -> draw.between(0, 40);
            case 1 -> draw.between(41, DATAGRAM_LENGTH);
            default -> draw.between(DATAGRAM_LENGTH, 5 * DATAGRAM_LENGTH);
        });
    }

    private static int windowCapacity(Draw draw) {
        return draw.oneOf(1, 4, 16, 1024);
    }

    @ParameterizedTest(name = "case {0}")
    @MethodSource("cases")
    void everyMessageIsDeliveredOnceAndInOrderWhenEveryLossCanBeRepaired(int caseNumber) {
        final Draw draw = new Draw(0x5EED_0001_0000L, caseNumber);
        final List<Integer> sizes = messageSizes(draw);
        final boolean splitAnywhere = draw.bool();
        final int windowCapacity = windowCapacity(draw);
        final int dropPercent = draw.between(0, 40);
        final int maxDelaySteps = draw.between(0, 50);
        final boolean startWithHeartbeat = draw.bool();
        final long seed = draw.seed();
        final PackedStream packed = PackedStream.pack(sizes, DATAGRAM_LENGTH, splitAnywhere);
        final StreamSimulation simulation = new StreamSimulation(packed, new Conditions(windowCapacity,
            DATAGRAM_LENGTH, Integer.MAX_VALUE, dropPercent / 100.0, 0.1, maxDelaySteps, 0.02, startWithHeartbeat),
            seed);

        assertThat(simulation.run()).as("stream completed").isTrue();

        REPAIRABLE.require("NAKs sent", simulation.counters.get(SystemCounter.NAKS_SENT) > 0, 40);
        REPAIRABLE.require("window overflowed",
            simulation.counters.get(SystemCounter.REORDER_WINDOW_OVERFLOWS) > 0, 10);
        REPAIRABLE.require("NAKs suppressed", simulation.counters.get(SystemCounter.NAKS_SUPPRESSED) > 0, 10);
        assertThat(simulation.starts).containsExactly(0L);
        assertThat(simulation.losses).isEmpty();
        assertThat(simulation.received).extracting(Received::index)
            .containsExactlyElementsOf(indexes(packed.messages().size()));
        for (Received message : simulation.received) {
            assertThat(message.bytes()).isEqualTo(packed.messages().get((int) message.index()));
        }
    }

    @ParameterizedTest(name = "case {0}")
    @MethodSource("cases")
    void everyMessageIsDeliveredOnceOrCountedLostOnceWhenTheHistoryIsShort(int caseNumber) {
        final Draw draw = new Draw(0x5EED_0002_0000L, caseNumber);
        final List<Integer> sizes = messageSizes(draw);
        final boolean splitAnywhere = draw.bool();
        final int windowCapacity = windowCapacity(draw);
        final int history = draw.between(1, 30);
        final int dropPercent = draw.between(0, 40);
        final int maxDelaySteps = draw.between(0, 50);
        final long seed = draw.seed();
        final PackedStream packed = PackedStream.pack(sizes, DATAGRAM_LENGTH, splitAnywhere);
        final StreamSimulation simulation = new StreamSimulation(packed, new Conditions(windowCapacity,
            DATAGRAM_LENGTH, history, dropPercent / 100.0, 0.1, maxDelaySteps, 0.02, true), seed);

        assertThat(simulation.run()).as("stream completed").isTrue();

        final long lost = simulation.losses.stream().mapToLong(LossEvent::lostMessages).sum();
        SHORT_HISTORY.require("messages lost", lost > 0, 10);
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

    @ParameterizedTest(name = "case {0}")
    @MethodSource("cases")
    void noWireInputMakesItThrowOrDeliverAMessageIndexTwice(int caseNumber) {
        final Draw draw = new Draw(0x5EED_0003_0000L, caseNumber);
        final List<WireInput.Event> events = WireInput.events(draw);
        final boolean dropOnLoss = draw.bool();
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
        WIRE_INPUT.require("stream dropped", drop >= 0, 10);
        WIRE_INPUT.require("messages delivered", !harness.delivered().isEmpty(), 30);
    }

    @AfterAll
    static void everyPropertyReachedWhatItIsAboutOftenEnough() {
        REPAIRABLE.check();
        SHORT_HISTORY.check();
        WIRE_INPUT.check();
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

    /**
     * How many of a property's cases something happened in. Checked only once every case has run
     * (not when a single case is rerun), against the least share each thing requires.
     */
    private static final class Coverage {
        private final String property;
        private final Map<String, Tally> tallies = new LinkedHashMap<>();

        Coverage(String property) {
            this.property = property;
        }

        /** Counts a case in which {@code happened} or not; over all cases it must have in {@code minPercent}. */
        synchronized void require(String label, boolean happened, int minPercent) {
            final Tally tally = tallies.computeIfAbsent(label, unused -> new Tally(minPercent));
            tally.cases++;
            tally.happened += happened ? 1 : 0;
        }

        synchronized void check() {
            tallies.forEach((label, tally) -> {
                if (tally.cases == CASES) {
                    assertThat(tally.happened)
                        .as("with %s, cases where %s (at least %d%% of %d)", property, label, tally.minPercent, CASES)
                        .isGreaterThanOrEqualTo((tally.minPercent * CASES + 99) / 100);
                }
            });
        }

        private static final class Tally {
            final int minPercent;
            int cases;
            int happened;

            Tally(int minPercent) {
                this.minPercent = minPercent;
            }
        }
    }
}
