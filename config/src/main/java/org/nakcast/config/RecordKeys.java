package org.nakcast.config;

import com.fasterxml.jackson.annotation.JsonProperty;

import java.lang.reflect.RecordComponent;

/**
 * The YAML keys of the config records, read from their components, so that each key is written
 * once: in its component's {@link JsonProperty}. The withers of {@link TopicConfig} and
 * {@link TransportConfig} copy a record with one key changed by naming that key.
 */
final class RecordKeys {
    private RecordKeys() {
    }

    /** @return the key a record component is read from, e.g. {@code datagram-size} */
    static String keyOf(RecordComponent component) {
        return component.getAccessor().getAnnotation(JsonProperty.class).value();
    }

    /**
     * A copy of a config record with the component read from {@code key} set to {@code value}. It is
     * made by the record's canonical constructor, so the defaults and copies of its compact
     * constructor apply as they do to a record read from YAML.
     *
     * @param record the record to copy
     * @param key the YAML key of the component to change
     * @param value its new value, of the component's type
     * @return the copy
     * @throws IllegalArgumentException if the record has no such key or the value is of another type
     */
    static <R extends Record> R with(R record, String key, Object value) {
        @SuppressWarnings("unchecked") // the class of an R is a Class<R>
        final Class<R> type = (Class<R>) record.getClass();
        final RecordComponent[] components = type.getRecordComponents();
        final Class<?>[] types = new Class<?>[components.length];
        final Object[] values = new Object[components.length];
        boolean known = false;
        try {
            for (int i = 0; i < components.length; i++) {
                types[i] = components[i].getType();
                final boolean changed = keyOf(components[i]).equals(key);
                values[i] = changed ? value : components[i].getAccessor().invoke(record);
                known |= changed;
            }
            if (!known) {
                throw new IllegalArgumentException(type.getSimpleName() + " has no key '" + key + "'");
            }
            return type.getDeclaredConstructor(types).newInstance(values);
        } catch (ReflectiveOperationException cannotCopy) {
            throw new IllegalStateException("cannot copy " + type.getSimpleName(), cannotCopy);
        }
    }
}
