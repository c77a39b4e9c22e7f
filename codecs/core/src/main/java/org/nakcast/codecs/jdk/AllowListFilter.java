package org.nakcast.codecs.jdk;

import java.io.ObjectInputFilter;

import org.nakcast.codecs.AllowedClasses;

/**
 * The {@link ObjectInputFilter} of the JDK codecs: a class is allowed only if it is on the topic's
 * allow-list (arrays: if their element class is, or is primitive), and the stream is capped in
 * depth, references, bytes and array length. Every cap derives from the message length, so a
 * stream cannot make the decoder allocate more than a small multiple of its own size.
 *
 * <p>{@code Object[]} passes the class check (its length is still capped): collections such as
 * {@link java.util.ArrayList} ask the filter about the array they are about to allocate. A stream
 * that carries an {@code Object[]} as an object of its own is refused by name before it gets here.
 *
 * <p>It remembers the class it rejected, so the codec can name it in
 * {@link org.nakcast.codecs.ClassNotAllowedException}.
 */
final class AllowListFilter implements ObjectInputFilter {
    /** The deepest object nesting accepted. */
    static final int MAX_DEPTH = 32;

    private final AllowedClasses allowed;
    private long maxBytes;
    private String rejectedClass;
    private String rejectedLimit;

    AllowListFilter(AllowedClasses allowed) {
        this.allowed = allowed;
    }

    /**
     * Starts a new stream of the given length.
     *
     * @param length the message length
     */
    void reset(int length) {
        maxBytes = length;
        rejectedClass = null;
        rejectedLimit = null;
    }

    String rejectedClass() {
        return rejectedClass;
    }

    String rejectedLimit() {
        return rejectedLimit;
    }

    @Override
    public Status checkInput(FilterInfo info) {
        final Class<?> type = info.serialClass();
        if (type != null && type != Object[].class) {
            Class<?> element = type;
            while (element.isArray()) {
                element = element.getComponentType();
            }
            if (!element.isPrimitive() && !allowed.contains(element)) {
                rejectedClass = type.getName();
                return Status.REJECTED;
            }
        }
        if (info.depth() > MAX_DEPTH) {
            return limit("depth " + info.depth() + " > " + MAX_DEPTH);
        }
        if (info.references() > maxBytes) {
            return limit(info.references() + " references in " + maxBytes + " bytes");
        }
        if (info.streamBytes() > maxBytes) {
            return limit("read " + info.streamBytes() + " bytes of " + maxBytes);
        }
        if (info.arrayLength() > maxBytes) {
            return limit("array of " + info.arrayLength() + " in " + maxBytes + " bytes");
        }
        return Status.ALLOWED;
    }

    private Status limit(String what) {
        rejectedLimit = what;
        return Status.REJECTED;
    }
}
