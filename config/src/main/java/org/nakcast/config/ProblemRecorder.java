package org.nakcast.config;

import java.lang.reflect.Array;
import java.util.Collection;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.JavaType;
import tools.jackson.databind.ValueDeserializer;
import tools.jackson.databind.deser.DeserializationProblemHandler;
import tools.jackson.databind.deser.ValueInstantiator;

/**
 * Turns what Jackson finds wrong while binding (an unknown key, a value of the wrong kind) into a
 * {@link Problem} and lets binding go on, so that one load reports every such problem, not only
 * the first. The problems go to the {@link ProblemList} of the load in progress, which the loader
 * passes as a per-call attribute ({@link #problems(DeserializationContext)}).
 */
final class ProblemRecorder extends DeserializationProblemHandler {
    /** Keys that were configuration once and are now chosen in code: what to do instead. */
    private static final Map<String, String> CHOSEN_IN_CODE = Map.of("delivery",
        "a subscription chooses its thread in code: Node.newByteSubscription(...) (or its typed or flyweight"
            + " kind) delivers on Subscription.poll(), and with a last argument Delivery.ON_RECEIVING_THREAD on"
            + " the node's receiving thread;"
            + " delivery-queue and delivery-queue-timeout stay here");

    /** @return the problem list of the load in progress */
    static ProblemList problems(DeserializationContext context) {
        return (ProblemList) context.getAttribute(ProblemList.class);
    }

    @Override
    public boolean handleUnknownProperty(DeserializationContext context, JsonParser parser,
        ValueDeserializer<?> deserializer, Object beanOrClass, String key) {
        ProblemList problems = problems(context);
        String objectPath = KeyPaths.of(parser.streamReadContext().getParent());
        Set<String> known = new HashSet<>(); // with the keys a component also answers to (transport, transports)
        deserializer.collectAllPropertyNamesTo(known);
        problems.add(objectPath, problems.source().keyLocation(KeyPaths.child(objectPath, key)),
            "unknown key '" + key + "'", CHOSEN_IN_CODE.getOrDefault(key, Spelling.hint(key, known, "known keys")));
        parser.skipChildren();
        return true;
    }

    @Override
    public Object handleWeirdStringValue(DeserializationContext context, Class<?> type, String value,
        String failure) {
        return recordBadValue(context, type, "'" + value + "'");
    }

    @Override
    public Object handleWeirdNumberValue(DeserializationContext context, Class<?> type, Number value,
        String failure) {
        return recordBadValue(context, type, value.toString());
    }

    private static Object recordBadValue(DeserializationContext context, Class<?> type, String value) {
        problems(context).add(KeyPaths.of(context.getParser().streamReadContext()),
            value + " is not " + kindOf(type));
        return emptyValueOf(type);
    }

    @Override
    public Object handleUnexpectedToken(DeserializationContext context, JavaType type, JsonToken token,
        JsonParser parser, String failure) {
        problems(context).add(KeyPaths.of(parser.streamReadContext()),
            "expected " + kindOf(type.getRawClass()) + ", found " + kindOf(token));
        parser.skipChildren();
        return emptyValueOf(type.getRawClass());
    }

    /** A single value where a section belongs ({@code node: fast}). */
    @Override
    public Object handleMissingInstantiator(DeserializationContext context, Class<?> type,
        ValueInstantiator instantiator, JsonParser parser, String failure) {
        problems(context).add(KeyPaths.of(parser.streamReadContext()),
            "expected " + kindOf(type) + ", found " + kindOf(parser.currentToken()));
        parser.skipChildren();
        return null;
    }

    /** An empty value ({@code port:}) means the default, like a missing key; a missing required key is caught later. */
    @Override
    public Object handleNullForPrimitives(DeserializationContext context, Class<?> type, JsonParser parser,
        ValueDeserializer<?> deserializer, String failure) {
        return emptyValueOf(type);
    }

    /** @return what a key holds when its value could not be read: zero for a primitive, else null */
    private static Object emptyValueOf(Class<?> type) {
        return type.isPrimitive() ? Array.get(Array.newInstance(type, 1), 0) : null;
    }

    /** @return the kind of value a type is written as, for messages: "a whole number", "a list" */
    static String kindOf(Class<?> type) {
        if (type == int.class || type == Integer.class || type == long.class || type == Long.class) {
            return "a whole number";
        }
        if (Collection.class.isAssignableFrom(type)) {
            return "a list";
        }
        return type.isRecord() ? "a mapping of keys to values" : "a single value";
    }

    private static String kindOf(JsonToken token) {
        if (token == JsonToken.START_OBJECT) {
            return "a mapping";
        }
        return token == JsonToken.START_ARRAY ? "a list" : "a single value";
    }
}
