package org.nakcast.rtt;

/** The two paths a run can measure: nakcast itself, and the bare UDP baseline. */
enum LinkKind {
    /** A nakcast node, raw publication and subscription ({@link NakcastLink}). */
    NAKCAST("nakcast"),
    /** Two bare datagram channels ({@link UdpLink}). */
    RAW_UDP("raw-udp");

    private final String label;

    LinkKind(String label) {
        this.label = label;
    }

    /** The name in reports and file names. */
    String label() {
        return label;
    }
}
