package org.nakcast.recorder.store;

import org.agrona.DirectBuffer;
import org.nakcast.transport.replay.HoleCause;

/** Receives what a {@link RecordingReader} reads: messages in order, and the holes between them. */
public interface RecordHandler {
    /**
     * One message, its bytes read in place from the segment: copy what must outlive the call.
     *
     * @param messageIndex its index in its publisher's stream
     * @param buffer the segment
     * @param offset where its bytes start
     * @param length how many
     * @param recordedAtNs when the recorder stored it, epoch nanoseconds
     */
    void onMessage(long messageIndex, DirectBuffer buffer, int offset, int length, long recordedAtNs);

    /**
     * Messages the recording does not hold.
     *
     * @param firstMessage the first one's index
     * @param count how many
     * @param cause why the recorder does not hold them
     */
    void onHole(long firstMessage, long count, HoleCause cause);
}
