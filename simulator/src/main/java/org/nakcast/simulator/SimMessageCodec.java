package org.nakcast.simulator;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.nakcast.codecs.Codec;
import org.nakcast.codecs.CodecConfigurationException;
import org.nakcast.codecs.CodecFactory;
import org.nakcast.codecs.CodecRegistry;
import org.nakcast.codecs.CodecSpec;
import org.nakcast.codecs.CorruptMessageException;
import org.nakcast.codecs.MessageTooLargeException;

/**
 * The simulation's codec ({@value #NAME}): writes a {@link SimMessage} as {@link MessageContent}
 * lays it out and reads it back, checking every byte, so typed publications and subscriptions run
 * the node's encoding and decoding layers as an application's would.
 */
final class SimMessageCodec implements Codec<SimMessage> {
    /** The codec's name in the simulation's topics. */
    static final String NAME = "sim";

    /** The built-in codecs and this one. */
    static CodecRegistry registry() {
        return CodecRegistry.builtIns().register(NAME, new CodecFactory() {
            @Override
            @SuppressWarnings("unchecked")
            public <T> Codec<T> create(CodecSpec<T> spec) {
                if (spec.messageClass() != SimMessage.class) {
                    throw new CodecConfigurationException("codec '" + NAME + "' carries " + SimMessage.class.getName()
                        + " alone, not " + spec.messageClass().getName());
                }
                return (Codec<T>) new SimMessageCodec();
            }
        });
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Class<SimMessage> messageClass() {
        return SimMessage.class;
    }

    @Override
    public int encode(SimMessage message, MutableDirectBuffer buffer, int offset, int maxLength) {
        if (message.length() > maxLength) {
            throw new MessageTooLargeException(SimMessage.class, message.length(), maxLength);
        }
        MessageContent.write(buffer, offset, message.sessionId(), message.index(), message.length());
        return message.length();
    }

    @Override
    public SimMessage decode(DirectBuffer buffer, int offset, int length) {
        if (length < MessageContent.HEADER_LENGTH) {
            throw new CorruptMessageException("a simulation message of " + length + " bytes, shorter than its header",
                offset);
        }
        return new SimMessage(MessageContent.sessionIdOf(buffer, offset), MessageContent.indexOf(buffer, offset),
            length, MessageContent.intact(buffer, offset, length));
    }
}
