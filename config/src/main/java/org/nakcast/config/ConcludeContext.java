package org.nakcast.config;

import java.util.Optional;
import java.util.Set;

/**
 * What {@code conclude()} checks a config against, beyond the config itself: the codec names a
 * topic may use and the network interfaces of the machine.
 *
 * <p>Which codecs exist is known only where codecs are: a node knows the ones built in, found on
 * its class path and registered in its code, and concludes the config it is launched with against
 * them. So {@link #system()} leaves codec names unchecked (a topic must still name one), and a
 * node passes its own with {@link #withCodecNames}.
 *
 * @param codecNames the codec names a topic may use, or empty to leave them to the node
 * @param networkInterfaces the interfaces transports may use
 */
public record ConcludeContext(Optional<Set<String>> codecNames, NetworkInterfaces networkInterfaces) {
    /** Copies the codec names. */
    public ConcludeContext {
        codecNames = codecNames.map(Set::copyOf);
    }

    /** @return this machine's interfaces, codec names left to the node that launches the config */
    public static ConcludeContext system() {
        return new ConcludeContext(Optional.empty(), NetworkInterfaces.system());
    }

    /**
     * @param names every codec name known, e.g. a codec registry's names
     * @return this context checking topics' codecs against those names
     */
    public ConcludeContext withCodecNames(Set<String> names) {
        return new ConcludeContext(Optional.of(names), networkInterfaces);
    }

    /**
     * @param interfaces the interfaces to check transports against
     * @return this context with those interfaces instead
     */
    public ConcludeContext withNetworkInterfaces(NetworkInterfaces interfaces) {
        return new ConcludeContext(codecNames, interfaces);
    }
}
