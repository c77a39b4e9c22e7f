package org.nakcast.codecs.sbe;

import java.nio.ByteOrder;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.sbe.MessageDecoderFlyweight;
import org.agrona.sbe.MessageEncoderFlyweight;
import org.nakcast.codecs.CodecConfigurationException;
import org.nakcast.codecs.CodecNames;
import org.nakcast.codecs.CorruptMessageException;
import org.nakcast.codecs.FlyweightCodec;
import org.nakcast.codecs.InvalidMessageException;
import org.nakcast.codecs.MessageTooLargeException;
import org.nakcast.codecs.TruncatedMessageException;
import org.nakcast.codecs.UnknownClassException;

/**
 * The {@code flyweight} codec: SBE's generated flyweights, wrapped over the datagram itself.
 *
 * <p>Every message starts with SBE's standard message header, which this class writes and checks
 * itself so that it serves any schema that uses the standard header (little-endian, unsigned):
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-------------------------------+-------------------------------+
 *  |     block length (uint16)     |      template id (uint16)     |
 *  +-------------------------------+-------------------------------+
 *  |       schema id (uint16)      |        version (uint16)       |
 *  +-------------------------------+-------------------------------+
 *  |  fixed block (block length bytes), then repeating groups ...  |
 *  +---------------------------------------------------------------+
 * </pre>
 * {@link #decoder} checks each of them against the
 * decoder and the region before wrapping, then walks the repeating groups once (inside a view
 * bounded to the region) to check that the whole message fits: the decoder it returns reads only
 * checked bytes. Versions: the same version must have the same block length; an older one may have
 * a shorter block (SBE decoders hide fields newer than the acting version), a newer one a longer
 * block and trailing parts this decoder skips.
 *
 * <p>Not thread-safe: one per thread.
 *
 * @param <T> the message class of the object path
 * @param <E> the generated encoder
 * @param <D> the generated decoder
 */
public final class SbeCodec<T, E extends MessageEncoderFlyweight, D extends MessageDecoderFlyweight>
    implements FlyweightCodec<T, E, D> {
    /** SBE's message header: four uint16 fields. */
    public static final int HEADER_LENGTH = 8;

    private static final ByteOrder BYTE_ORDER = ByteOrder.LITTLE_ENDIAN;
    private static final int BLOCK_LENGTH_OFFSET = 0;
    private static final int TEMPLATE_ID_OFFSET = 2;
    private static final int SCHEMA_ID_OFFSET = 4;
    private static final int VERSION_OFFSET = 6;

    private final SbeBinding<T, E, D> binding;
    private final E encoder;
    private final D decoder;
    private final UnsafeBuffer encodeView = new UnsafeBuffer();
    private final UnsafeBuffer decodeView = new UnsafeBuffer();

    /**
     * @param binding the message class and its flyweights
     */
    public SbeCodec(SbeBinding<T, E, D> binding) {
        this.binding = binding;
        this.encoder = binding.newEncoder();
        this.decoder = binding.newDecoder();
        if (keepsAgronasDecodedLength(decoder.getClass())) {
            throw new CodecConfigurationException("flyweight: " + decoder.getClass().getName() + " keeps Agrona's"
                + " default sbeDecodedLength(), which throws, and this codec checks every message's length with it:"
                + " override it to answer the bytes a message takes after its header (its block, plus any groups)");
        }
    }

    /** Whether a decoder leaves {@code sbeDecodedLength()} to Agrona (a flyweight written by hand may). */
    private static boolean keepsAgronasDecodedLength(Class<?> decoderClass) {
        try {
            return decoderClass.getMethod("sbeDecodedLength").isDefault();
        } catch (NoSuchMethodException ex) {
            throw new IllegalStateException("a MessageDecoderFlyweight has sbeDecodedLength()", ex);
        }
    }

    @Override
    public String name() {
        return CodecNames.FLYWEIGHT;
    }

    @Override
    public Class<T> messageClass() {
        return binding.messageClass();
    }

    @Override
    public Class<E> encoderClass() {
        return binding.encoderClass();
    }

    @Override
    public Class<D> decoderClass() {
        return binding.decoderClass();
    }

    @Override
    public E encoder(MutableDirectBuffer buffer, int offset, int maxLength) {
        final int required = HEADER_LENGTH + encoder.sbeBlockLength();
        if (maxLength < required) {
            throw new MessageTooLargeException(messageClass(), required, maxLength);
        }
        encodeView.wrap(buffer, offset, maxLength);
        encodeView.putShort(BLOCK_LENGTH_OFFSET, (short) encoder.sbeBlockLength(), BYTE_ORDER);
        encodeView.putShort(TEMPLATE_ID_OFFSET, (short) encoder.sbeTemplateId(), BYTE_ORDER);
        encodeView.putShort(SCHEMA_ID_OFFSET, (short) encoder.sbeSchemaId(), BYTE_ORDER);
        encodeView.putShort(VERSION_OFFSET, (short) encoder.sbeSchemaVersion(), BYTE_ORDER);
        encoder.wrap(encodeView, HEADER_LENGTH);
        return encoder;
    }

    @Override
    public int encodedLength() {
        return HEADER_LENGTH + encoder.encodedLength();
    }

    @Override
    public int encode(T message, MutableDirectBuffer buffer, int offset, int maxLength) {
        if (!messageClass().isInstance(message)) {
            final String name = message == null ? "null" : message.getClass().getName();
            throw new UnknownClassException("flyweight codec for " + messageClass().getName() + " cannot encode "
                + name, name);
        }
        final int required = HEADER_LENGTH + binding.encodedLength(message);
        if (required > maxLength) {
            throw new MessageTooLargeException(messageClass(), required, maxLength);
        }
        try {
            binding.encode(message, encoder(buffer, offset, maxLength));
        } catch (IndexOutOfBoundsException | IllegalArgumentException ex) {
            throw new InvalidMessageException(messageClass().getName() + " cannot be encoded: " + ex.getMessage(), ex);
        }
        return encodedLength();
    }

    @Override
    public D decoder(DirectBuffer buffer, int offset, int length) {
        if (length < HEADER_LENGTH) {
            throw new TruncatedMessageException(length + " bytes cannot hold the SBE header", offset);
        }
        decodeView.wrap(buffer, offset, length);
        final int blockLength = decodeView.getShort(BLOCK_LENGTH_OFFSET, BYTE_ORDER) & 0xFFFF;
        final int templateId = decodeView.getShort(TEMPLATE_ID_OFFSET, BYTE_ORDER) & 0xFFFF;
        final int schemaId = decodeView.getShort(SCHEMA_ID_OFFSET, BYTE_ORDER) & 0xFFFF;
        final int version = decodeView.getShort(VERSION_OFFSET, BYTE_ORDER) & 0xFFFF;
        if (schemaId != decoder.sbeSchemaId() || templateId != decoder.sbeTemplateId()) {
            throw new UnknownClassException("SBE schema " + schemaId + " template " + templateId
                + " is not " + messageClass().getName() + " (schema " + decoder.sbeSchemaId()
                + " template " + decoder.sbeTemplateId() + ")", schemaId + "/" + templateId);
        }
        checkBlockLength(blockLength, version, offset);
        if (HEADER_LENGTH + blockLength > length) {
            throw new TruncatedMessageException("block of " + blockLength + " bytes", offset + HEADER_LENGTH);
        }
        decoder.wrap(decodeView, HEADER_LENGTH, blockLength, version);
        checkDecodedLength(length, version, offset);
        decoder.wrap(decodeView, HEADER_LENGTH, blockLength, version);
        return decoder;
    }

    private void checkBlockLength(int blockLength, int version, int offset) {
        final int ownBlockLength = decoder.sbeBlockLength();
        final int ownVersion = decoder.sbeSchemaVersion();
        final boolean fits = version == ownVersion ? blockLength == ownBlockLength
            : version > ownVersion ? blockLength >= ownBlockLength : blockLength <= ownBlockLength;
        if (!fits) {
            throw new CorruptMessageException("block length " + blockLength + " does not fit version " + version
                + " (this decoder: version " + ownVersion + ", block length " + ownBlockLength + ")", offset);
        }
    }

    private void checkDecodedLength(int length, int version, int offset) {
        final int decodedLength;
        try {
            decodedLength = HEADER_LENGTH + decoder.sbeDecodedLength();
        } catch (IndexOutOfBoundsException ex) {
            throw new TruncatedMessageException("repeating group past the end of " + length + " bytes", offset, ex);
        }
        if (decodedLength > length || (decodedLength < length && version <= decoder.sbeSchemaVersion())) {
            throw new CorruptMessageException("message of " + decodedLength + " bytes in a region of " + length,
                offset);
        }
    }

    /** The schema and template ids in the SBE header, checked to match the decoder's. */
    @Override
    public boolean carries(DirectBuffer buffer, int offset, int length) {
        return length >= HEADER_LENGTH
            && (buffer.getShort(offset + TEMPLATE_ID_OFFSET, BYTE_ORDER) & 0xFFFF) == decoder.sbeTemplateId()
            && (buffer.getShort(offset + SCHEMA_ID_OFFSET, BYTE_ORDER) & 0xFFFF) == decoder.sbeSchemaId();
    }

    @Override
    public T decode(DirectBuffer buffer, int offset, int length) {
        final D checked = decoder(buffer, offset, length);
        try {
            return binding.decode(checked);
        } catch (IllegalArgumentException | IndexOutOfBoundsException ex) {
            throw new CorruptMessageException(messageClass().getName() + ": " + ex.getMessage(), offset, ex);
        }
    }
}
