package org.nakcast.rtt;

/** The paths built into the tool: nakcast itself, and the bare UDP baseline. */
enum LinkKind implements RttPath {
    /** A nakcast node, byte publication and subscription ({@link NakcastLink}). */
    NAKCAST("nakcast"),
    /** A nakcast node whose every transport authenticates its datagrams ({@code --auth}). */
    NAKCAST_AUTHENTICATED("nakcast+auth"),
    /** Two bare datagram channels ({@link UdpLink}). */
    RAW_UDP("raw-udp");

    private final String label;

    LinkKind(String label) {
        this.label = label;
    }

    @Override
    public String label() {
        return label;
    }

    @Override
    public RttLink open(LinkSetup setup, RttLink.Receiver receiver) {
        return switch (this) {
            case NAKCAST -> new NakcastLink(setup.config(), "latency-rtt-" + setup.side(), setup.sendTopic(),
                setup.receiveTopic(), receiver);
            case NAKCAST_AUTHENTICATED -> new NakcastLink(setup.authenticatedConfig(), "latency-rtt-" + setup.side(),
                setup.sendTopic(), setup.receiveTopic(), receiver);
            case RAW_UDP -> new UdpLink(setup.sendTransport(), setup.receiveTransport(), receiver);
        };
    }
}
