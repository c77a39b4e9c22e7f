package org.nakcast.codecs.kryo;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.KryoException;
import com.esotericsoftware.kryo.io.KryoBufferUnderflowException;
import com.esotericsoftware.kryo.io.Output;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.nakcast.codecs.AllowedClasses;
import org.nakcast.codecs.Codec;
import org.nakcast.codecs.CodecException;
import org.nakcast.codecs.CodecNames;
import org.nakcast.codecs.CorruptMessageException;
import org.nakcast.codecs.MessageTooLargeException;
import org.nakcast.codecs.TruncatedMessageException;
import org.nakcast.codecs.UnknownClassException;

/**
 * The {@code kryo} codec: Kryo 5, registration required, references off. The message is written
 * with its class id ({@code writeClassAndObject}), so a stream of another registered class is
 * caught as a wrong root class, and an unregistered id as an {@link UnknownClassException}.
 *
 * <p>Encoding writes into Kryo's reused buffer and copies the bytes into the region; decoding copies
 * the region into a reused array (Kryo's safe input reads arrays).
 *
 * <p>Not thread-safe (nor is {@link Kryo}): one per thread.
 *
 * @param <T> the type of the topic's messages
 */
public final class KryoCodec<T> implements Codec<T> {
    private static final String NOT_REGISTERED = "Class is not registered: ";
    private static final String UNREGISTERED_ID = "Encountered unregistered class ID: ";

    private final Class<T> messageClass;
    private final AllowedClasses allowed;
    private final Kryo kryo;
    private final Output output = new Output(256, -1);
    private final BoundedInput input = new BoundedInput();
    private byte[] scratch = new byte[256];

    KryoCodec(Class<T> messageClass, AllowedClasses allowed, Kryo kryo) {
        this.messageClass = messageClass;
        this.allowed = allowed;
        this.kryo = kryo;
    }

    @Override
    public String name() {
        return CodecNames.KRYO;
    }

    @Override
    public Class<T> messageClass() {
        return messageClass;
    }

    @Override
    public int encode(T message, MutableDirectBuffer buffer, int offset, int maxLength) {
        allowed.checkMessage(message, messageClass);
        output.reset();
        try {
            kryo.writeClassAndObject(output, message);
        } catch (IllegalArgumentException | KryoException ex) {
            throw encodeError(ex);
        }
        final int length = output.position();
        if (length > maxLength) {
            throw new MessageTooLargeException(messageClass, length, maxLength);
        }
        buffer.putBytes(offset, output.getBuffer(), 0, length);
        return length;
    }

    private CodecException encodeError(RuntimeException ex) {
        for (Throwable cause = ex; cause != null; cause = cause.getCause()) {
            final String message = String.valueOf(cause.getMessage());
            final int at = message.indexOf(NOT_REGISTERED);
            if (cause instanceof IllegalArgumentException && at >= 0) {
                final String name = message.substring(at + NOT_REGISTERED.length()).split("\\s")[0];
                return new UnknownClassException("kryo: class " + name + " is not registered", name, ex);
            }
        }
        return new CodecException("kryo: cannot encode " + messageClass.getName() + ": " + ex, ex);
    }

    @Override
    public T decode(DirectBuffer buffer, int offset, int length) {
        if (scratch.length < length) {
            scratch = new byte[length];
        }
        buffer.getBytes(offset, scratch, 0, length);
        input.setBuffer(scratch, 0, length);
        final Object decoded;
        try {
            decoded = kryo.readClassAndObject(input);
        } catch (BoundedCollectionSerializer.KryoBoundsException ex) {
            throw new TruncatedMessageException(ex.getMessage(), offset + ex.position(), ex);
        } catch (KryoBufferUnderflowException ex) {
            throw new TruncatedMessageException("kryo read past the end of " + length + " bytes", offset + length, ex);
        } catch (RuntimeException ex) {
            throw decodeError(ex, offset);
        }
        if (input.position() != length) {
            throw new CorruptMessageException((length - input.position()) + " bytes after the message",
                offset + input.position());
        }
        if (!messageClass.isInstance(decoded)) {
            throw new CorruptMessageException("kryo: decoded a " + (decoded == null ? "null"
                : decoded.getClass().getName()) + ", not a " + messageClass.getName(), offset);
        }
        return messageClass.cast(decoded);
    }

    private CodecException decodeError(RuntimeException ex, int offset) {
        for (Throwable cause = ex; cause != null; cause = cause.getCause()) {
            if (cause instanceof KryoBufferUnderflowException) {
                return new TruncatedMessageException("kryo read past the end", offset, ex);
            }
            final String message = String.valueOf(cause.getMessage());
            final int at = message.indexOf(UNREGISTERED_ID);
            if (at >= 0) {
                final String id = message.substring(at + UNREGISTERED_ID.length()).split("\\s")[0];
                return new UnknownClassException("kryo: unregistered class id " + id, "id " + id, ex);
            }
        }
        return new CorruptMessageException("kryo cannot decode: " + ex, offset, ex);
    }
}
