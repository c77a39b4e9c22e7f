package org.nakcast.codecs;

/**
 * An encoded message does not fit the space given. Nothing was written past that space.
 */
public final class MessageTooLargeException extends CodecException {
    private static final long serialVersionUID = 1L;

    private final int maxLength;

    /**
     * @param messageClass the class being encoded
     * @param maxLength    the space given
     */
    public MessageTooLargeException(Class<?> messageClass, int maxLength) {
        super(messageClass.getName() + " does not fit in " + maxLength + " bytes");
        this.maxLength = maxLength;
    }

    /**
     * @param messageClass the class being encoded
     * @param required     the bytes it needs
     * @param maxLength    the space given
     */
    public MessageTooLargeException(Class<?> messageClass, int required, int maxLength) {
        super(messageClass.getName() + " needs " + required + " bytes, only " + maxLength + " given");
        this.maxLength = maxLength;
    }

    /**
     * @return the space that was given
     */
    public int maxLength() {
        return maxLength;
    }
}
