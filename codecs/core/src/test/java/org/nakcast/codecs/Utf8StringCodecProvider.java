package org.nakcast.codecs;

import java.nio.charset.StandardCharsets;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * A user codec found on the class path (listed in this module's test
 * {@code META-INF/services/org.nakcast.codecs.CodecProvider}): strings as UTF-8 bytes.
 */
public final class Utf8StringCodecProvider implements CodecProvider {
    static final String NAME = "test-utf8";

    @Override
    public String codecName() {
        return NAME;
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T> Codec<T> create(CodecSpec<T> spec) {
        if (spec.messageClass() != String.class) {
            throw new CodecConfigurationException(NAME + " carries java.lang.String only");
        }
        return (Codec<T>) new Utf8StringCodec();
    }

    /**
     * The codec itself.
     */
    private static final class Utf8StringCodec implements Codec<String> {
        @Override
        public String name() {
            return NAME;
        }

        @Override
        public Class<String> messageClass() {
            return String.class;
        }

        @Override
        public int encode(String message, MutableDirectBuffer buffer, int offset, int maxLength) {
            final byte[] bytes = message.getBytes(StandardCharsets.UTF_8);
            if (bytes.length > maxLength) {
                throw new MessageTooLargeException(String.class, bytes.length, maxLength);
            }
            buffer.putBytes(offset, bytes);
            return bytes.length;
        }

        @Override
        public String decode(DirectBuffer buffer, int offset, int length) {
            final byte[] bytes = new byte[length];
            buffer.getBytes(offset, bytes);
            return new String(bytes, StandardCharsets.UTF_8);
        }
    }
}
