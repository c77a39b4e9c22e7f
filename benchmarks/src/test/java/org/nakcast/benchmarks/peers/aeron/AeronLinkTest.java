package org.nakcast.benchmarks.peers.aeron;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.util.ServiceLoader;

import org.junit.jupiter.api.Test;
import org.nakcast.config.NetworkInterfaceRef;
import org.nakcast.config.TransportConfig;
import org.nakcast.rtt.RttPath;

/** The Aeron paths' channels, terms and names, without a driver. */
class AeronLinkTest {
    @Test
    void theChannelIsTheTransportsGroupAtThePathsPortOffsetOnItsInterfaceAndTtl() throws Exception {
        final TransportConfig transport = transport("239.255.77.11", 40480).withTtl(1);

        assertThat(AeronLink.channel("aeron", transport, 3))
            .isEqualTo("aeron:udp?endpoint=239.255.77.11:40483|interface=127.0.0.1|ttl=1");
    }

    @Test
    void eachAeronPathHasAPortOfItsOwnAboveRawUdps() {
        // the previous phase's pong lingers: two paths on one channel would echo each other's pings
        assertThat(new AeronRttPath.Invoker().portOffset()).isEqualTo(3);
        assertThat(new AeronRttPath.Shared().portOffset()).isEqualTo(4);
    }

    @Test
    void anEvenGroupIsRefusedNamingTheTransport() throws Exception {
        assertThatThrownBy(() -> AeronLink.channel("aeron", transport("239.255.77.12", 40490), 3))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessage("aeron: transport 'pong' has the group 239.255.77.12, and Aeron sends data to an odd group "
                + "(control to the next address up): give it an odd group");
    }

    @Test
    void aTermHoldsEightMessagesAndIsNeverBelowAerons64KiB() {
        assertThat(AeronLink.termLength(32)).isEqualTo(64 * 1024);
        assertThat(AeronLink.termLength(8192)).isEqualTo(64 * 1024);
        assertThat(AeronLink.termLength(8193)).isEqualTo(128 * 1024);
        assertThat(AeronLink.termLength(65_536)).isEqualTo(512 * 1024);
    }

    @Test
    void theServiceLoaderFindsBothAeronPaths() {
        assertThat(ServiceLoader.load(RttPath.class).stream().map(provider -> provider.get().label()))
            .containsExactly("aeron", "aeron-shared");
    }

    private static TransportConfig transport(String group, int port) throws Exception {
        return new TransportConfig("pong", "lo", group, port).withNetworkInterface(
            new NetworkInterfaceRef("lo", "lo", InetAddress.getByName("127.0.0.1"), 65_536));
    }
}
