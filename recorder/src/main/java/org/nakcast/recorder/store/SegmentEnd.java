package org.nakcast.recorder.store;

/**
 * Where a segment's intact frames end, found by walking them from its last index entry: what
 * recovery cuts after, and what retention judges a segment's age by.
 *
 * @param endOffset where the first frame that is not intact (or nothing) starts, or the offset
 *     after a PADDING or END frame
 * @param nextMessageIndex the message index after the last frame; {@code Long.MIN_VALUE} if the
 *     segment has no frame
 * @param ended whether the last frame is an END frame
 * @param lastRecordedAtNs when the last frame was stored; {@code Long.MIN_VALUE} if none
 */
record SegmentEnd(int endOffset, long nextMessageIndex, boolean ended, long lastRecordedAtNs) {
    /** Walks {@code segment}'s frames with {@code frame}, which must be pointed at it. */
    static SegmentEnd of(SegmentFile segment, RecordFrame frame) {
        long next = Long.MIN_VALUE;
        long recordedAtNs = Long.MIN_VALUE;
        int type = 0;
        int offset = segment.searchStart(frame, Long.MAX_VALUE);
        while (type != RecordFrame.END && type != RecordFrame.PADDING
            && offset <= segment.dataLimit() - RecordFrame.HEADER_LENGTH
            && frame.at(offset).isIntact(segment.dataLimit())) {
            type = frame.type();
            next = frame.messageIndex() + frame.messagesCovered();
            recordedAtNs = frame.recordedAtNs();
            offset += RecordFrame.alignedLength(RecordFrame.payloadLength(frame.frameLength()));
        }
        return new SegmentEnd(offset, next, type == RecordFrame.END, recordedAtNs);
    }

    /** Whether the segment has no frame at all. */
    boolean isEmpty() {
        return nextMessageIndex == Long.MIN_VALUE;
    }
}
