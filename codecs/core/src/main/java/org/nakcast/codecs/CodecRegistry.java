package org.nakcast.codecs;

import java.util.Map;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

import org.nakcast.codecs.jdk.JdkCodecProvider;
import org.nakcast.codecs.sbe.SbeCodecProvider;

/**
 * Finds codec factories by name ({@link CodecNames}). {@link #builtIns()} knows the codecs of this
 * module, which need nothing but Agrona: {@value CodecNames#FLYWEIGHT}, {@value CodecNames#JDK} and
 * {@value CodecNames#JDK_EXTERNALIZABLE}. {@link #create()} adds every {@link CodecProvider} that
 * {@link ServiceLoader} finds on the class path: {@value CodecNames#FST} and
 * {@value CodecNames#FST_UNSHARED} when {@code nakcast-codecs-fst} is there, {@value CodecNames#KRYO}
 * when {@code nakcast-codecs-kryo} is, and any of the application's own. Users add codecs in code
 * with {@link #register}. Asking for an optional codec whose module is missing
 * fails with an {@link UnknownCodecException} that names the module to add.
 *
 * <p>A registry is an ordinary object, not a JVM-wide singleton: two nodes in one JVM may hold
 * different ones. Registering and looking up are thread-safe.
 */
public final class CodecRegistry {
    /** The codecs nakcast ships in optional modules, by name: the artifact that brings each. */
    private static final Map<String, String> OPTIONAL_MODULES = Map.of(
        CodecNames.FST, "org.nakcast:nakcast-codecs-fst",
        CodecNames.FST_UNSHARED, "org.nakcast:nakcast-codecs-fst",
        CodecNames.KRYO, "org.nakcast:nakcast-codecs-kryo");

    private final Map<String, CodecFactory> factories = new ConcurrentHashMap<>();

    private CodecRegistry() {
    }

    /**
     * @return a registry with this module's codecs only ({@value CodecNames#FLYWEIGHT},
     *     {@value CodecNames#JDK}, {@value CodecNames#JDK_EXTERNALIZABLE}), nothing looked up on the
     *     class path
     */
    public static CodecRegistry builtIns() {
        final CodecRegistry registry = new CodecRegistry();
        registry.register(CodecNames.FLYWEIGHT, new SbeCodecProvider());
        registry.register(CodecNames.JDK, JdkCodecProvider.serializable());
        registry.register(CodecNames.JDK_EXTERNALIZABLE, JdkCodecProvider.externalizable());
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
     * @throws UnknownCodecException if there is none, listing the known names, and naming the
     *     module to add when the name is one of nakcast's optional codecs
     */
    public CodecFactory factory(String name) {
        final CodecFactory factory = factories.get(name);
        if (factory == null) {
            final String module = OPTIONAL_MODULES.get(name);
            throw module == null ? new UnknownCodecException(name, names())
                : new UnknownCodecException(name, names(), "it comes with " + module
                    + ", which is not on the class path: add that dependency");
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

    /**
     * @return nakcast's optional codecs that are not registered here, each with the module that
     *     brings it (e.g. {@code fst}: {@code org.nakcast:nakcast-codecs-fst})
     */
    public Map<String, String> missingModules() {
        final Map<String, String> missing = new TreeMap<>();
        OPTIONAL_MODULES.forEach((name, module) -> {
            if (!factories.containsKey(name)) {
                missing.put(name, module);
            }
        });
        return missing;
    }

    /**
     * @return the names a topic may use with this registry: those registered and nakcast's optional
     *     codecs whose module is missing (a topic naming one fails where it is used, naming the
     *     module), sorted
     */
    public Set<String> namesTopicsMayUse() {
        final Set<String> names = names();
        names.addAll(OPTIONAL_MODULES.keySet());
        return names;
    }
}
