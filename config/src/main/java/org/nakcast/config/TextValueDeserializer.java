package org.nakcast.config;

import java.util.function.Function;

import tools.jackson.core.JsonParser;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.deser.std.StdDeserializer;

/**
 * Reads a value written as one YAML scalar with a parser of its text: sizes ({@code 64k}),
 * durations ({@code 10ms}), enum values ({@code shared}), switches ({@code true}), IP literals,
 * paths. A value the parser refuses becomes a problem at its key path, and binding goes on.
 *
 * @param <T> the type read
 */
final class TextValueDeserializer<T> extends StdDeserializer<T> {
    private final Class<T> type;
    private final Function<String, T> parser;

    TextValueDeserializer(Class<T> type, Function<String, T> parser) {
        super(type);
        this.type = type;
        this.parser = parser;
    }

    @Override
    public T deserialize(JsonParser yaml, DeserializationContext context) {
        if (!yaml.currentToken().isScalarValue()) {
            return type.cast(context.handleUnexpectedToken(type, yaml));
        }
        String text = yaml.getValueAsString();
        try {
            return parser.apply(text);
        } catch (BadValueException bad) {
            ProblemRecorder.problems(context).add(KeyPaths.of(yaml.streamReadContext()), bad.problem(), bad.hint());
        } catch (IllegalArgumentException bad) {
            ProblemRecorder.problems(context).add(KeyPaths.of(yaml.streamReadContext()),
                "'" + text + "' is not valid: " + bad.getMessage());
        }
        return null;
    }
}
