package org.nakcast.config;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** Read-only copies of the lists in the model. */
final class Lists {
    private Lists() {
    }

    /**
     * An unmodifiable copy; an absent list is empty. Null entries are kept, so that
     * {@code conclude()} can name the empty YAML entry ({@code - }) they came from.
     */
    static <T> List<T> copyOf(List<T> list) {
        return list == null ? List.of() : Collections.unmodifiableList(new ArrayList<>(list));
    }
}
