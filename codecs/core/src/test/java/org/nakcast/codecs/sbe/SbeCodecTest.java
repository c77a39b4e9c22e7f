package org.nakcast.codecs.sbe;

import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import org.agrona.DirectBuffer;
import org.agrona.sbe.MessageDecoderFlyweight;
import org.agrona.sbe.MessageEncoderFlyweight;
import org.junit.jupiter.api.Test;
import org.nakcast.codecs.CodecConfigurationException;

/** What {@link SbeCodec} refuses at once, before any message: flyweights it could not check messages with. */
class SbeCodecTest {
    @Test
    void aDecoderThatKeepsAgronasDefaultDecodedLengthIsRefusedNamingItAndWhatToDo() {
        assertThatExceptionOfType(CodecConfigurationException.class)
            .isThrownBy(() -> new SbeCodec<>(new HalfWrittenBinding()))
            .withMessageContaining(HalfWrittenDecoder.class.getName())
            .withMessageContaining("keeps Agrona's default sbeDecodedLength()")
            .withMessageContaining("override it to answer the bytes a message takes after its header");
    }

    /** A decoder written by hand that forgot {@code sbeDecodedLength()}; nothing else of it is used. */
    static final class HalfWrittenDecoder implements MessageDecoderFlyweight {
        @Override
        public HalfWrittenDecoder wrap(DirectBuffer buffer, int offset, int actingBlockLength, int actingVersion) {
            return this;
        }

        @Override
        public StringBuilder appendTo(StringBuilder builder) {
            return builder;
        }

        @Override
        public DirectBuffer buffer() {
            return null;
        }

        @Override
        public int offset() {
            return 0;
        }

        @Override
        public int encodedLength() {
            return 0;
        }

        @Override
        public int limit() {
            return 0;
        }

        @Override
        public void limit(int limit) {
        }

        @Override
        public int sbeBlockLength() {
            return 0;
        }

        @Override
        public int sbeTemplateId() {
            return 1;
        }

        @Override
        public int sbeSchemaId() {
            return 904;
        }

        @Override
        public int sbeSchemaVersion() {
            return 0;
        }

        @Override
        public String sbeSemanticType() {
            return "";
        }
    }

    /** Binds the half-written decoder; the codec refuses it while it is made. */
    private static final class HalfWrittenBinding
        implements SbeBinding<Object, MessageEncoderFlyweight, HalfWrittenDecoder> {
        @Override
        public Class<Object> messageClass() {
            return Object.class;
        }

        @Override
        public Class<MessageEncoderFlyweight> encoderClass() {
            return MessageEncoderFlyweight.class;
        }

        @Override
        public Class<HalfWrittenDecoder> decoderClass() {
            return HalfWrittenDecoder.class;
        }

        @Override
        public MessageEncoderFlyweight newEncoder() {
            return null;
        }

        @Override
        public HalfWrittenDecoder newDecoder() {
            return new HalfWrittenDecoder();
        }

        @Override
        public int encodedLength(Object message) {
            return 0;
        }

        @Override
        public void encode(Object message, MessageEncoderFlyweight encoder) {
        }

        @Override
        public Object decode(HalfWrittenDecoder decoder) {
            return null;
        }
    }
}
