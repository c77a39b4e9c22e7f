package org.nakcast.codecs.sbe;

import java.nio.ByteOrder;

import org.nakcast.codecs.UnknownClassException;

/**
 * Facts of the SBE wire shared by the flyweight codec's classes.
 */
final class SbeWire {
    /** Every nakcast schema is little-endian. */
    static final ByteOrder BYTE_ORDER = ByteOrder.LITTLE_ENDIAN;

    private SbeWire() {
    }

    static UnknownClassException notCarried(Object message, Class<?> messageClass) {
        final String name = message == null ? "null" : message.getClass().getName();
        return new UnknownClassException("flyweight codec for " + messageClass.getName() + " cannot encode "
            + name, name);
    }
}
