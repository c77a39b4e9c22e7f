package org.nakcast.config;

import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * What the loader learnt about a config file's layout before binding it: where each key and
 * value is, which values are empty, which keys are written twice. It turns a key path into a
 * line and column for every error, those found while binding and those found by
 * {@code conclude()} alike. A config built in code has a source with no locations.
 */
final class ConfigSource {
    private final String name;
    private final Map<String, SourceLocation> keys;
    private final Map<String, SourceLocation> values;
    private final Set<String> emptyValues;
    private final Map<String, SourceLocation> repeatedKeys;
    private final SourceLocation secondDocument;

    ConfigSource(String name, Map<String, SourceLocation> keys, Map<String, SourceLocation> values,
        Set<String> emptyValues, Map<String, SourceLocation> repeatedKeys, SourceLocation secondDocument) {
        this.name = name;
        this.keys = Map.copyOf(keys);
        this.values = Map.copyOf(values);
        this.emptyValues = Set.copyOf(emptyValues);
        this.repeatedKeys = Map.copyOf(repeatedKeys);
        this.secondDocument = secondDocument;
    }

    /** @return a source without locations, for a config built in code */
    static ConfigSource withoutLocations(String name) {
        return new ConfigSource(name, Map.of(), Map.of(), Set.of(), Map.of(), SourceLocation.UNKNOWN);
    }

    String name() {
        return name;
    }

    /**
     * @return this source with the locations of {@code key} and what is under it alone: other
     *     paths are located nowhere
     */
    ConfigSource under(String key) {
        final Predicate<String> inside = path -> path.equals(key) || path.startsWith(key + "[")
            || path.startsWith(key + ".");
        return new ConfigSource(name, only(keys, inside), only(values, inside),
            emptyValues.stream().filter(inside).collect(Collectors.toSet()), Map.of(), SourceLocation.UNKNOWN);
    }

    private static Map<String, SourceLocation> only(Map<String, SourceLocation> locations, Predicate<String> inside) {
        return locations.entrySet().stream().filter(entry -> inside.test(entry.getKey()))
            .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
    }

    /** @return where the path's value is, else its key, else the nearest enclosing value that is known */
    SourceLocation locate(String path) {
        for (String at = path; ; at = KeyPaths.parent(at)) {
            SourceLocation found = values.getOrDefault(at, keys.get(at));
            if (found != null) {
                return found;
            }
            if (at.isEmpty()) {
                return SourceLocation.UNKNOWN;
            }
        }
    }

    /** @return where the key of the path is written */
    SourceLocation keyLocation(String path) {
        return keys.getOrDefault(path, locate(path));
    }

    /** @return true if the key is written, with or without a value */
    boolean hasKey(String path) {
        return keys.containsKey(path);
    }

    /** @return true if the path has a value that is not empty ({@code key:} alone or {@code null}) */
    boolean hasValue(String path) {
        return values.containsKey(path) && !emptyValues.contains(path);
    }

    /** @return the keys written more than once, with the place of the repeat */
    Map<String, SourceLocation> repeatedKeys() {
        return repeatedKeys;
    }

    /** @return where a second YAML document starts, or {@link SourceLocation#UNKNOWN} if there is none */
    SourceLocation secondDocument() {
        return secondDocument;
    }
}
