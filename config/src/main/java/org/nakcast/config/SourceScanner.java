package org.nakcast.config;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;

/**
 * The first pass over a config file: one walk over its YAML tokens that records the line and
 * column of every key and value by key path ({@code topics[2].transport} -> line 14, column 16).
 */
final class SourceScanner {
    private SourceScanner() {
    }

    /**
     * @param parser a parser at the start of the document
     * @param name the file or resource name
     * @return the layout of the document
     * @throws tools.jackson.core.JacksonException if the YAML does not parse
     */
    static ConfigSource scan(JsonParser parser, String name) {
        Map<String, SourceLocation> keys = new HashMap<>();
        Map<String, SourceLocation> values = new HashMap<>();
        Set<String> emptyValues = new HashSet<>();
        Map<String, SourceLocation> repeatedKeys = new HashMap<>();
        int depth = 0;
        boolean documentDone = false;
        for (JsonToken token = parser.nextToken(); token != null; token = parser.nextToken()) {
            SourceLocation at = SourceLocation.of(parser.currentTokenLocation());
            if (documentDone) {
                return new ConfigSource(name, keys, values, emptyValues, repeatedKeys, at);
            }
            String path = KeyPaths.of(parser.streamReadContext());
            if (token == JsonToken.PROPERTY_NAME) {
                if (keys.putIfAbsent(path, at) != null) {
                    repeatedKeys.putIfAbsent(path, at);
                }
            } else if (token.isStructEnd()) {
                depth--;
                documentDone = depth == 0;
            } else {
                values.putIfAbsent(path, at);
                if (token == JsonToken.VALUE_NULL) {
                    emptyValues.add(path);
                }
                depth += token.isStructStart() ? 1 : 0;
                documentDone = depth == 0;
            }
        }
        return new ConfigSource(name, keys, values, emptyValues, repeatedKeys, SourceLocation.UNKNOWN);
    }
}
