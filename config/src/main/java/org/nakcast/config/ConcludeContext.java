package org.nakcast.config;

import java.util.Map;
import java.util.Set;

/**
 * What {@code conclude()} checks a config against, beyond the config itself: the codec names a
 * topic may use and the network interfaces of the machine.
 *
 * @param codecNames the codec names known, the built-in ones plus any the application registered
 * @param codecsElsewhere codecs that are not known here but exist elsewhere, each with what brings
 *     it (a module to add to the class path): a topic that names one is told so
 * @param networkInterfaces the interfaces transports may use
 */
public record ConcludeContext(
    Set<String> codecNames, Map<String, String> codecsElsewhere, NetworkInterfaces networkInterfaces) {
    /** The names of the codecs nakcast ships. */
    public static final Set<String> BUILT_IN_CODEC_NAMES =
        Set.of("flyweight", "fst", "fst-unshared", "jdk", "jdk-externalizable", "kryo");

    /** Copies the codec names. */
    public ConcludeContext {
        codecNames = Set.copyOf(codecNames);
        codecsElsewhere = Map.copyOf(codecsElsewhere);
    }

    /** @return the codecs nakcast ships and this machine's interfaces */
    public static ConcludeContext system() {
        return new ConcludeContext(BUILT_IN_CODEC_NAMES, Map.of(), NetworkInterfaces.system());
    }

    /**
     * @param names every codec name known, e.g. a codec registry's names
     * @param elsewhere codecs not known here, each with what brings it
     * @return this context with those codecs instead
     */
    public ConcludeContext withCodecs(Set<String> names, Map<String, String> elsewhere) {
        return new ConcludeContext(names, elsewhere, networkInterfaces);
    }

    /**
     * @param interfaces the interfaces to check transports against
     * @return this context with those interfaces instead
     */
    public ConcludeContext withNetworkInterfaces(NetworkInterfaces interfaces) {
        return new ConcludeContext(codecNames, codecsElsewhere, interfaces);
    }
}
