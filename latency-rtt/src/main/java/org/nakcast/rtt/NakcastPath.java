package org.nakcast.rtt;

import java.util.Locale;

import org.nakcast.config.MediaType;

/**
 * nakcast itself as a path ({@link NakcastLink}), in one of the variants a run measures in turn: on
 * one media ({@code --media}), with or without authenticated datagrams ({@code --auth}).
 *
 * @param media how the nodes move datagrams to and from the kernel ({@code node.media})
 * @param authenticated whether every transport of both topics authenticates its datagrams
 */
record NakcastPath(MediaType media, boolean authenticated) implements RttPath {
    /**
     * {@code nakcast} on nio, the default, else {@code nakcast-} and the media's name; then
     * {@code +auth} for authenticated datagrams: {@code nakcast}, {@code nakcast+auth},
     * {@code nakcast-native}, {@code nakcast-native+auth}.
     */
    @Override
    public String label() {
        return "nakcast" + (media == MediaType.NIO ? "" : "-" + mediaName(media)) + (authenticated ? "+auth" : "");
    }

    /** A media's name as {@code --media} and {@code node.media} spell it: {@code nio}, {@code native}. */
    static String mediaName(MediaType type) {
        return type.name().toLowerCase(Locale.ROOT);
    }

    @Override
    public RttLink open(LinkSetup setup, RttLink.Receiver receiver) {
        return new NakcastLink(authenticated ? setup.authenticatedConfig() : setup.config(), media,
            "latency-rtt-" + setup.side(), setup.sendTopic(), setup.receiveTopic(), receiver);
    }
}
