package org.nakcast.codecs;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The classes one codec instance carries: the spec's {@link CodecSpec#registeredClasses()} in
 * registration order, plus classes the codec adds itself (boxed primitives, say), with fast
 * look-ups by class and by name. Object codecs check every class they write or read against it.
 */
public final class AllowedClasses {
    private final String codecName;
    private final List<Class<?>> registered;
    private final Set<Class<?>> classes = new HashSet<>();
    private final Map<String, Class<?>> byName = new HashMap<>();

    private AllowedClasses(String codecName, List<Class<?>> registered, Collection<Class<?>> implicit) {
        this.codecName = codecName;
        this.registered = registered;
        for (final Class<?> type : registered) {
            add(type);
        }
        for (final Class<?> type : implicit) {
            add(type);
        }
    }

    /**
     * @param spec     the topic's codec settings
     * @param implicit classes the codec always carries besides the spec's
     * @return the allow-list
     */
    public static AllowedClasses of(CodecSpec<?> spec, Collection<Class<?>> implicit) {
        return new AllowedClasses(spec.codecName(), spec.registeredClasses(), implicit);
    }

    /**
     * Refuses collections and arrays whose decoders would size an allocation from a length read off
     * the wire without a bound: only {@link ArrayList} is carried (the codec bounds its length by the
     * bytes that remain), and no array class is registered. Fields of the registered classes are
     * checked too, one level deep.
     *
     * @return this
     * @throws CodecConfigurationException naming the class or field
     */
    public AllowedClasses requireBoundedContainers() {
        for (final Class<?> type : registered) {
            checkContainer(type, type.getName());
            for (Class<?> owner = type; owner != null && owner != Object.class; owner = owner.getSuperclass()) {
                for (final Field field : owner.getDeclaredFields()) {
                    if (!Modifier.isStatic(field.getModifiers()) && !Modifier.isTransient(field.getModifiers())) {
                        checkContainer(field.getType(), owner.getName() + "." + field.getName());
                    }
                }
            }
        }
        return this;
    }

    private void checkContainer(Class<?> type, String where) {
        if (type.isArray()) {
            throw new CodecConfigurationException(codecName + ": " + where + " is an array; this codec reads "
                + "array lengths off the wire unchecked, use a java.util.ArrayList or the flyweight codec");
        }
        final boolean container = Collection.class.isAssignableFrom(type) || Map.class.isAssignableFrom(type);
        final boolean bounded = type == ArrayList.class || type == List.class || type == Collection.class;
        if (container && !bounded) {
            throw new CodecConfigurationException(codecName + ": " + where + " is a " + type.getName()
                + "; this codec carries java.util.ArrayList as its only collection (its length is bounded)");
        }
    }

    private void add(Class<?> type) {
        classes.add(type);
        byName.put(type.getName(), type);
    }

    /**
     * @return the codec this list belongs to, for error messages
     */
    public String codecName() {
        return codecName;
    }

    /**
     * @return the spec's classes in registration order (without the implicit ones)
     */
    public List<Class<?>> registered() {
        return registered;
    }

    /**
     * @param type a class
     * @return whether it is carried
     */
    public boolean contains(Class<?> type) {
        return classes.contains(type);
    }

    /**
     * @param className a fully qualified class name
     * @return whether it is carried; answered without loading the class
     */
    public boolean containsName(String className) {
        return byName.containsKey(className);
    }

    /**
     * @param className a fully qualified class name
     * @return the carried class of that name, or null; answered without loading anything
     */
    public Class<?> forName(String className) {
        return byName.get(className);
    }

    /**
     * Checks the root of a message about to be encoded.
     *
     * @param message      the message
     * @param messageClass the topic's message class
     * @throws UnknownClassException naming the message's class if it is not the topic's
     */
    public void checkMessage(Object message, Class<?> messageClass) {
        if (!messageClass.isInstance(message)) {
            final String name = message == null ? "null" : message.getClass().getName();
            throw new UnknownClassException(codecName + " codec for " + messageClass.getName() + " cannot encode "
                + name, name);
        }
    }

    /**
     * @param type a class about to be written or read
     * @throws ClassNotAllowedException if it is not carried
     */
    public void check(Class<?> type) {
        if (!classes.contains(type)) {
            throw new ClassNotAllowedException(codecName, type.getName());
        }
    }
}
