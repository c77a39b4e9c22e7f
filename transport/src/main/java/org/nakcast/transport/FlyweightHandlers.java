package org.nakcast.transport;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.status.AtomicCounter;
import org.nakcast.codecs.CodecException;
import org.nakcast.codecs.FlyweightCodec;
import org.nakcast.codecs.UnknownClassException;
import org.nakcast.transport.receive.MessageBytesHandler;

/**
 * What a subscription to a flyweight topic does with each message type: a handler per decoder
 * class. Each message goes to the handler of its type (the SBE template and schema in its header),
 * as the decoder wrapped over the received bytes: no copy, no object. A message of a type with no
 * handler is skipped, counted and reported to {@link StreamEventListener#onUndecodable}.
 *
 * <pre>{@code
 * node.newFlyweightSubscription("orders", new FlyweightHandlers()
 *         .on(NewOrderDecoder.class, (order, header) -> book.add(order.orderId(), order.qty(), order.price()))
 *         .on(CancelDecoder.class, (cancel, header) -> book.cancel(cancel.orderId())),
 *     events);
 * }</pre>
 */
public final class FlyweightHandlers {
    private final Map<Class<?>, MessageHandler<?>> byDecoder = new LinkedHashMap<>();

    /** No handler yet: add one per message type with {@link #on}. */
    public FlyweightHandlers() {
        // handlers are added with on(..)
    }

    /**
     * Handles the messages {@code decoderClass} reads.
     *
     * @return this
     * @throws IllegalArgumentException if a handler for that decoder was given already, or either is null
     */
    public <D> FlyweightHandlers on(Class<D> decoderClass, MessageHandler<? super D> handler) {
        if (decoderClass == null || handler == null) {
            throw new IllegalArgumentException(decoderClass == null ? "decoder class is null" : "handler is null");
        }
        if (byDecoder.putIfAbsent(decoderClass, handler) != null) {
            throw new IllegalArgumentException("a handler for " + decoderClass.getName() + " was given already");
        }
        return this;
    }

    /** The decoder classes handled, in the order given. */
    List<Class<?>> decoderClasses() {
        return new ArrayList<>(byDecoder.keySet());
    }

    /**
     * The handler of the message bytes: finds each message's type among {@code codecs} (one per
     * decoder class, in {@link #decoderClasses()} order) and hands its decoder to that type's handler.
     */
    MessageBytesHandler dispatch(List<FlyweightCodec<?, ?, ?>> codecs, StreamEventListener events,
        AtomicCounter undecodable) {
        final List<Route<?>> routes = new ArrayList<>();
        for (FlyweightCodec<?, ?, ?> codec : codecs) {
            routes.add(Route.of(codec, byDecoder.get(codec.decoderClass())));
        }
        return new Dispatch(routes.toArray(new Route<?>[0]), events, undecodable);
    }

    /** One message type: its codec and its handler. */
    private record Route<D>(FlyweightCodec<?, ?, D> codec, MessageHandler<? super D> handler) {
        @SuppressWarnings("unchecked") // the handler was given for the codec's decoder class
        static Route<?> of(FlyweightCodec<?, ?, ?> codec, MessageHandler<?> handler) {
            return new Route<>((FlyweightCodec<?, ?, Object>) codec, (MessageHandler<Object>) handler);
        }

        /** Wraps the decoder over the message, checked; a message that does not check out is reported. */
        void deliver(DirectBuffer buffer, int offset, int length, MessageHeader header, StreamEventListener events,
            AtomicCounter undecodable) {
            final D decoder;
            try {
                decoder = codec.decoder(buffer, offset, length);
            } catch (CodecException ex) {
                undecodable.increment();
                events.onUndecodable(header, ex);
                return;
            }
            handler.onMessage(decoder, header);
        }
    }

    /** Finds each message's route by its header: a scan of the few types a topic carries, allocation-free. */
    private static final class Dispatch implements MessageBytesHandler {
        private final Route<?>[] routes;
        private final StreamEventListener events;
        private final AtomicCounter undecodable;

        private Dispatch(Route<?>[] routes, StreamEventListener events, AtomicCounter undecodable) {
            this.routes = routes;
            this.events = events;
            this.undecodable = undecodable;
        }

        @Override
        public void onMessage(DirectBuffer buffer, int offset, int length, MessageHeader header) {
            for (Route<?> route : routes) {
                if (route.codec().carries(buffer, offset, length)) {
                    route.deliver(buffer, offset, length, header, events, undecodable);
                    return;
                }
            }
            undecodable.increment();
            events.onUndecodable(header, new UnknownClassException("no handler for the message type in its header",
                "flyweight message of " + length + " bytes"));
        }
    }
}
