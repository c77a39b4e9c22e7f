package org.nakcast.transport.media;

import org.nakcast.transport.status.SystemCounters;

/** The default media: Java's {@code DatagramChannel}, one system call per datagram, on every JDK and OS. */
public final class NioMedia implements Media {
    /** Its name in a configuration. */
    public static final String NAME = "nio";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String unavailableBecause() {
        return null;
    }

    @Override
    public DatagramReceiver openReceiver(MulticastAddress address, int port, SystemCounters counters) {
        return new MulticastReceiver(address, port, counters);
    }

    @Override
    public DatagramSender openSender(MulticastAddress address, int port, SystemCounters counters) {
        return new MulticastSender(address, port, counters);
    }
}
