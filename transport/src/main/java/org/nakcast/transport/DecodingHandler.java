package org.nakcast.transport;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.status.AtomicCounter;
import org.nakcast.codecs.CodecException;
import org.nakcast.transport.receive.MessageBytesHandler;

/**
 * Turns a topic's message bytes into what a subscription's {@link MessageHandler} takes: a buffer
 * over exactly the message, a decoded object, or a wrapped decoder flyweight. A message the codec
 * refuses (corrupt bytes, a class outside the allow-list) is counted and reported to
 * {@link StreamEventListener#onUndecodable}; delivery goes on with the next message.
 *
 * @param <V> what the handler gets
 */
final class DecodingHandler<V> implements MessageBytesHandler {
    private final BufferDecoder<V> decoder;
    private final MessageHandler<? super V> listener;
    private final StreamEventListener events;
    private final AtomicCounter undecodable;

    DecodingHandler(
        BufferDecoder<V> decoder,
        MessageHandler<? super V> listener,
        StreamEventListener events,
        AtomicCounter undecodable) {
        this.decoder = decoder;
        this.listener = listener;
        this.events = events;
        this.undecodable = undecodable;
    }

    @Override
    public void onMessage(DirectBuffer buffer, int offset, int length, MessageHeader header) {
        final V message;
        try {
            message = decoder.decode(buffer, offset, length);
        } catch (CodecException ex) {
            undecodable.increment();
            events.onUndecodable(header, ex);
            return;
        }
        listener.onMessage(message, header);
    }

    /** A codec's decode or decoder-wrap call. */
    @FunctionalInterface
    interface BufferDecoder<V> {
        V decode(DirectBuffer buffer, int offset, int length);
    }
}
