package org.nakcast.rtt;

/**
 * The path built into the tool beside nakcast's ({@link NakcastPath}): the bare UDP baseline
 * ({@code --baseline raw-udp}).
 */
enum LinkKind implements RttPath {
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
        return new UdpLink(setup.sendTransport(), setup.receiveTransport(), receiver);
    }
}
