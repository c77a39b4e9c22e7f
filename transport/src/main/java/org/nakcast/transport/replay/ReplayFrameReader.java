package org.nakcast.transport.replay;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;

import org.agrona.concurrent.UnsafeBuffer;

/**
 * Cuts what a replay connection brings into whole frames: reads what the channel has into a
 * buffer of its own and hands each complete frame, in place, to a handler. The buffer starts at a
 * size that holds the usual frames and grows only for a frame longer than it, up to
 * {@link ReplayFrame#MAX_FRAME_LENGTH}; nothing else is allocated per frame.
 */
public final class ReplayFrameReader {
    private final ReplayFrame frame = new ReplayFrame();
    private ByteBuffer bytes;
    private UnsafeBuffer view;

    /** @param initialCapacity bytes of the buffer at first */
    public ReplayFrameReader(int initialCapacity) {
        bytes = ByteBuffer.allocateDirect(initialCapacity);
        view = new UnsafeBuffer(bytes);
    }

    /** What a reader of frames does with each. */
    @FunctionalInterface
    public interface Handler {
        /** One whole frame, valid during the call only. */
        void onFrame(ReplayFrame frame) throws IOException;
    }

    /**
     * Reads what {@code channel} has now (a non-blocking one returns at once), then hands up to
     * {@code limit} whole frames to {@code handler}.
     *
     * @return frames handed
     * @throws EOFException if the other side closed the connection
     * @throws ReplayProtocolException if it sent what is not a frame
     */
    public int poll(ReadableByteChannel channel, Handler handler, int limit) throws IOException {
        if (bytes.hasRemaining() && channel.read(bytes) < 0) {
            throw new EOFException("the other side closed the connection"
                + (bytes.position() > 0 ? " in the middle of a frame" : ""));
        }
        int handed = 0;
        int start = 0;
        while (handed < limit && bytes.position() - start >= ReplayFrame.HEADER_LENGTH) {
            frame.wrap(view, start);
            final String problem = frame.problem();
            if (problem != null) {
                throw new ReplayProtocolException(problem);
            }
            final int length = frame.frameLength();
            if (bytes.position() - start < length) {
                if (length > bytes.capacity()) {
                    grow(length, start);
                    start = 0;
                }
                break;
            }
            handler.onFrame(frame);
            start += length;
            handed++;
        }
        compact(start);
        return handed;
    }

    /** Moves what follows the frames handed to the front. */
    private void compact(int start) {
        if (start == 0) {
            return;
        }
        bytes.flip().position(start);
        bytes.compact();
    }

    private void grow(int length, int start) {
        final ByteBuffer larger = ByteBuffer.allocateDirect(
            Math.max(length, (int) Math.min(ReplayFrame.MAX_FRAME_LENGTH, 2L * bytes.capacity())));
        bytes.flip().position(start);
        larger.put(bytes);
        bytes = larger;
        view = new UnsafeBuffer(bytes);
    }
}
