package org.nakcast.recorder.store;

/**
 * The shape of a recording's segment files: how long each is and how often its sparse index
 * notes a frame. Checked when made, so a bad setting is refused before any file exists.
 *
 * @param segmentLength bytes of each segment file, a multiple of {@link #PAGE} from 64 KiB to 1 GiB
 * @param indexInterval bytes of data per index entry, a power of two from 4 KiB to the segment length
 */
public record SegmentGeometry(int segmentLength, int indexInterval) {
    /** Files and their regions are laid out in pages of this size. */
    public static final int PAGE = 4096;
    /** The shortest segment. */
    public static final int MIN_SEGMENT_LENGTH = 64 * 1024;
    /** The longest segment: one mapping, addressed by an int. */
    public static final int MAX_SEGMENT_LENGTH = 1 << 30;
    /** The shortest index interval. */
    public static final int MIN_INDEX_INTERVAL = PAGE;
    /** Bytes of one sparse index entry. */
    public static final int INDEX_ENTRY_LENGTH = 16;
    /** The default: 128 MiB segments, an index entry per 64 KiB (32 KiB of index each). */
    public static final SegmentGeometry DEFAULT = new SegmentGeometry(128 << 20, 64 << 10);

    /** Checks both values; the message says which is wrong and what is allowed. */
    public SegmentGeometry {
        if (segmentLength < MIN_SEGMENT_LENGTH || segmentLength > MAX_SEGMENT_LENGTH || segmentLength % PAGE != 0) {
            throw new IllegalArgumentException("segment length " + segmentLength
                + " must be a multiple of 4 KiB from 64 KiB to 1 GiB");
        }
        if (indexInterval < MIN_INDEX_INTERVAL || indexInterval > segmentLength
            || Integer.bitCount(indexInterval) != 1) {
            throw new IllegalArgumentException("index interval " + indexInterval
                + " must be a power of two from 4 KiB to the segment length (" + segmentLength + ")");
        }
    }

    /** Entries in each segment's sparse index. */
    public int indexEntries() {
        return segmentLength / indexInterval;
    }

    /** Where the index starts: after the header's page. */
    public int indexOffset() {
        return PAGE;
    }

    /** Where frames start: after the index, at a page boundary. */
    public int dataOffset() {
        final int indexBytes = indexEntries() * INDEX_ENTRY_LENGTH;
        return PAGE + (indexBytes + PAGE - 1) / PAGE * PAGE;
    }

    /** The longest message a frame in such a segment can hold. */
    public int maxMessageLength() {
        return segmentLength - dataOffset() - RecordFrame.HEADER_LENGTH;
    }
}
