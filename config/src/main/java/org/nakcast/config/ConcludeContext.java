package org.nakcast.config;

import java.util.Optional;
import java.util.Set;

/**
 * What {@code conclude()} checks a config against, beyond the config itself: the codec names a
 * topic may use, the network interfaces of the machine and the transports' key files.
 *
 * <p>Which codecs exist is known only where codecs are: a node knows the ones built in, found on
 * its class path and registered in its code, and concludes the config it is launched with against
 * them. So {@link #system()} leaves codec names unchecked (a topic must still name one), and a
 * node passes its own with {@link #withCodecNames}.
 *
 * @param codecNames the codec names a topic may use, or empty to leave them to the node
 * @param networkInterfaces the interfaces transports may use
 * @param readsKeyFiles whether each transport's {@code auth-key-file} is read and refused if it is not
 *     a valid key file its owner alone may read; false leaves them to a caller that judges them itself
 */
public record ConcludeContext(Optional<Set<String>> codecNames, NetworkInterfaces networkInterfaces,
    boolean readsKeyFiles) {
    /** Copies the codec names. */
    public ConcludeContext {
        codecNames = codecNames.map(Set::copyOf);
    }

    /** @return this machine's interfaces, codec names left to the node that launches the config, key files read */
    public static ConcludeContext system() {
        return new ConcludeContext(Optional.empty(), NetworkInterfaces.system(), true);
    }

    /**
     * @param names every codec name known, e.g. a codec registry's names
     * @return this context checking topics' codecs against those names
     */
    public ConcludeContext withCodecNames(Set<String> names) {
        return new ConcludeContext(Optional.of(names), networkInterfaces, readsKeyFiles);
    }

    /**
     * @param interfaces the interfaces to check transports against
     * @return this context with those interfaces instead
     */
    public ConcludeContext withNetworkInterfaces(NetworkInterfaces interfaces) {
        return new ConcludeContext(codecNames, interfaces, readsKeyFiles);
    }

    /**
     * @return this context leaving the transports' key files unread: a config whose key file is
     *     missing or open to others still concludes, for a tool that reports on the file itself
     */
    public ConcludeContext withKeyFilesUnread() {
        return new ConcludeContext(codecNames, networkInterfaces, false);
    }
}
