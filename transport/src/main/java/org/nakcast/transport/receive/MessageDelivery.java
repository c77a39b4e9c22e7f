package org.nakcast.transport.receive;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.status.AtomicCounter;
import org.nakcast.transport.LossEvent;
import org.nakcast.transport.MessageHeader;
import org.nakcast.transport.StreamEventListener;
import org.nakcast.transport.protocol.DataFlyweight;
import org.nakcast.transport.protocol.MessageFrame;
import org.nakcast.transport.status.SystemCounter;
import org.nakcast.transport.status.SystemCounters;

/**
 * Turns a stream's datagrams, handed over in sequence order, into whole messages for the handler:
 * a whole message straight from the datagram (zero copy), a fragmented one through the
 * {@link Reassembler}. Numbers messages as the publisher did.
 *
 * <p>The message index is that of the next message to deliver, or of the message being joined.
 * Each datagram carries the index of the first message to begin in it (its completed-message
 * count, plus one if it opens with the continuation of an earlier message); between messages, the
 * index moves up to that, so it starts right for a receiver that joins late and never drifts from
 * the publisher's numbering, even after a handler threw halfway through a datagram. It never moves
 * backwards. A continuation fragment of a message not being joined (one begun before the stream
 * started, before an unrecoverable gap, or refused as too large) is skipped: its message was
 * already counted.
 */
final class MessageDelivery {
    private final int topicId;
    private final int sessionId;
    private final MessageBytesHandler handler;
    private final StreamEventListener listener;
    private final Reassembler reassembler;
    private final MessageHeader header = new MessageHeader();
    private final AtomicCounter messagesTooLarge;
    private final AtomicCounter lostMessages;

    private long nextMessageIndex;
    private boolean indexKnown;
    /** Messages below this index were delivered by an earlier stream of the session: skipped here. */
    private long resumeIndex;
    private boolean resumed;

    MessageDelivery(
        int topicId,
        int sessionId,
        int maxMessageLength,
        MessageBytesHandler handler,
        StreamEventListener listener,
        SystemCounters counters) {
        this.topicId = topicId;
        this.sessionId = sessionId;
        this.handler = handler;
        this.listener = listener;
        this.reassembler = new Reassembler(maxMessageLength);
        this.messagesTooLarge = counters.get(SystemCounter.MESSAGES_TOO_LARGE);
        this.lostMessages = counters.get(SystemCounter.LOST_MESSAGES);
    }

    /**
     * Whether the index of the next message to deliver is known: learned from a datagram or an
     * unrecoverable range, or handed over by an earlier stream of the session.
     */
    boolean isIndexKnown() {
        return indexKnown || resumed;
    }

    /** The index of the next message to deliver (or of the one being joined). */
    long nextMessageIndex() {
        return indexKnown ? Math.max(nextMessageIndex, resumeIndex) : resumeIndex;
    }

    /** The reassembly buffer's current size. */
    int reassemblyCapacity() {
        return reassembler.capacity();
    }

    /**
     * The datagram to go on from if this stream ends now and its session is heard again: the one where
     * the message being joined began, or {@code expected} between messages.
     */
    long resumeSequence(long expected) {
        return reassembler.isAssembling() ? reassembler.beginSequence() : expected;
    }

    /** Bytes of the message being joined so far: delivered with the datagram that ends it. */
    int assembledLength() {
        return reassembler.isAssembling() ? reassembler.length() : 0;
    }

    /**
     * Delivers the messages of the next datagram in sequence.
     *
     * @param buffer holds the datagram
     * @param offset where the datagram starts
     * @param length the datagram's length
     * @param sequence its sequence
     * @param completedMessages its count of messages completed before it
     */
    void deliver(DirectBuffer buffer, int offset, int length, long sequence, long completedMessages) {
        int frameOffset = offset + DataFlyweight.DATA_HEADER_LENGTH;
        if (!reassembler.isAssembling()) {
            final boolean opensMessage = MessageFrame.isBegin(MessageFrame.flags(buffer, frameOffset));
            moveIndexUpTo(completedMessages + (opensMessage ? 0 : 1));
        }
        final int end = offset + length;
        while (frameOffset < end) {
            final int payloadOffset = frameOffset + MessageFrame.FRAME_HEADER_LENGTH;
            final int fragmentLength = MessageFrame.fragmentLength(buffer, frameOffset);
            onFragment(buffer, payloadOffset, fragmentLength, MessageFrame.flags(buffer, frameOffset), sequence);
            frameOffset = payloadOffset + fragmentLength;
        }
    }

    /**
     * Continues with message {@code messageIndex} as the next to begin: after an unrecoverable
     * range (the message being joined is dropped: the range's loss count includes it), or at the
     * start of a publisher that has sent nothing yet (index 0). The index never moves backwards.
     */
    void continueAt(long messageIndex) {
        reassembler.abandon();
        moveIndexUpTo(messageIndex);
    }

    /**
     * Delivers message {@code messageIndex}, fetched whole from a recorder, if it is the next: its
     * header carries the sequence {@link MessageHeader#RECOVERED} (no datagram of this stream brought
     * it). A message below the next (delivered already, or by an earlier stream of the session) is
     * skipped.
     *
     * @return whether it was the next message (delivered, or skipped as delivered before)
     */
    boolean deliverRecovered(long messageIndex, DirectBuffer buffer, int offset, int length) {
        if (messageIndex != nextMessageIndex()) {
            return false;
        }
        reassembler.abandon();
        moveIndexUpTo(messageIndex);
        if (!skippedAsDelivered()) {
            handler.onMessage(buffer, offset, length, nextHeader(MessageHeader.RECOVERED));
        }
        return true;
    }

    /**
     * Goes on from where an earlier stream of the session left off, the messages below
     * {@code messageIndex} delivered already: the stream restarts at the datagram where the first
     * undelivered message began, and the messages before it in that datagram are skipped, not
     * delivered twice. The index is learned again from that datagram.
     */
    void resumeBelow(long messageIndex) {
        reassembler.abandon();
        indexKnown = false;
        resumed = true;
        resumeIndex = messageIndex;
    }

    /** Moves past a message delivered by an earlier stream of the session; false if it is a new one. */
    private boolean skippedAsDelivered() {
        if (nextMessageIndex < resumeIndex) {
            nextMessageIndex++;
            return true;
        }
        return false;
    }

    private void moveIndexUpTo(long messageIndex) {
        nextMessageIndex = indexKnown ? Math.max(nextMessageIndex, messageIndex) : messageIndex;
        indexKnown = true;
    }

    private void onFragment(DirectBuffer buffer, int offset, int length, int flags, long sequence) {
        final boolean begin = MessageFrame.isBegin(flags);
        final boolean end = MessageFrame.isEnd(flags);
        if (begin) {
            if (reassembler.isAssembling()) {
                reassembler.abandon();
                refuse(lostMessages, LossEvent.Cause.CUT_SHORT, reassembler.beginSequence(), sequence - 1);
            }
            if (end) {
                deliverWhole(buffer, offset, length, sequence);
                return;
            }
            reassembler.begin(sequence);
        } else if (!reassembler.isAssembling()) {
            return;
        }
        if (!reassembler.append(buffer, offset, length)) {
            reassembler.abandon();
            refuse(messagesTooLarge, LossEvent.Cause.MESSAGE_TOO_LARGE, reassembler.beginSequence(), sequence);
        } else if (end && !skippedAsDelivered()) {
            handler.onMessage(reassembler.buffer(), 0, reassembler.finish(), nextHeader(sequence));
        } else if (end) {
            reassembler.finish();
        }
    }

    private void deliverWhole(DirectBuffer buffer, int offset, int length, long sequence) {
        if (skippedAsDelivered()) {
            return;
        }
        if (length > reassembler.maxLength()) {
            refuse(messagesTooLarge, LossEvent.Cause.MESSAGE_TOO_LARGE, sequence, sequence);
        } else {
            handler.onMessage(buffer, offset, length, nextHeader(sequence));
        }
    }

    /** The header for the next message; moves the index on first, so a throwing handler cannot deliver twice. */
    private MessageHeader nextHeader(long sequence) {
        return header.set(topicId, sessionId, nextMessageIndex++, sequence);
    }

    /**
     * One message will never be delivered: counts it, reports it and moves on to the next. A
     * message cut short by the start of another (a publisher breaking the fragment rules) counts
     * as lost; one longer than allowed counts as too large.
     */
    private void refuse(AtomicCounter counter, LossEvent.Cause cause, long fromSequence, long toSequence) {
        if (skippedAsDelivered()) {
            return;
        }
        final long index = nextMessageIndex++;
        counter.increment();
        listener.onLoss(new LossEvent(topicId, sessionId, fromSequence, toSequence, index, 1, cause, false));
    }
}
