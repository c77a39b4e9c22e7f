package org.nakcast.codecs;

import java.util.Map;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

import org.nakcast.codecs.fst.FstCodecProvider;
import org.nakcast.codecs.jdk.JdkCodecProvider;
import org.nakcast.codecs.kryo.KryoCodecProvider;
import org.nakcast.codecs.sbe.SbeCodecProvider;

/**
 * Finds codec factories by name. {@link #create()} knows the built-in codecs ({@value #FLYWEIGHT},
 * {@value #FST}, {@value #FST_UNSHARED}, {@value #JDK}, {@value #JDK_EXTERNALIZABLE},
 * {@value #KRYO}) and every {@link CodecProvider} found by {@link ServiceLoader}; users add their
 * own with {@link #register}.
 *
 * <p>A registry is an ordinary object, not a JVM-wide singleton: two nodes in one JVM may hold
 * different ones. Registering and looking up are thread-safe.
 */
public final class CodecRegistry {
    /** SBE flyweights: zero copy, no allocation. */
    public static final String FLYWEIGHT = "flyweight";
    /** FST with shared references (object graphs with cycles and shared objects). */
    public static final String FST = "fst";
    /** FST without shared references (trees only; faster). */
    public static final String FST_UNSHARED = "fst-unshared";
    /** JDK serialization of {@link java.io.Serializable} classes and records. */
    public static final String JDK = "jdk";
    /** JDK serialization of {@link java.io.Externalizable} classes. */
    public static final String JDK_EXTERNALIZABLE = "jdk-externalizable";
    /** Kryo 5, registration required, references off. */
    public static final String KRYO = "kryo";

    private final Map<String, CodecFactory> factories = new ConcurrentHashMap<>();

    private CodecRegistry() {
    }

    /**
     * @return a registry with the built-in codecs only
     */
    public static CodecRegistry builtIns() {
        final CodecRegistry registry = new CodecRegistry();
        registry.register(FLYWEIGHT, new SbeCodecProvider());
        registry.register(FST, FstCodecProvider.shared());
        registry.register(FST_UNSHARED, FstCodecProvider.unshared());
        registry.register(JDK, JdkCodecProvider.serializable());
        registry.register(JDK_EXTERNALIZABLE, JdkCodecProvider.externalizable());
        registry.register(KRYO, new KryoCodecProvider());
        return registry;
    }

    /**
     * @return a registry with the built-in codecs and the {@link CodecProvider}s on the class path
     * @throws CodecConfigurationException if a provider reuses a name already registered
     */
    public static CodecRegistry create() {
        return create(Thread.currentThread().getContextClassLoader());
    }

    /**
     * @param loader where {@link ServiceLoader} looks for {@link CodecProvider}s
     * @return a registry with the built-in codecs and the providers found through {@code loader}
     * @throws CodecConfigurationException if a provider reuses a name already registered
     */
    public static CodecRegistry create(ClassLoader loader) {
        final CodecRegistry registry = builtIns();
        for (final CodecProvider provider : ServiceLoader.load(CodecProvider.class, loader)) {
            registry.register(provider.codecName(), provider);
        }
        return registry;
    }

    /**
     * Adds a codec under a new name.
     *
     * @param name    the name configuration files use
     * @param factory makes the codec
     * @return this registry
     * @throws CodecConfigurationException if the name is taken
     */
    public CodecRegistry register(String name, CodecFactory factory) {
        if (factories.putIfAbsent(name, factory) != null) {
            throw new CodecConfigurationException("codec name '" + name + "' is already registered");
        }
        return this;
    }

    /**
     * @param name a codec name
     * @return the factory registered under it
     * @throws UnknownCodecException if there is none, listing the known names
     */
    public CodecFactory factory(String name) {
        final CodecFactory factory = factories.get(name);
        if (factory == null) {
            throw new UnknownCodecException(name, names());
        }
        return factory;
    }

    /**
     * Makes a codec with the factory named by the spec.
     *
     * @param spec the topic's codec settings
     * @param <T>  the type of the topic's messages
     * @return a new codec, for one thread
     * @throws UnknownCodecException       if no codec has that name
     * @throws CodecConfigurationException if the codec cannot carry the spec's classes
     */
    public <T> Codec<T> create(CodecSpec<T> spec) {
        return factory(spec.codecName()).create(spec);
    }

    /**
     * @return the registered names, sorted
     */
    public Set<String> names() {
        return new TreeSet<>(factories.keySet());
    }
}
