package org.nakcast.config;

import java.io.Serializable;

/**
 * One thing wrong with a config: where it is and what it is.
 *
 * @param source the file or resource the config came from, or where it was built
 * @param path the key path in the config, e.g. {@code topics[2].transport}; empty for the whole
 *     document
 * @param line the line in the source, from 1; 0 if not known (configs built in code)
 * @param column the column in the source, from 1; 0 if not known
 * @param message what is wrong, e.g. {@code unknown key 'trasnport'}
 * @param hint how to put it right, e.g. {@code did you mean 'transport'? known keys: ...}; empty
 *     if there is nothing to add
 */
public record Problem(String source, String path, int line, int column, String message, String hint)
    implements Serializable {

    /** @return true if the line and column are known */
    public boolean hasLocation() {
        return line > 0;
    }

    /**
     * @return the problem in one line, without the source:
     *     {@code unknown key 'trasnport' at topics[2] (line 14, column 5); did you mean 'transport'? ...}
     */
    public String describe() {
        StringBuilder text = new StringBuilder(message).append(" at ").append(path.isEmpty() ? "the top level" : path);
        if (hasLocation()) {
            text.append(" (line ").append(line).append(", column ").append(column).append(')');
        }
        if (!hint.isEmpty()) {
            text.append("; ").append(hint);
        }
        return text.toString();
    }

    /** @return the source and the problem: {@code config/nakcast.yaml: unknown key ...} */
    @Override
    public String toString() {
        return source + ": " + describe();
    }
}
