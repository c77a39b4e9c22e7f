package org.nakcast.benchmarks.throughput;

import java.net.NetworkInterface;
import java.net.SocketException;
import java.util.List;

/**
 * The guard every throughput run passes first: this process must see no network interface but
 * {@code lo}, as inside {@code ops/netns/in-private-netns}, so that no datagram can leave the
 * host. The child JVMs inherit the namespace.
 */
final class PrivateNetwork {
    private PrivateNetwork() {
    }

    /**
     * @return null if only {@code lo} is visible, else why the run must not start
     */
    static String refusal() {
        try {
            final List<String> names = NetworkInterface.networkInterfaces().map(NetworkInterface::getName).toList();
            if (names.equals(List.of("lo"))) {
                return null;
            }
            return "this process sees the network interfaces " + names + "; the throughput runs send multicast and"
                + " must run in a private network namespace with only lo: use ops/throughput, or"
                + " ops/netns/in-private-netns java ...";
        } catch (SocketException ex) {
            return "cannot list the network interfaces: " + ex.getMessage();
        }
    }
}
