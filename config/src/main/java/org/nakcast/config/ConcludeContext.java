package org.nakcast.config;

import java.util.Set;

/**
 * What {@code conclude()} checks a config against, beyond the config itself: the codec names a
 * topic may use and the network interfaces of the machine.
 *
 * @param codecNames the codec names known, the built-in ones plus any the application registered
 * @param networkInterfaces the interfaces transports may use
 */
public record ConcludeContext(Set<String> codecNames, NetworkInterfaces networkInterfaces) {
    /** The names of the codecs nakcast ships. */
    public static final Set<String> BUILT_IN_CODEC_NAMES =
        Set.of("flyweight", "fst", "fst-unshared", "jdk", "jdk-externalizable", "kryo");

    /** Copies the codec names. */
    public ConcludeContext {
        codecNames = Set.copyOf(codecNames);
    }

    /** @return the built-in codecs and this machine's interfaces */
    public static ConcludeContext system() {
        return new ConcludeContext(BUILT_IN_CODEC_NAMES, NetworkInterfaces.system());
    }

    /**
     * @param names every codec name known, e.g. a codec registry's names
     * @return this context with those codec names instead
     */
    public ConcludeContext withCodecNames(Set<String> names) {
        return new ConcludeContext(names, networkInterfaces);
    }

    /**
     * @param interfaces the interfaces to check transports against
     * @return this context with those interfaces instead
     */
    public ConcludeContext withNetworkInterfaces(NetworkInterfaces interfaces) {
        return new ConcludeContext(codecNames, interfaces);
    }
}
