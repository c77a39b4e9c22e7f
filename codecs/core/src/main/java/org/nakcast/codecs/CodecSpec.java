package org.nakcast.codecs;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * What a {@link CodecFactory} needs to make a codec for one topic: the codec's name, the topic's
 * message class, and the classes the topic may carry.
 *
 * <p>{@link #registeredClasses()} is both the registration order (FST and Kryo number classes in
 * that order, so publisher and subscriber must list the same classes in the same order) and the
 * allow-list of the decoders. It is the message class followed by {@code classes}, each once, in
 * the order given; a class listed in {@code classes} keeps its place, so the message class may
 * appear anywhere in it. Codecs that need no classes (flyweights) ignore it.
 *
 * <p>The codecs module does not know the configuration module: the configuration turns a topic's
 * settings into this record, with {@link #fromNames} when they are class names.
 *
 * @param codecName    the codec's name in the {@link CodecRegistry}, e.g. {@code "fst"}
 * @param messageClass the class of the topic's messages
 * @param classes      further classes the messages contain, in registration order
 * @param <T>          the type of the topic's messages
 */
public record CodecSpec<T>(String codecName, Class<T> messageClass, List<Class<?>> classes) {
    /**
     * Checks the arguments and copies the list.
     */
    public CodecSpec {
        Objects.requireNonNull(codecName, "codecName");
        Objects.requireNonNull(messageClass, "messageClass");
        classes = List.copyOf(classes);
    }

    /**
     * @param codecName    the codec's name
     * @param messageClass the class of the topic's messages
     * @param classes      further classes the messages contain, in registration order
     * @param <T>          the type of the topic's messages
     * @return the spec
     */
    public static <T> CodecSpec<T> of(String codecName, Class<T> messageClass, Class<?>... classes) {
        return new CodecSpec<>(codecName, messageClass, List.of(classes));
    }

    /**
     * Makes a spec from class names, as a configuration file holds them.
     *
     * @param codecName        the codec's name
     * @param messageClassName the fully qualified name of the message class
     * @param classNames       fully qualified names of further classes, in registration order
     * @param loader           where to find the classes
     * @return the spec
     * @throws UnknownClassException naming the first class that cannot be found
     */
    public static CodecSpec<?> fromNames(
        String codecName, String messageClassName, List<String> classNames, ClassLoader loader) {
        final List<Class<?>> classes = new ArrayList<>(classNames.size());
        for (final String name : classNames) {
            classes.add(load(name, loader));
        }
        return new CodecSpec<>(codecName, load(messageClassName, loader), classes);
    }

    /**
     * @return the message class, then the further classes, each once, in registration order
     */
    public List<Class<?>> registeredClasses() {
        final Set<Class<?>> ordered = new LinkedHashSet<>();
        if (!classes.contains(messageClass)) {
            ordered.add(messageClass);
        }
        ordered.addAll(classes);
        return List.copyOf(ordered);
    }

    private static Class<?> load(String name, ClassLoader loader) {
        try {
            return Class.forName(name, false, loader);
        } catch (ClassNotFoundException ex) {
            throw new UnknownClassException("class " + name + " not found", name, ex);
        }
    }
}
