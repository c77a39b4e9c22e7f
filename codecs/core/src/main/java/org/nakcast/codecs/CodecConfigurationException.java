package org.nakcast.codecs;

/**
 * A codec cannot be made as asked: a class it cannot carry, a name registered twice, a flyweight
 * message without a binding. Thrown at start, never while sending or receiving.
 */
public class CodecConfigurationException extends CodecException {
    private static final long serialVersionUID = 1L;

    /**
     * @param message what is wrong, naming the class or name involved
     */
    public CodecConfigurationException(String message) {
        super(message);
    }
}
