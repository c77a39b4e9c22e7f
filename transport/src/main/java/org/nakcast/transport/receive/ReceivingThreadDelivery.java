package org.nakcast.transport.receive;

import java.util.concurrent.atomic.AtomicLong;

import org.agrona.DirectBuffer;
import org.nakcast.transport.LineDown;
import org.nakcast.transport.LineUp;
import org.nakcast.transport.LossEvent;
import org.nakcast.transport.RecoveryStarted;
import org.nakcast.transport.StreamRefused;
import org.nakcast.transport.MessageHeader;
import org.nakcast.transport.PublisherGone;
import org.nakcast.transport.StreamEventListener;
import org.nakcast.transport.StreamStarted;

/** A subscription served on the receiving thread: each message and event goes straight to its callbacks. */
final class ReceivingThreadDelivery implements DeliveryTarget {
    private final MessageBytesHandler handler;
    private final StreamEventListener listener;
    private final AtomicLong handlerErrors = new AtomicLong();

    ReceivingThreadDelivery(MessageBytesHandler handler, StreamEventListener listener) {
        this.handler = handler;
        this.listener = listener;
    }

    @Override
    public long handlerErrors() {
        return handlerErrors.get();
    }

    @Override
    public void handlerThrew() {
        handlerErrors.incrementAndGet();
    }

    @Override
    public boolean hasRoomFor(int datagramLength, int assembledLength) {
        return true;
    }

    @Override
    public long consumed() {
        return 0;
    }

    @Override
    public boolean hasCaughtUp() {
        return true;
    }

    @Override
    public boolean offer(DirectBuffer buffer, int offset, int length, MessageHeader header) {
        handler.onMessage(buffer, offset, length, header);
        return true;
    }

    @Override
    public void onStreamStarted(StreamStarted event) {
        listener.onStreamStarted(event);
    }

    @Override
    public void onPublisherGone(PublisherGone event) {
        listener.onPublisherGone(event);
    }

    @Override
    public void onLoss(LossEvent event) {
        listener.onLoss(event);
    }

    @Override
    public void onLineDown(LineDown event) {
        listener.onLineDown(event);
    }

    @Override
    public void onLineUp(LineUp event) {
        listener.onLineUp(event);
    }

    @Override
    public void onStreamRefused(StreamRefused event) {
        listener.onStreamRefused(event);
    }

    @Override
    public void onRecoveryStarted(RecoveryStarted event) {
        listener.onRecoveryStarted(event);
    }
}
