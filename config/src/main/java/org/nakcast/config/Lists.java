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
     * {@code conclude()} can name the empty YAML entry ({@code - }) they came from. Topics as read
     * from YAML ({@link LocatedTopics}) are kept as they are.
     */
    static <T> List<T> copyOf(List<T> list) {
        if (list instanceof LocatedTopics) {
            return list; // read-only already, and it keeps where its topics are written
        }
        return list == null ? List.of() : Collections.unmodifiableList(new ArrayList<>(list));
    }
}
