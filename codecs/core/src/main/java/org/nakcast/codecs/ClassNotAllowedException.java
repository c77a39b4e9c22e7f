package org.nakcast.codecs;

/**
 * Decoding met a class outside the topic's allow-list (or encoding was asked to write one). The
 * class is named, and was not loaded or instantiated: this is how a gadget class in an untrusted
 * stream is stopped.
 */
public final class ClassNotAllowedException extends UnknownClassException {
    private static final long serialVersionUID = 1L;

    /**
     * @param codecName the codec that refused it
     * @param className the refused class
     */
    public ClassNotAllowedException(String codecName, String className) {
        super(codecName + ": class " + className + " is not in the topic's allowed classes", className);
    }
}
