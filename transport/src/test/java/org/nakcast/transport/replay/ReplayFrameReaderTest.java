package org.nakcast.transport.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.EOFException;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

/** Frames cut out of a connection's bytes however they arrive: split, joined, longer than the buffer, or broken. */
class ReplayFrameReaderTest {
    private final UnsafeBuffer out = new UnsafeBuffer(ByteBuffer.allocate(1 << 20));
    private int written;
    private final List<String> read = new ArrayList<>();

    private ReplayFrameReader.Handler describe() {
        return frame -> read.add(switch (frame.type()) {
            case ReplayFrame.REQUEST -> "request " + frame.requestId() + " " + frame.topicId() + "/"
                + frame.sessionId() + " " + frame.from() + ".." + frame.to();
            case ReplayFrame.ACCEPTED -> "accepted " + frame.from() + ".." + frame.to();
            case ReplayFrame.MESSAGE -> "message " + frame.messageIndex() + " of " + frame.messageLength()
                + " bytes, first " + frame.buffer().getByte(frame.messageOffset()) + " last "
                + frame.buffer().getByte(frame.messageOffset() + frame.messageLength() - 1);
            case ReplayFrame.HOLE -> "hole " + frame.from() + "+" + frame.count() + " " + frame.holeCause();
            case ReplayFrame.DONE -> "done " + frame.messageIndex();
            case ReplayFrame.REFUSED -> "refused " + frame.refusal() + ": " + frame.sentence();
            default -> "type " + frame.type();
        });
    }

    private void message(long index, int length) {
        final UnsafeBuffer bytes = new UnsafeBuffer(new byte[length]);
        bytes.setMemory(0, length, (byte) 7);
        bytes.putByte(length - 1, (byte) 9);
        written += ReplayFrame.writeMessage(out, written, 1, index, 0, bytes, 0, length);
    }

    /** The bytes written so far, handed out in pieces of {@code chunk}. */
    private ReadableByteChannel inPiecesOf(int chunk) {
        final ArrayDeque<byte[]> pieces = new ArrayDeque<>();
        for (int at = 0; at < written; at += chunk) {
            final byte[] piece = new byte[Math.min(chunk, written - at)];
            out.getBytes(at, piece);
            pieces.add(piece);
        }
        return new ReadableByteChannel() {
            @Override
            public int read(ByteBuffer into) {
                if (pieces.isEmpty()) {
                    return -1;
                }
                final byte[] piece = pieces.peek();
                final int n = Math.min(piece.length, into.remaining());
                into.put(piece, 0, n);
                pieces.poll();
                if (n < piece.length) {
                    final byte[] rest = new byte[piece.length - n];
                    System.arraycopy(piece, n, rest, 0, rest.length);
                    pieces.push(rest);
                }
                return n;
            }

            @Override
            public boolean isOpen() {
                return true;
            }

            @Override
            public void close() {
            }
        };
    }

    private void readAll(ReplayFrameReader reader, ReadableByteChannel channel) throws Exception {
        try {
            while (true) {
                reader.poll(channel, describe(), 100);
            }
        } catch (EOFException end) {
            // every piece read
        }
    }

    @Test
    void everyKindOfFrameComesBackWhateverPiecesTheBytesArriveIn() throws Exception {
        written += ReplayFrame.writeRequest(out, written, 5, 1, 9, 100, ReplayFrame.TO_WHAT_IS_HELD);
        written += ReplayFrame.writeAccepted(out, written, 5, 100, 199);
        message(100, 40);
        written += ReplayFrame.writeHole(out, written, 5, 101, 10, HoleCause.NOT_STORED);
        written += ReplayFrame.writeRefused(out, written, 6, ReplayRefusal.BUSY, "one at a time: é");
        written += ReplayFrame.writeDone(out, written, 5, 111);

        for (int chunk : new int[] {1, 7, 16, 4096}) {
            read.clear();
            readAll(new ReplayFrameReader(64), inPiecesOf(chunk));
            assertThat(read).as("pieces of %d", chunk).containsExactly("request 5 1/9 100..-1", "accepted 100..199",
                "message 100 of 40 bytes, first 7 last 9", "hole 101+10 NOT_STORED", "refused BUSY: one at a time: é",
                "done 111");
        }
    }

    @Test
    void aFrameLongerThanTheBufferGrowsItOnce() throws Exception {
        message(1, 300_000);
        message(2, 10);

        readAll(new ReplayFrameReader(1024), inPiecesOf(65_536));

        assertThat(read).containsExactly("message 1 of 300000 bytes, first 7 last 9",
            "message 2 of 10 bytes, first 7 last 9");
    }

    @Test
    void whatIsNoFrameEndsTheConnectionWithWhatWasWrong() {
        out.putInt(0, 8, ReplayFrame.BYTE_ORDER);
        out.putByte(4, (byte) ReplayFrame.DONE);
        out.putByte(5, (byte) ReplayFrame.VERSION);
        written = 16;
        assertThatThrownBy(() -> readAll(new ReplayFrameReader(64), inPiecesOf(16)))
            .isInstanceOf(ReplayProtocolException.class).hasMessage("a frame of 8 bytes");

        out.putInt(0, 16, ReplayFrame.BYTE_ORDER);
        out.putByte(5, (byte) 2);
        assertThatThrownBy(() -> readAll(new ReplayFrameReader(64), inPiecesOf(16)))
            .hasMessage("a frame of protocol version 2 (this one reads 1)");

        out.putByte(5, (byte) ReplayFrame.VERSION);
        assertThatThrownBy(() -> readAll(new ReplayFrameReader(64), inPiecesOf(16)))
            .hasMessage("a frame of type 5 of 16 bytes, under its 24");
    }

    @Test
    void aConnectionClosedInTheMiddleOfAFrameSaysSo() {
        message(1, 100);
        written -= 10;

        assertThatThrownBy(() -> {
            final ReplayFrameReader reader = new ReplayFrameReader(4096);
            final ReadableByteChannel channel = inPiecesOf(4096);
            while (true) {
                reader.poll(channel, describe(), 10);
            }
        }).isInstanceOf(EOFException.class).hasMessage("the other side closed the connection in the middle of a frame");
    }
}
