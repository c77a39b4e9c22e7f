package org.nakcast.transport.auth;

import org.nakcast.transport.media.DatagramReceiver;
import org.nakcast.transport.media.DatagramSender;
import org.nakcast.transport.media.Media;
import org.nakcast.transport.media.MulticastAddress;
import org.nakcast.transport.status.SystemCounters;

/**
 * A node's media with authentication where a transport asks for it: the sockets of a transport
 * with keys ({@link MulticastAddress#authKeys()}) sign every datagram they send and drop, counted,
 * every datagram they read that does not check, before any stream, budget or flow control sees it;
 * the sockets of other transports are the media's own.
 */
public final class AuthenticatingMedia implements Media {
    private final Media media;

    /** @param media the media that moves the datagrams */
    public AuthenticatingMedia(Media media) {
        this.media = media;
    }

    @Override
    public String name() {
        return media.name();
    }

    @Override
    public String unavailableBecause() {
        return media.unavailableBecause();
    }

    @Override
    public DatagramReceiver openReceiver(MulticastAddress address, int port, SystemCounters counters) {
        final DatagramReceiver socket = media.openReceiver(address, port, counters);
        return address.authKeys() == null ? socket
            : new CheckingReceiver(socket, new DatagramChecker(address.authKeys(), address.encrypted(), counters));
    }

    @Override
    public DatagramSender openSender(MulticastAddress address, int port, SystemCounters counters) {
        final DatagramSender socket = media.openSender(address, port, counters);
        return address.authKeys() == null ? socket
            : new SigningSender(socket, new DatagramSigner(address.authKeys(), address.encrypted()));
    }
}
