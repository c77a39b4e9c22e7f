package org.nakcast.recorder;

import org.agrona.concurrent.status.AtomicCounter;
import org.nakcast.recorder.store.RecordingWriter;
import org.nakcast.transport.status.SystemCounter;
import org.nakcast.transport.status.SystemCounters;

/**
 * The recorder's counters in its node's counters file ({@code ops/nakcast-stat}, Micrometer):
 * messages and bytes recorded, segments made and refused, holes and the messages in them, replays
 * served and refused and the messages replayed. Each recording adds what its writer did since it
 * last reported, when its progress is saved: the recording counters trail the disk by at most a
 * progress interval, and nothing is counted per message; a replay counts when it ends.
 */
final class RecorderCounters {
    private final AtomicCounter messages;
    private final AtomicCounter bytes;
    private final AtomicCounter segments;
    private final AtomicCounter segmentsRefused;
    private final AtomicCounter holes;
    private final AtomicCounter holeMessages;
    private final AtomicCounter replaysServed;
    private final AtomicCounter replayRequestsRefused;
    private final AtomicCounter replayedMessages;

    RecorderCounters(SystemCounters counters) {
        this.messages = counters.get(SystemCounter.RECORDED_MESSAGES);
        this.bytes = counters.get(SystemCounter.RECORDED_BYTES);
        this.segments = counters.get(SystemCounter.RECORDING_SEGMENTS);
        this.segmentsRefused = counters.get(SystemCounter.RECORDING_SEGMENTS_REFUSED);
        this.holes = counters.get(SystemCounter.RECORDED_HOLES);
        this.holeMessages = counters.get(SystemCounter.RECORDED_HOLE_MESSAGES);
        this.replaysServed = counters.get(SystemCounter.REPLAYS_SERVED);
        this.replayRequestsRefused = counters.get(SystemCounter.REPLAY_REQUESTS_REFUSED);
        this.replayedMessages = counters.get(SystemCounter.REPLAYED_MESSAGES);
    }

    /** A replay answered to the end of its range, with the messages it sent. */
    void replayServed(long messages) {
        replaysServed.increment();
        replayedMessages.getAndAdd(messages);
    }

    /** A replay request, or a connection, refused. */
    void replayRefused() {
        replayRequestsRefused.increment();
    }

    /** A first segment that could not be made, before the recording had a writer. */
    void segmentRefused() {
        segmentsRefused.increment();
    }

    /** What one writer did, as reported so far: each report adds what it did since. */
    final class Report {
        private long messagesSeen;
        private long bytesSeen;
        private long segmentsSeen;
        private long refusedSeen;
        private long holesSeen;
        private long holeMessagesSeen;

        /** Adds what {@code writer} did since the last report on it. */
        void of(RecordingWriter writer) {
            messages.getAndAdd(writer.messagesStored() - messagesSeen);
            bytes.getAndAdd(writer.bytesStored() - bytesSeen);
            segments.getAndAdd(writer.segmentsMade() - segmentsSeen);
            segmentsRefused.getAndAdd(writer.segmentsRefused() - refusedSeen);
            holes.getAndAdd(writer.holesStored() - holesSeen);
            holeMessages.getAndAdd(writer.holeMessages() - holeMessagesSeen);
            messagesSeen = writer.messagesStored();
            bytesSeen = writer.bytesStored();
            segmentsSeen = writer.segmentsMade();
            refusedSeen = writer.segmentsRefused();
            holesSeen = writer.holesStored();
            holeMessagesSeen = writer.holeMessages();
        }
    }
}
