package org.nakcast.codecs;

import java.util.Set;

/**
 * No codec is registered under the name asked for.
 */
public final class UnknownCodecException extends CodecConfigurationException {
    private static final long serialVersionUID = 1L;

    private final String codecName;

    /**
     * @param codecName  the name asked for
     * @param knownNames the names that are registered
     */
    public UnknownCodecException(String codecName, Set<String> knownNames) {
        super("unknown codec '" + codecName + "'; known codecs: " + String.join(", ", knownNames));
        this.codecName = codecName;
    }

    /**
     * @param codecName  the name asked for
     * @param knownNames the names that are registered
     * @param remedy     how to get the codec, e.g. the module that brings it
     */
    public UnknownCodecException(String codecName, Set<String> knownNames, String remedy) {
        super("codec '" + codecName + "' is not registered: " + remedy + "; known codecs: "
            + String.join(", ", knownNames));
        this.codecName = codecName;
    }

    /**
     * @return the name asked for
     */
    public String codecName() {
        return codecName;
    }
}
