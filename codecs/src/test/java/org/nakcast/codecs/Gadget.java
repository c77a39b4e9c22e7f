package org.nakcast.codecs;

import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.Serializable;

/**
 * Stands for a deserialization gadget: a serializable class whose {@code readObject} does
 * something. It records that it ran, so a test can assert it never did.
 */
final class Gadget implements Serializable {
    private static final long serialVersionUID = 1L;

    static volatile boolean readObjectRan;

    private String command = "touch /tmp/pwned";

    private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
        in.defaultReadObject();
        readObjectRan = true;
    }

    @Override
    public String toString() {
        return "Gadget{" + command + "}";
    }
}
