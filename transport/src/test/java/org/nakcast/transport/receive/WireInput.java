package org.nakcast.transport.receive;

import java.util.List;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Tuple;
import org.nakcast.transport.protocol.MessageFrame;
import org.nakcast.transport.protocol.NakFlyweight;

/**
 * Arbitrary input a stream can get from the wire, each item valid on its own (it would pass the
 * datagram checks) but with no regard for what came before: sequences, message counts and ranges
 * that contradict each other, repeats, answers to questions never asked.
 */
final class WireInput {
    private WireInput() {
    }

    /** One thing that happens to a stream. */
    sealed interface Event permits Data, Heartbeat, Unrecoverable, NakHeard, Poll {
        /** Hands the event to the stream in {@code harness}. */
        void apply(StreamHarness harness);
    }

    /** A DATA or RETRANSMIT datagram with frames of these lengths. */
    record Data(long sequence, long completedMessages, boolean retransmit, boolean firstContinues,
        boolean lastUnfinished, List<Integer> fragmentLengths) implements Event {
        @Override
        public void apply(StreamHarness harness) {
            harness.builder.start(sequence, completedMessages).retransmit(retransmit);
            final int last = fragmentLengths.size() - 1;
            for (int i = 0; i <= last; i++) {
                final int begin = i == 0 && firstContinues ? 0 : MessageFrame.BEGIN;
                final int end = i == last && lastUnfinished ? 0 : MessageFrame.END;
                harness.builder.frame(begin | end, new byte[fragmentLengths.get(i)]);
            }
            harness.deliverBuilt(retransmit);
        }
    }

    /** A HEARTBEAT. */
    record Heartbeat(long highestSequence) implements Event {
        @Override
        public void apply(StreamHarness harness) {
            harness.heartbeat(highestSequence);
        }
    }

    /** An UNRECOVERABLE. */
    record Unrecoverable(long fromSequence, long toSequence, long firstMessageAfter) implements Event {
        @Override
        public void apply(StreamHarness harness) {
            harness.stream.onUnrecoverable(fromSequence, toSequence, firstMessageAfter, harness.nowNs);
        }
    }

    /** Another receiver's NAK, as {from, to} pairs. */
    record NakHeard(long[] bounds) implements Event {
        @Override
        public void apply(StreamHarness harness) {
            harness.stream.onNakHeard(StreamHarness.nakFromOther(bounds), harness.nowNs);
        }
    }

    /** Time passes, then the stream is polled. */
    record Poll(long elapsedNs) implements Event {
        @Override
        public void apply(StreamHarness harness) {
            harness.advance(elapsedNs).poll();
        }
    }

    /** Any mix of events. */
    static Arbitrary<List<Event>> events() {
        return Arbitraries.frequencyOf(
                Tuple.of(5, data()), Tuple.of(1, heartbeat()), Tuple.of(1, unrecoverable()), Tuple.of(1, nakHeard()),
                Tuple.of(2, poll()))
            .list().ofMaxSize(200);
    }

    private static Arbitrary<Event> data() {
        final Arbitrary<List<Integer>> fragments = Arbitraries.integers().between(0, 120).list().ofMinSize(1)
            .ofMaxSize(4);
        return Combinators.combine(sequences(), Arbitraries.longs().between(0, 60), Arbitraries.of(true, false),
                Arbitraries.of(true, false), Arbitraries.of(true, false), fragments)
            .as(Data::new);
    }

    private static Arbitrary<Event> heartbeat() {
        return Arbitraries.longs().between(-1, 25).map(Heartbeat::new);
    }

    private static Arbitrary<Event> unrecoverable() {
        return Combinators.combine(sequences(), Arbitraries.longs().between(0, 10), Arbitraries.longs().between(0, 80))
            .as((from, span, after) -> new Unrecoverable(from, from + span, after));
    }

    private static Arbitrary<Event> nakHeard() {
        return Arbitraries.longs().between(0, 5).list().ofMinSize(2).ofMaxSize(2 * NakFlyweight.maxRanges(200))
            .filter(steps -> steps.size() % 2 == 0)
            .map(steps -> {
                final long[] bounds = new long[steps.size()];
                long at = 0;
                for (int i = 0; i < bounds.length; i++) {
                    at += steps.get(i) + (i % 2 == 0 && i > 0 ? 1 : 0);
                    bounds[i] = at;
                }
                return new NakHeard(bounds);
            });
    }

    private static Arbitrary<Event> poll() {
        return Arbitraries.longs().between(0, 10_000_000).map(Poll::new);
    }

    private static Arbitrary<Long> sequences() {
        return Arbitraries.longs().between(0, 20);
    }
}
