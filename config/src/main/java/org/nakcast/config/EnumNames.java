package org.nakcast.config;

import java.util.Arrays;
import java.util.Locale;

/**
 * How the configuration's enums are written in YAML: the constant's name in lower case with
 * dashes, {@code INVOKER} as {@code invoker}, a {@code SOME_MODE} as {@code some-mode}. Exactly
 * that spelling is accepted; anything else is an error that lists the allowed values.
 */
final class EnumNames {
    private EnumNames() {
    }

    /** @return the value as YAML writes it */
    static String yamlName(Enum<?> value) {
        return value.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /**
     * Reads an enum value written as YAML writes it.
     *
     * @throws IllegalArgumentException if the text names no value, listing the allowed ones
     */
    static <E extends Enum<E>> E parse(Class<E> type, String text) {
        E[] values = type.getEnumConstants();
        for (E value : values) {
            if (yamlName(value).equals(text)) {
                return value;
            }
        }
        throw new BadValueException("unknown value '" + text + "'",
            Spelling.hint(text, Arrays.stream(values).map(EnumNames::yamlName).toList(), "allowed values"));
    }
}
