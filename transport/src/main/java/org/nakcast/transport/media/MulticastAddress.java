package org.nakcast.transport.media;

import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.StandardProtocolFamily;

import org.nakcast.config.AuthKeys;

/**
 * Where a transport's datagrams go: a multicast group on one interface, a data port (publishers
 * send, receivers listen) and a control port (receivers send NAKs, publishers and receivers listen).
 *
 * @param networkInterface the interface every socket of the transport is bound to
 * @param group the multicast group
 * @param dataPort the port DATA, RETRANSMIT, HEARTBEAT and UNRECOVERABLE go to
 * @param controlPort the port NAKs go to
 * @param ttl multicast time-to-live; 0 keeps datagrams on this host
 * @param sendBufferBytes SO_SNDBUF asked of the kernel
 * @param receiveBufferBytes SO_RCVBUF asked of the kernel
 * @param authKeys the keys the transport's datagrams are signed and checked with (see
 *     {@link org.nakcast.transport.auth.AuthenticatingMedia}), or null if they are not authenticated
 * @param encrypted whether their payloads are encrypted too (with {@code authKeys})
 */
public record MulticastAddress(
    NetworkInterface networkInterface,
    InetAddress group,
    int dataPort,
    int controlPort,
    int ttl,
    int sendBufferBytes,
    int receiveBufferBytes,
    AuthKeys authKeys,
    boolean encrypted) {

    /** The protocol family of the group: INET or INET6. */
    public StandardProtocolFamily family() {
        return group.getAddress().length == 4 ? StandardProtocolFamily.INET : StandardProtocolFamily.INET6;
    }

    /** "239.255.0.1:40456 on lo", for messages. */
    public String describe(int port) {
        return group.getHostAddress() + ":" + port + " on " + networkInterface.getName();
    }

    /**
     * Everything resolved, for the log when a topic opens: "239.255.0.1:40456 (control 40457) on lo,
     * TTL 0, socket buffers asked 2097152 bytes receive, 2097152 send, not authenticated".
     */
    public String describeSetup() {
        return describe(dataPort) + " (control " + controlPort + "), TTL " + ttl + ", socket buffers asked "
            + receiveBufferBytes + " bytes receive, " + sendBufferBytes + " send"
            + (authKeys == null ? ", not authenticated" : ", authenticated " + authKeys)
            + (encrypted ? ", payloads encrypted" : "");
    }
}
