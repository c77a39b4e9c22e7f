package org.nakcast.benchmarks.peers.fastcast;

import org.nustaq.fastcast.api.FastCast;
import org.nustaq.fastcast.config.PhysicalTransportConf;
import org.nustaq.fastcast.impl.TransportDriver;
import org.nustaq.fastcast.util.FCLog;

/**
 * What both fast-cast JVMs share: one transport on loopback multicast, configured in code.
 * fast-cast is one instance per JVM ({@link FastCast#getFastCast()}), and a publisher and a
 * subscriber in one JVM do not hear each other, so each side runs in a JVM of its own.
 *
 * <ul>
 *   <li>Interface {@code 127.0.0.1} (lo), TTL 0, data on one group, retransmissions on another.</li>
 *   <li>1408-byte datagrams, as nakcast's and Aeron's, so all three pack about as many 70-byte
 *   messages into a datagram.</li>
 *   <li>2 MiB socket buffers, as nakcast's and Aeron's.</li>
 *   <li>{@value #HISTORY_PACKETS} datagrams of history on the publisher (about 70 MB off-heap; its
 *   default of 500 000 would take 700 MB) and {@value #RECEIVE_BUFFER_PACKETS} datagrams of
 *   reorder buffer on the subscriber.</li>
 *   <li>Its log at SEVER: at WARN it prints a line per retransmission request on standard output.</li>
 * </ul>
 */
final class FastCastPeer {
    /** fast-cast's topic id of the run's messages. */
    static final int TOPIC = 1;
    static final int HISTORY_PACKETS = 50_000;
    static final int RECEIVE_BUFFER_PACKETS = 20_000;
    private static final String TRANSPORT = "default";
    private static final int DATAGRAM_SIZE = 1408;
    private static final int SOCKET_BUFFER = 2 * 1024 * 1024;

    private FastCastPeer() {
    }

    /**
     * Configures this JVM's fast-cast instance and opens its transport.
     *
     * @param nodeId the node's id, at most 5 characters
     */
    static TransportDriver transport(String nodeId) {
        FCLog.get().setLogLevel(FCLog.SEVER);
        final FastCast fastCast = FastCast.getFastCast();
        fastCast.setNodeId(nodeId);
        fastCast.addTransport(new PhysicalTransportConf(TRANSPORT)
            .interfaceAdr("127.0.0.1")
            .mulitcastAdr("239.255.90.2")
            .port(40492)
            .setRetransGroupAddr("239.255.90.3")
            .setRetransGroupPort(40494)
            .ttl(0)
            .setDgramsize(DATAGRAM_SIZE)
            .socketReceiveBufferSize(SOCKET_BUFFER)
            .socketSendBufferSize(SOCKET_BUFFER));
        return fastCast.onTransport(TRANSPORT);
    }
}
