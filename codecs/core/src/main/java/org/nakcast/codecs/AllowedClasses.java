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
import java.util.function.BiConsumer;

/**
 * The classes one codec instance carries: the spec's {@link CodecSpec#registeredClasses()} in
 * registration order, plus classes the codec adds itself (boxed primitives, say), with fast
 * look-ups by class and by name. Object codecs check every class they write or read against it.
 */
public final class AllowedClasses {
    /** {@link String} and the boxed primitives: what FST and Kryo write by built-in ids of their own. */
    public static final List<Class<?>> STRING_AND_BOXED = List.of(String.class, Long.class, Integer.class,
        Short.class, Byte.class, Character.class, Boolean.class, Double.class, Float.class);

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
     * The allow-list of a codec that numbers classes in the spec's order (FST, Kryo): a class is
     * written as its place in the list, so both sides must number from the topic's list alone. The
     * spec must list its message class: a process offering a class of the same shape under another
     * name would otherwise take the listed class's number and be read as it.
     *
     * @param spec     the topic's codec settings
     * @param implicit classes the codec always carries besides the spec's
     * @return the allow-list
     * @throws CodecConfigurationException if the spec's classes do not name its message class
     */
    public static AllowedClasses numbered(CodecSpec<?> spec, Collection<Class<?>> implicit) {
        if (!spec.classes().contains(spec.messageClass())) {
            throw new CodecConfigurationException(spec.codecName() + " numbers classes in the order of the topic's "
                + "allowed-classes, which do not name " + spec.messageClass().getName() + " " + spec.classes().stream()
                .map(Class::getName).toList() + ": list it there (two processes numbering their own classes could "
                + "read one class as another)");
        }
        return of(spec, implicit);
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
            forEachField(type, (field, where) -> checkContainer(field.getType(), where));
        }
        return this;
    }

    /**
     * Refuses a registered class with a field whose declared class is closed (a final class, a
     * record, an enum without constant bodies) and not carried: every message holding one would
     * fail to encode. {@link String} and primitives are carried by every object codec. A field of
     * an open class (an interface, {@code Object}) may hold anything; what it holds is checked as
     * it is written.
     *
     * @return this
     * @throws CodecConfigurationException naming the field and its class
     */
    public AllowedClasses requireFieldClassesCarried() {
        for (final Class<?> type : registered) {
            forEachField(type, (field, where) -> {
                final Class<?> held = field.getType();
                if (!held.isPrimitive() && held != String.class && Modifier.isFinal(held.getModifiers())
                    && !classes.contains(held)) {
                    throw new CodecConfigurationException(codecName + ": " + where + " holds " + held.getName()
                        + ", which is not in the topic's allowed-classes: list it there");
                }
            });
        }
        return this;
    }

    /** Each instance field of {@code type} and its superclasses, with its name as {@code Owner.field}. */
    private static void forEachField(Class<?> type, BiConsumer<Field, String> action) {
        for (Class<?> owner = type; owner != null && owner != Object.class; owner = owner.getSuperclass()) {
            for (final Field field : owner.getDeclaredFields()) {
                if (!Modifier.isStatic(field.getModifiers()) && !Modifier.isTransient(field.getModifiers())) {
                    action.accept(field, owner.getName() + "." + field.getName());
                }
            }
        }
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
