package org.nakcast.transport.receive;

import java.util.List;

import org.nakcast.transport.protocol.MessageFrame;
import org.nakcast.transport.protocol.NakFlyweight;

/**
 * Arbitrary input a stream can get from the wire, each item valid on its own (it would pass the
 * datagram checks) but with no regard for what came before: sequences, message counts and ranges
 * that contradict each other, repeats, answers to questions never asked.
 */
final class WireInput {
    static final int MAX_EVENTS = 200;

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

    /** Any mix of events, up to {@value #MAX_EVENTS}. */
    static List<Event> events(Draw draw) {
        return draw.list(0, MAX_EVENTS, () -> switch (draw.weighted(5, 1, 1, 1, 2)) {
            case 0 -> data(draw);
            case 1 -> new Heartbeat(draw.between(-1L, 25));
            case 2 -> unrecoverable(draw);
            case 3 -> nakHeard(draw);
            default -> new Poll(draw.between(0L, 10_000_000));
        });
    }

    private static Event data(Draw draw) {
        return new Data(sequence(draw), draw.between(0L, 60), draw.bool(), draw.bool(), draw.bool(),
            draw.list(1, 4, () -> draw.between(0, 120)));
    }

    private static Event unrecoverable(Draw draw) {
        final long from = sequence(draw);
        return new Unrecoverable(from, from + draw.between(0L, 10), draw.between(0L, 80));
    }

    /** As many ranges as a NAK holds at most, each a few sequences after the last. */
    private static Event nakHeard(Draw draw) {
        final long[] bounds = new long[2 * draw.between(1, NakFlyweight.maxRanges(200))];
        long at = 0;
        for (int i = 0; i < bounds.length; i++) {
            at += draw.between(0L, 5) + (i % 2 == 0 && i > 0 ? 1 : 0);
            bounds[i] = at;
        }
        return new NakHeard(bounds);
    }

    private static long sequence(Draw draw) {
        return draw.between(0L, 20);
    }
}
