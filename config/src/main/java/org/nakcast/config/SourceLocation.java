package org.nakcast.config;

import tools.jackson.core.TokenStreamLocation;

/**
 * A place in a config file.
 *
 * @param line the line, from 1; 0 if not known
 * @param column the column, from 1; 0 if not known
 */
record SourceLocation(int line, int column) {
    static final SourceLocation UNKNOWN = new SourceLocation(0, 0);

    static SourceLocation of(TokenStreamLocation location) {
        return location == null || location.getLineNr() < 1
            ? UNKNOWN
            : new SourceLocation(location.getLineNr(), location.getColumnNr());
    }

    boolean isKnown() {
        return line > 0;
    }
}
