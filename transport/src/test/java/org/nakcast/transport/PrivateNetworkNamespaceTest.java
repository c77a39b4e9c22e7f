package org.nakcast.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.NetworkInterface;
import java.net.SocketException;
import java.util.List;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

/**
 * Guards the rule every UDP test relies on: the test JVM runs in a private network namespace
 * whose only interface is loopback, so no datagram can reach a real NIC.
 */
class PrivateNetworkNamespaceTest {

    @Test
    void testJvmSeesOnlyLoopback() throws SocketException {
        List<String> names = NetworkInterface.networkInterfaces()
            .map(NetworkInterface::getName)
            .collect(Collectors.toList());

        assertThat(names).containsExactly("lo");
    }

    @Test
    void loopbackIsUpAndMarkedPrivate() throws SocketException {
        assertThat(NetworkInterface.getByName("lo").isUp()).isTrue();
        assertThat(System.getenv("NAKCAST_PRIVATE_NETNS")).isEqualTo("1");
    }
}
