package org.nakcast.codecs.fst;

import java.io.IOException;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.nakcast.codecs.AllowedClasses;
import org.nakcast.codecs.Codec;
import org.nakcast.codecs.CodecException;
import org.nakcast.codecs.CorruptMessageException;
import org.nakcast.codecs.MessageTooLargeException;
import org.nakcast.codecs.TruncatedMessageException;
import org.nustaq.serialization.FSTConfiguration;
import org.nustaq.serialization.FSTObjectInput;

/**
 * The {@code fst} and {@code fst-unshared} codecs: FST 2.57 with the topic's classes registered in
 * order, with or without shared references.
 *
 * <p>Encoding writes into FST's own reused buffer and copies the bytes into the region; decoding
 * copies the region into a reused array and reads from it (FST reads from arrays only). The copy is
 * a few dozen bytes for the sample messages.
 *
 * <p>What FST 2.57 does not check, this codec does: classes outside the allow-list are refused on
 * write and on read (by id, and by name before loading: {@link AllowListClassLoader}); unknown class
 * ids, string and list lengths larger than the bytes left, reads past the end of the message and a
 * root object of the wrong class are typed errors. Containers other than {@link java.util.ArrayList}
 * and arrays are refused when the codec is made (FST sizes them from the wire unchecked).
 *
 * <p>Not thread-safe: one per thread.
 *
 * @param <T> the type of the topic's messages
 */
public final class FstCodec<T> implements Codec<T> {
    private final String name;
    private final Class<T> messageClass;
    private final AllowedClasses allowed;
    private final CheckedFstOutput output;
    private final FSTObjectInput input;
    private byte[] scratch = new byte[256];

    FstCodec(String name, Class<T> messageClass, FSTConfiguration conf, AllowedClasses allowed) {
        this.name = name;
        this.messageClass = messageClass;
        this.allowed = allowed;
        this.output = new CheckedFstOutput(conf, allowed);
        this.input = new FSTObjectInput(conf);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public Class<T> messageClass() {
        return messageClass;
    }

    @Override
    public int encode(T message, MutableDirectBuffer buffer, int offset, int maxLength) {
        allowed.checkMessage(message, messageClass);
        output.resetForReUse();
        try {
            output.writeObject(message);
        } catch (IOException ex) {
            throw new CodecException(name + ": cannot encode " + messageClass.getName() + ": " + ex, ex);
        } catch (RuntimeException ex) {
            throw FstErrors.translate(name, ex, offset);
        }
        final int length = output.getWritten();
        if (length > maxLength) {
            throw new MessageTooLargeException(messageClass, length, maxLength);
        }
        buffer.putBytes(offset, output.getBuffer(), 0, length);
        return length;
    }

    @Override
    public T decode(DirectBuffer buffer, int offset, int length) {
        if (length <= 0) {
            throw new TruncatedMessageException("empty FST message", offset);
        }
        if (scratch.length < length) {
            scratch = new byte[length];
        }
        buffer.getBytes(offset, scratch, 0, length);
        final Object decoded;
        try {
            input.resetForReuseUseArray(scratch, length);
            decoded = input.readObject();
        } catch (Exception ex) {
            throw FstErrors.translate(name, ex, offset);
        }
        final int consumed = input.getCodec().getInputPos();
        if (consumed > length) {
            throw new TruncatedMessageException("FST read " + consumed + " bytes of " + length, offset + length);
        }
        if (consumed < length) {
            throw new CorruptMessageException((length - consumed) + " bytes after the message", offset + consumed);
        }
        if (!messageClass.isInstance(decoded)) {
            throw new CorruptMessageException(name + ": decoded a " + (decoded == null ? "null" : decoded.getClass()
                .getName()) + ", not a " + messageClass.getName(), offset);
        }
        return messageClass.cast(decoded);
    }
}
