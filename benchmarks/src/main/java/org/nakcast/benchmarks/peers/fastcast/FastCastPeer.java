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
 *   <li>The run's datagram size ({@code --datagram-size}, 1408 bytes by default), as nakcast's
 *   and Aeron's, so all three pack about as many messages into a datagram. fast-cast's own setting
 *   counts {@value #UNSENT_BYTES} bytes it never sends (a 4-byte margin, then 2 of its packet
 *   struct: set to 1408, it sends datagrams of at most 1402 bytes), so it is set that much above
 *   the run's size.</li>
 *   <li>2 MiB socket buffers, as nakcast's and Aeron's.</li>
 *   <li>{@value #HISTORY_BYTES} bytes of history on the publisher (50 000 datagrams of 1408 bytes,
 *   off-heap; its default of 500 000 datagrams would take 700 MB) and {@value #RECEIVE_BUFFER_BYTES}
 *   bytes of reorder buffer on the subscriber (20 000 of 1408), counted in datagrams of the run's
 *   size ({@link #packets}): the same bytes, so the same messages, whatever the datagram size.</li>
 *   <li>Its log at SEVER: at WARN it prints a line per retransmission request on standard output.</li>
 * </ul>
 */
final class FastCastPeer {
    /** fast-cast's topic id of the run's messages. */
    static final int TOPIC = 1;
    static final long HISTORY_BYTES = 50_000L * 1408;
    static final long RECEIVE_BUFFER_BYTES = 20_000L * 1408;
    private static final String TRANSPORT = "default";
    private static final int SOCKET_BUFFER = 2 * 1024 * 1024;
    /** What fast-cast 3.10's datagram size setting counts beyond the largest datagram it sends. */
    private static final int UNSENT_BYTES = 6;

    private FastCastPeer() {
    }

    /**
     * Configures this JVM's fast-cast instance and opens its transport.
     *
     * @param nodeId the node's id, at most 5 characters
     * @param datagramSize the largest datagram it may send, the run's
     */
    static TransportDriver transport(String nodeId, int datagramSize) {
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
            .setDgramsize(datagramSize + UNSENT_BYTES)
            .socketReceiveBufferSize(SOCKET_BUFFER)
            .socketSendBufferSize(SOCKET_BUFFER));
        return fastCast.onTransport(TRANSPORT);
    }

    /** How many datagrams of {@code datagramSize} hold {@code bytes}. */
    static int packets(long bytes, int datagramSize) {
        return Math.toIntExact(bytes / datagramSize);
    }
}
