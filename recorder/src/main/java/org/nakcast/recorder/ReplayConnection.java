package org.nakcast.recorder;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.nakcast.recorder.store.Catalog;
import org.nakcast.recorder.store.CorruptSegmentException;
import org.nakcast.recorder.store.RecordHandler;
import org.nakcast.recorder.store.RecordingDescriptor;
import org.nakcast.recorder.store.RecordingReader;
import org.nakcast.recorder.store.SegmentsRemovedException;
import org.nakcast.transport.replay.HoleCause;
import org.nakcast.transport.replay.ReplayFrame;
import org.nakcast.transport.replay.ReplayFrameReader;
import org.nakcast.transport.replay.ReplayProtocolException;
import org.nakcast.transport.replay.ReplayRefusal;

/**
 * One client of a recorder's replay endpoint: takes its requests one at a time, and answers each
 * from the recording, no faster than the connection takes it. What waits to be sent is bounded
 * ({@link #OUT_CAPACITY}, more only for one message longer than that), so a slow client holds no
 * more than that of the recorder's memory and never holds up another.
 */
final class ReplayConnection implements RecordHandler, AutoCloseable {
    /** Bytes waiting to be sent per connection, beyond which nothing more is read from the recording. */
    static final int OUT_CAPACITY = 256 * 1024;
    /** Room kept free before the next frame is read: a frame that needs more grows the buffer once. */
    private static final int ROOM = 64 * 1024;
    /** Frames read from the recording per duty cycle, per connection. */
    private static final int FRAMES_PER_CYCLE = 1024;

    private final SocketChannel channel;
    private final Path dir;
    private final Catalog catalog;
    private final TurnedAwaySessions turnedAway;
    private final long requestLimit;
    private final RecorderCounters counters;
    private final ReplayFrameReader requests = new ReplayFrameReader(4096);
    private ByteBuffer out = ByteBuffer.allocateDirect(OUT_CAPACITY);
    private UnsafeBuffer outView = new UnsafeBuffer(out);
    private RecordingReader reader;
    private long requestId;
    private long recordingId;
    private long first;
    private long next;
    private long last;
    private long messagesSent;
    private boolean closing;

    ReplayConnection(SocketChannel channel, Path dir, Catalog catalog, TurnedAwaySessions turnedAway,
        long requestLimit, RecorderCounters counters) {
        this.channel = channel;
        this.dir = dir;
        this.catalog = catalog;
        this.turnedAway = turnedAway;
        this.requestLimit = requestLimit;
        this.counters = counters;
    }

    /**
     * Sends what waits, answers what came, reads on in the recording being replayed.
     *
     * @return work done
     * @throws IOException if the connection failed: it is to be closed. A client that sends what is
     *     not a request is told so, and the connection closed once that is sent ({@link #isFinished})
     */
    int doWork() throws IOException {
        int work = flush();
        if (closing) {
            return work;
        }
        try {
            work += requests.poll(channel, frame -> onRequest(frame), 1);
        } catch (ReplayProtocolException e) {
            closeReader();
            refuse(0, ReplayRefusal.BAD_REQUEST, "not a replay request: " + e.getMessage());
            closing = true;
            return work + flush();
        }
        if (reader != null) {
            work += pump();
        }
        return work + flush();
    }

    /** Whether everything is sent after a refusal that ends the connection. */
    boolean isFinished() {
        return closing && out.position() == 0;
    }

    @Override
    public void close() throws IOException {
        try {
            closeReader();
        } finally {
            channel.close();
        }
    }

    @Override
    public void onMessage(long messageIndex, DirectBuffer buffer, int offset, int length, long recordedAtNs) {
        if (messageIndex < next || messageIndex > last) {
            return;
        }
        room(ReplayFrame.MESSAGE_HEADER_LENGTH + length);
        out.position(out.position() + ReplayFrame.writeMessage(outView, out.position(), requestId, messageIndex,
            recordedAtNs, buffer, offset, length));
        next = messageIndex + 1;
        messagesSent++;
    }

    @Override
    public void onHole(long firstMessage, long count, HoleCause cause) {
        final long from = Math.max(firstMessage, next);
        final long to = Math.min(firstMessage + count - 1, last);
        if (from > to) {
            return;
        }
        room(ReplayFrame.HOLE_LENGTH);
        out.position(out.position() + ReplayFrame.writeHole(outView, out.position(), requestId, from, to - from + 1,
            cause));
        next = to + 1;
    }

    private void onRequest(ReplayFrame frame) throws IOException {
        if (frame.type() != ReplayFrame.REQUEST) {
            refuse(frame.requestId(), ReplayRefusal.BAD_REQUEST, "a frame of type " + frame.type()
                + " where a request belongs");
            closing = true;
        } else if (reader != null) {
            refuse(frame.requestId(), ReplayRefusal.BUSY, "request " + requestId + " of this connection is still"
                + " being answered (at message " + next + " of " + first + ".." + last + "): one at a time");
        } else {
            accept(frame.requestId(), frame.topicId(), frame.sessionId(), frame.from(), frame.to());
        }
    }

    private void accept(long id, int topicId, int sessionId, long from, long to) throws IOException {
        final RecordingDescriptor recording = RecordingDescriptor.find(catalog.list(), topicId, sessionId, from);
        final String asked = "topic " + topicId + ", session " + sessionId + ", messages " + from + ".."
            + (to == ReplayFrame.TO_WHAT_IS_HELD ? "(what is held)" : String.valueOf(to));
        final boolean turnedAwayNow = turnedAway.isTurnedAway(topicId, sessionId);
        if (recording == null) {
            if (turnedAwayNow) {
                refuse(id, ReplayRefusal.SESSION_REFUSED, asked + ": this recorder's node turns that session away"
                    + " (the topic has no room for it: max-publishers), so it has no recording of it");
            } else {
                refuse(id, ReplayRefusal.NO_RECORDING, asked + ": this recorder has no recording of that session");
            }
            return;
        }
        final long heldFirst = recording.firstMessageIndex();
        final long heldLast = recording.nextMessageIndex() - 1;
        if (from > heldLast && from >= heldFirst) {
            final ReplayRefusal refusal = recording.refusalPastItsEnd(turnedAwayNow);
            refuse(id, refusal, asked + switch (refusal) {
                case NOT_STORING -> ": its disk refuses what comes" + (heldLast >= heldFirst ? "; of messages "
                    + heldFirst + ".." + heldLast + ", the recording stored what the disk took"
                    : ", and the recording holds nothing");
                case SESSION_REFUSED -> ": this recorder's node turns that session away now (the topic has no room"
                    + " for it: max-publishers); its recording holds " + held(recording);
                case NOT_RECORDING -> ": its recording stopped, holding " + held(recording) + ", and this recorder"
                    + " has heard nothing of the session to go on with since";
                default -> ": its recording holds " + held(recording);
            });
            return;
        }
        if (to != ReplayFrame.TO_WHAT_IS_HELD && to < from) {
            refuse(id, ReplayRefusal.BAD_REQUEST, asked + ": the range ends before it begins");
            return;
        }
        final long end = to == ReplayFrame.TO_WHAT_IS_HELD ? heldLast : Math.min(to, heldLast);
        if (end - from + 1 > requestLimit) {
            refuse(id, ReplayRefusal.TOO_LONG, asked + ": " + (end - from + 1) + " messages, and one request may ask"
                + " for " + requestLimit + " at most: ask in parts");
            return;
        }
        final long readFrom = Math.max(from, heldFirst);
        if (readFrom <= end) {
            try {
                reader = RecordingReader.openAt(dir, recording.recordingId(), readFrom);
            } catch (CorruptSegmentException e) {
                refuse(id, ReplayRefusal.DAMAGED, asked + ": " + e.getMessage());
                return;
            }
            if (reader == null && recording.refusing()) {
                refuse(id, ReplayRefusal.NOT_STORING, asked + ": its disk refused it, and refuses what comes");
                return;
            }
            if (reader == null) {
                refuse(id, ReplayRefusal.NOT_HELD, asked + ": its recording no longer holds it (retention removed it)");
                return;
            }
        }
        requestId = id;
        recordingId = recording.recordingId();
        first = from;
        next = from;
        last = end;
        messagesSent = 0;
        room(ReplayFrame.ACCEPTED_LENGTH);
        out.position(out.position() + ReplayFrame.writeAccepted(outView, out.position(), id, from, end));
        if (from < heldFirst) {
            onHole(from, heldFirst - from, HoleCause.BEFORE_RECORDING);
        }
        if (reader == null) {
            room(ReplayFrame.DONE_LENGTH);
            out.position(out.position() + ReplayFrame.writeDone(outView, out.position(), id, next));
            counters.replayServed(0);
        }
    }

    /**
     * Reads on in the recording while there is room to send; ends the replay at its last message,
     * or where the recording's stored frames end while its disk refuses what comes: the catalog
     * counts what the disk refused among what the recording holds (a hole, once a segment can be
     * made), and a replay does not wait for the disk.
     */
    private int pump() throws IOException {
        int frames = 0;
        try {
            while (next <= last && frames < FRAMES_PER_CYCLE && out.remaining() >= ROOM) {
                final int read = reader.poll(this, 1);
                if (read == 0) {
                    if (catalog.get(recordingId).refusing()) {
                        final long at = next;
                        closeReader();
                        refuse(requestId, ReplayRefusal.NOT_STORING, "the disk refused message " + at + " and what"
                            + " follows, and refuses what comes; the messages before " + at + " were sent");
                        return frames;
                    }
                    break;
                }
                frames += read;
            }
        } catch (CorruptSegmentException e) {
            final long at = next;
            closeReader();
            refuse(requestId, ReplayRefusal.DAMAGED, "the recording is damaged at message " + at
                + "; the messages before it were sent: " + e.getMessage());
            return frames;
        } catch (SegmentsRemovedException e) {
            final long at = next;
            closeReader();
            refuse(requestId, ReplayRefusal.NOT_HELD, "retention removed what follows message " + (at - 1)
                + " while it was replayed; the messages before " + at + " were sent: " + e.getMessage());
            return frames;
        }
        if (next > last || reader.isEnded()) {
            room(ReplayFrame.DONE_LENGTH);
            out.position(out.position() + ReplayFrame.writeDone(outView, out.position(), requestId, next));
            counters.replayServed(messagesSent);
            closeReader();
        }
        return frames;
    }

    private static String held(RecordingDescriptor recording) {
        return recording.nextMessageIndex() > recording.firstMessageIndex()
            ? "messages " + recording.firstMessageIndex() + ".." + (recording.nextMessageIndex() - 1)
            : "no message yet (its next is " + recording.nextMessageIndex() + ")";
    }

    private void refuse(long id, ReplayRefusal refusal, String sentence) {
        counters.replayRefused();
        room(ReplayFrame.refusedLength(sentence));
        out.position(out.position() + ReplayFrame.writeRefused(outView, out.position(), id, refusal, sentence));
    }

    /** Sends what the connection takes now. */
    private int flush() throws IOException {
        if (out.position() == 0) {
            return 0;
        }
        out.flip();
        final int written = channel.write(out);
        out.compact();
        return written > 0 ? 1 : 0;
    }

    /** Room for {@code length} more bytes: more than {@link #OUT_CAPACITY} only for one long message. */
    private void room(int length) {
        if (out.remaining() >= length) {
            return;
        }
        final ByteBuffer larger = ByteBuffer.allocateDirect(out.position() + length);
        out.flip();
        larger.put(out);
        out = larger;
        outView = new UnsafeBuffer(out);
    }

    private void closeReader() throws IOException {
        if (reader != null) {
            reader.close();
            reader = null;
        }
    }
}
