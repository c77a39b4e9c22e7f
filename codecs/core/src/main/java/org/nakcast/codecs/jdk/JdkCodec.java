package org.nakcast.codecs.jdk;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.InvalidClassException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.ObjectStreamClass;
import java.io.OutputStream;
import java.io.StreamCorruptedException;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.io.DirectBufferInputStream;
import org.agrona.io.DirectBufferOutputStream;
import org.nakcast.codecs.AllowedClasses;
import org.nakcast.codecs.ClassNotAllowedException;
import org.nakcast.codecs.Codec;
import org.nakcast.codecs.CodecException;
import org.nakcast.codecs.CorruptMessageException;
import org.nakcast.codecs.MessageTooLargeException;
import org.nakcast.codecs.TruncatedMessageException;

/**
 * The {@code jdk} and {@code jdk-externalizable} codecs: Java serialization, one self-contained
 * stream per message (every message carries the stream header and its class descriptors, as a
 * datagram must be decodable alone).
 *
 * <p>Decoding is guarded twice: {@link ObjectInputStream#resolveClass} answers a class name from the
 * allow-list's own {@code Class} objects and refuses any other name before a class is looked up (a
 * gadget class is never loaded; no {@code Class.forName} on the decode path), and the
 * {@link AllowListFilter} checks classes, depth, references, bytes and array lengths. Dynamic
 * proxies are refused. Encoding refuses a class off the allow-list too, so the publisher hears of
 * it first.
 *
 * <p>Not thread-safe: one per thread.
 *
 * @param <T> the type of the topic's messages
 */
public final class JdkCodec<T> implements Codec<T> {
    private final String name;
    private final Class<T> messageClass;
    private final AllowedClasses allowed;
    private final AllowListFilter filter;
    private final DirectBufferOutputStream out = new DirectBufferOutputStream();
    private final DirectBufferInputStream in = new DirectBufferInputStream();

    JdkCodec(String name, Class<T> messageClass, AllowedClasses allowed) {
        this.name = name;
        this.messageClass = messageClass;
        this.allowed = allowed;
        this.filter = new AllowListFilter(allowed);
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
        out.wrap(buffer, offset, maxLength);
        try (ObjectOutputStream objects = new CheckedOutput(out)) {
            objects.writeObject(message);
        } catch (IllegalStateException ex) {
            throw new MessageTooLargeException(messageClass, maxLength);
        } catch (IOException ex) {
            throw new CodecException(name + ": cannot encode " + messageClass.getName() + ": " + ex, ex);
        }
        return out.position();
    }

    @Override
    public T decode(DirectBuffer buffer, int offset, int length) {
        in.wrap(buffer, offset, length);
        filter.reset(length);
        final Object decoded;
        try (ObjectInputStream objects = new CheckedInput(in)) {
            objects.setObjectInputFilter(filter);
            decoded = objects.readObject();
            if (in.available() > 0 || objects.available() > 0) {
                throw new CorruptMessageException(name + ": bytes after the message", offset + length - in.available());
            }
        } catch (InvalidClassException ex) {
            throw rejected(ex, offset);
        } catch (EOFException | StreamCorruptedException ex) {
            throw new TruncatedMessageException(name + ": " + ex, offset, ex);
        } catch (IOException | ClassNotFoundException | RuntimeException ex) {
            if (ex instanceof CodecException codecException) {
                throw codecException;
            }
            throw new CorruptMessageException(name + " cannot decode: " + ex, offset, ex);
        }
        if (!messageClass.isInstance(decoded)) {
            throw new CorruptMessageException(name + ": decoded a " + (decoded == null ? "null"
                : decoded.getClass().getName()) + ", not a " + messageClass.getName(), offset);
        }
        return messageClass.cast(decoded);
    }

    private CodecException rejected(InvalidClassException ex, int offset) {
        if (filter.rejectedClass() != null) {
            return new ClassNotAllowedException(name, filter.rejectedClass());
        }
        if (filter.rejectedLimit() != null) {
            return new CorruptMessageException(name + ": stream over its limits: " + filter.rejectedLimit(),
                offset, ex);
        }
        return new CorruptMessageException(name + " cannot decode: " + ex, offset, ex);
    }

    /**
     * Refuses, by name and before loading, every class off the allow-list, and every proxy.
     */
    private final class CheckedInput extends ObjectInputStream {
        CheckedInput(InputStream in) throws IOException {
            super(in);
        }

        @Override
        protected Class<?> resolveClass(ObjectStreamClass descriptor) throws IOException, ClassNotFoundException {
            final Class<?> allowedClass = allowed.forName(descriptor.getName());
            if (allowedClass != null) {
                return allowedClass;
            }
            if (!isPrimitiveArray(descriptor.getName())) {
                throw new ClassNotAllowedException(name, descriptor.getName());
            }
            return super.resolveClass(descriptor);
        }

        @Override
        protected Class<?> resolveProxyClass(String[] interfaces) {
            throw new ClassNotAllowedException(name, "proxy of " + String.join(", ", interfaces));
        }

        private boolean isPrimitiveArray(String className) {
            return className.length() == 2 && className.charAt(0) == '[';
        }
    }

    /**
     * Refuses to write a class off the allow-list.
     */
    private final class CheckedOutput extends ObjectOutputStream {
        CheckedOutput(OutputStream out) throws IOException {
            super(out);
        }

        @Override
        protected void annotateClass(Class<?> type) {
            Class<?> element = type;
            while (element.isArray()) {
                element = element.getComponentType();
            }
            if (!element.isPrimitive()) {
                allowed.check(element);
            }
        }
    }
}
