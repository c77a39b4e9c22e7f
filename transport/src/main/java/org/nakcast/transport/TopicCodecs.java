package org.nakcast.transport;

import java.util.ArrayList;
import java.util.List;

import org.nakcast.codecs.Codec;
import org.nakcast.codecs.CodecException;
import org.nakcast.codecs.CodecFactory;
import org.nakcast.codecs.CodecSpec;
import org.nakcast.codecs.FlyweightCodec;
import org.nakcast.config.TopicConfig;

/**
 * Builds the codec a topic's config names, for the message class the application asks for, and
 * turns every way that can go wrong into a {@link TransportException} that names the topic, the
 * codec and the class. Each publication and subscription gets its own codec instance: codecs keep
 * state and are used by one thread.
 */
final class TopicCodecs {
    private final NodeContext context;

    TopicCodecs(NodeContext context) {
        this.context = context;
    }

    /**
     * The topic's codec for {@code messageClass}, which must be on the topic's
     * {@code allowed-classes} if it lists any: a class it does not allow is refused here, not
     * carried (numbering codecs would read it as the listed class of its number).
     */
    <T> Codec<T> codec(TopicConfig topic, Class<T> messageClass) {
        if (!topic.allowedClasses().isEmpty() && !topic.allowedClasses().contains(messageClass.getName())) {
            throw mismatch(topic, messageClass, "it is not in the topic's allowed-classes " + topic.allowedClasses());
        }
        final Codec<T> codec = create(topic, messageClass, false);
        if (!codec.messageClass().equals(messageClass)) {
            throw mismatch(topic, messageClass, "it carries " + codec.messageClass().getName());
        }
        return codec;
    }

    /**
     * The topic's flyweight codec whose encoder (or decoder, as {@code encoder} says) is
     * {@code flyweightClass}: one message type of the topic.
     */
    FlyweightCodec<?, ?, ?> flyweightCodec(TopicConfig topic, Class<?> flyweightClass, boolean encoder) {
        final Codec<?> codec = create(topic, flyweightClass, true);
        if (!(codec instanceof FlyweightCodec<?, ?, ?> flyweight)) {
            throw mismatch(topic, flyweightClass, "codec '" + topic.codec() + "' has no flyweight path");
        }
        final Class<?> actual = encoder ? flyweight.encoderClass() : flyweight.decoderClass();
        if (!actual.equals(flyweightClass)) {
            throw mismatch(topic, flyweightClass, "it is no " + (encoder ? "encoder" : "decoder") + " of the"
                + " topic's codec (the " + (encoder ? "encoder" : "decoder") + " of " + codec.messageClass().getName()
                + " is " + actual.getName() + ")");
        }
        return flyweight;
    }

    /**
     * A new codec of the topic's codec name for {@code messageClass}, from a factory that makes
     * flyweights if {@code flyweight}; whatever goes wrong names the topic, the codec and the class.
     */
    private <T> Codec<T> create(TopicConfig topic, Class<T> messageClass, boolean flyweight) {
        try {
            final CodecFactory factory = context.codecs().factory(topic.codec());
            if (flyweight && !factory.makesFlyweights()) {
                throw mismatch(topic, messageClass, "codec '" + topic.codec() + "' has no flyweight path");
            }
            return factory.create(new CodecSpec<>(topic.codec(), messageClass, allowedClasses(topic)));
        } catch (TransportException ex) {
            throw ex;
        } catch (CodecException ex) {
            throw mismatch(topic, messageClass, ex.getMessage(), ex);
        } catch (RuntimeException ex) {
            // a codec library that fails in its own way (FST on a class that is not Serializable)
            throw mismatch(topic, messageClass, ex.toString(), ex);
        }
    }

    private List<Class<?>> allowedClasses(TopicConfig topic) {
        final ClassLoader loader = Thread.currentThread().getContextClassLoader();
        final List<Class<?>> classes = new ArrayList<>();
        for (String name : topic.allowedClasses()) {
            try {
                classes.add(Class.forName(name, false, loader));
            } catch (ClassNotFoundException ex) {
                throw new TransportException("topic '" + topic.name() + "': allowed class " + name
                    + " is not on the class path", ex);
            }
        }
        return classes;
    }

    private static TransportException mismatch(TopicConfig topic, Class<?> messageClass, String why) {
        return mismatch(topic, messageClass, why, null);
    }

    private static TransportException mismatch(
        TopicConfig topic, Class<?> messageClass, String why, Throwable cause) {
        return new TransportException("topic '" + topic.name() + "' (codec '" + topic.codec() + "') cannot carry "
            + messageClass.getName() + ": " + why, cause);
    }
}
