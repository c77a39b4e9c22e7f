package org.nakcast.codecs.contract;

import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.Serializable;

/**
 * Stands for a deserialization gadget: a serializable class whose {@code readObject} does
 * something. It records that it ran, so a test can assert it never did.
 */
public final class Gadget implements Serializable {
    private static final long serialVersionUID = 1L;

    private static volatile boolean readObjectRan;

    private String command = "touch /tmp/pwned";

    /**
     * @return whether any gadget's {@code readObject} has run in this JVM
     */
    public static boolean readObjectRan() {
        return readObjectRan;
    }

    private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
        in.defaultReadObject();
        readObjectRan = true;
    }

    @Override
    public String toString() {
        return "Gadget{" + command + "}";
    }
}
