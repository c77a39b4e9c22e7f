package org.nakcast.config;

import java.lang.reflect.RecordComponent;
import java.util.List;

/**
 * Checks that a bound config file wrote every key marked {@link RequiredKey}, with a value.
 * Jackson's own check stops at the first missing key; this one reports them all.
 */
final class RequiredKeys {
    private RequiredKeys() {
    }

    static void check(NodeConfig config, ProblemList problems) {
        checkObject(NodeConfig.class, "", problems);
        checkEach(TransportConfig.class, "transports", config.transports(), problems);
        checkEach(TopicConfig.class, "topics", config.topics(), problems);
    }

    private static void checkEach(Class<? extends Record> type, String listPath, List<?> entries,
        ProblemList problems) {
        for (int i = 0; i < entries.size(); i++) {
            String path = KeyPaths.element(listPath, i);
            if (entries.get(i) == null) {
                reportEmptyEntry(path, listPath, problems);
            } else {
                checkObject(type, path, problems);
            }
        }
    }

    /** An entry is null because it is empty ({@code - }) or because its value was refused, already reported. */
    private static void reportEmptyEntry(String path, String listPath, ProblemList problems) {
        if (!problems.source().hasValue(path)) {
            problems.add(path, "empty entry in " + listPath);
        }
    }

    private static void checkObject(Class<? extends Record> type, String path, ProblemList problems) {
        ConfigSource source = problems.source();
        for (RecordComponent component : type.getRecordComponents()) {
            if (component.isAnnotationPresent(RequiredKey.class)) {
                String key = RecordKeys.keyOf(component);
                String keyPath = KeyPaths.child(path, key);
                if (!source.hasKey(keyPath)) {
                    problems.add(path, "missing required key '" + key + "'");
                } else if (!source.hasValue(keyPath)) {
                    problems.add(keyPath, "required key '" + key + "' has no value");
                }
            }
        }
    }
}
