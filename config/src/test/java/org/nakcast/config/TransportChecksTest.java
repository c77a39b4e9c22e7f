package org.nakcast.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.nakcast.config.TestConfigs.VALID;
import static org.nakcast.config.TestConfigs.address;
import static org.nakcast.config.TestConfigs.assertAt;
import static org.nakcast.config.TestConfigs.onlyProblemOf;
import static org.nakcast.config.TestConfigs.parse;
import static org.nakcast.config.TestConfigs.problemsOf;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** What conclude() says about transports, on a fake machine with lo, eth0 (MTU 1500) and eth1 (down). */
class TransportChecksTest {

    @ParameterizedTest
    @ValueSource(strings = {"192.168.10.1", "10.0.0.1", "223.255.255.255", "240.0.0.1", "fd00::1"})
    void aGroupOutsideTheMulticastRangesIsRefused(String group) {
        String yaml = VALID.replace("239.192.10.1", group);

        Problem problem = problemsOf(yaml).stream().filter(p -> p.path().equals("transports[0].group"))
            .findFirst().orElseThrow();

        assertThat(problem.message())
            .isEqualTo("group " + address(group).getHostAddress() + " is not a multicast address");
        assertThat(problem.hint()).contains("224.0.0.0/4", "ff00::/8");
        assertAt(problem, yaml, group);
    }

    @ParameterizedTest
    @ValueSource(strings = {"224.0.0.251", "239.255.255.255", "ff15::1"})
    void groupsInTheMulticastRangesAreAccepted(String group) {
        String yaml = VALID.replace("239.192.10.1", group);

        assertThat(parse(yaml).transport("lan").group()).isEqualTo(address(group));
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 65_535, 65_536, 100_000, -1})
    void aPortOutside1To65534IsRefused(int port) {
        String yaml = VALID.replace("port: 40456", "port: " + port);

        Problem problem = onlyProblemOf(yaml);

        assertThat(problem.path()).isEqualTo("transports[0].port");
        assertThat(problem.message())
            .isEqualTo("port must be in 1..65534 (was " + port + "); the transport also uses port + 1 for NAKs");
        TestConfigs.assertAtValue(problem, yaml, "port: " + port);
    }

    @Test
    void twoTransportsOnOneGroupMayNotShareADataOrNakPort() {
        String yaml = VALID.replace("port: 40456",
            "port: 40456\n  - name: second\n    interface: eth0\n    group: 239.192.10.1\n    port: 40457");

        Problem problem = onlyProblemOf(yaml);

        assertThat(problem.path()).isEqualTo("transports[1].port");
        assertThat(problem.message()).startsWith("port 40457 collides with transports[0] on group 239.192.10.1");
    }

    @Test
    void transportsOnOneGroupTwoPortsApartAreAccepted() {
        String yaml = VALID.replace("port: 40456",
            "port: 40456\n  - name: second\n    interface: eth0\n    group: 239.192.10.1\n    port: 40458");

        assertThat(parse(yaml).transport("second").port()).isEqualTo(40_458);
    }

    @Test
    void aDatagramTooSmallForTheProtocolIsRefused() {
        Problem problem = onlyProblemOf(VALID.replace("port: 40456", "port: 40456\n    datagram-size: 63"));

        assertThat(problem.describe()).startsWith("datagram-size must be in 64..65507 (was 63)");
    }

    @Test
    void aTtlAbove255IsRefused() {
        Problem problem = onlyProblemOf(VALID.replace("port: 40456", "port: 40456\n    ttl: 256"));

        assertThat(problem.describe()).startsWith("ttl must be in 0..255 (was 256) at transports[0].ttl");
    }

    @Test
    void anUnknownInterfaceListsTheInterfacesOfTheMachine() {
        String yaml = VALID.replace("interface: eth0", "interface: eht0");

        Problem problem = onlyProblemOf(yaml);

        assertThat(problem.path()).isEqualTo("transports[0].interface");
        assertThat(problem.message()).isEqualTo("unknown interface 'eht0'");
        assertThat(problem.hint()).startsWith("did you mean 'eth0'? interfaces on this machine: eth0, ")
            .contains("lo", "eth1");
        assertAt(problem, yaml, "eht0");
    }

    @Test
    void anInterfaceIsFoundByItsAddress() {
        TransportConfig lan = parse(VALID.replace("interface: eth0", "interface: 192.168.10.21")).transport("lan");

        assertThat(lan.networkInterface().name()).isEqualTo("eth0");
        assertThat(lan.networkInterface().address()).isEqualTo(address("192.168.10.21"));
        assertThat(lan.networkInterface().selector()).isEqualTo("192.168.10.21");
    }

    @Test
    void anAddressNoInterfaceHasIsRefused() {
        Problem problem = onlyProblemOf(VALID.replace("interface: eth0", "interface: 192.168.10.99"));

        assertThat(problem.message()).isEqualTo("no interface has the address 192.168.10.99");
        assertThat(problem.hint()).contains("lo", "eth0", "eth1");
    }

    @Test
    void anInterfaceSelectedByNameUsesItsAddressOfTheGroupsFamily() {
        TransportConfig ipv4 = parse(VALID).transport("lan");
        TransportConfig ipv6 = parse(VALID.replace("239.192.10.1", "ff15::10")).transport("lan");

        assertThat(ipv4.networkInterface().address()).isEqualTo(address("192.168.10.21"));
        assertThat(ipv6.networkInterface().address()).isEqualTo(address("fd00::21"));
        assertThat(ipv4.networkInterface().mtu()).isEqualTo(1500);
    }

    @Test
    void anInterfaceWithoutAnAddressOfTheGroupsFamilyIsRefused() {
        NetworkInterfaces ipv4Only = NetworkInterfaces.of(List.of(
            new NetworkInterfaceInfo("eth0", List.of(address("192.168.10.21")), 1500, true)));
        String yaml = VALID.replace("239.192.10.1", "ff15::10");

        ConfigException failure = TestConfigs.failure(() -> NodeConfig.parse(yaml, TestConfigs.SOURCE,
            ConcludeContext.system().withNetworkInterfaces(ipv4Only)));

        assertThat(failure.problems()).singleElement()
            .extracting(Problem::message).isEqualTo("interface 'eth0' has no IPv6 address");
    }

    @Test
    void anInterfaceAddressAndGroupOfDifferentFamiliesAreRefused() {
        Problem problem = onlyProblemOf(VALID.replace("interface: eth0", "interface: fd00::21"));

        assertThat(problem.message()).isEqualTo("interface address fd00::21 is IPv6 but group 239.192.10.1 is IPv4");
    }

    @Test
    void anInterfaceThatIsDownIsRefused() {
        Problem problem = onlyProblemOf(VALID.replace("interface: eth0", "interface: eth1"));

        assertThat(problem.describe()).startsWith("interface 'eth1' is down at transports[0].interface");
    }

    @Test
    void theLargestDatagramThatFitsTheMtuIsAccepted() {
        TransportConfig lan =
            parse(VALID.replace("port: 40456", "port: 40456\n    datagram-size: 1472")).transport("lan");

        assertThat(lan.datagramSize().bytes()).isEqualTo(1500 - TransportChecks.IPV4_UDP_HEADERS);
    }

    @Test
    void aDatagramThatDoesNotFitTheMtuWithItsHeadersIsRefused() {
        String yaml = VALID.replace("port: 40456", "port: 40456\n    datagram-size: 1473");

        Problem problem = onlyProblemOf(yaml);

        assertThat(problem.path()).isEqualTo("transports[0].datagram-size");
        assertThat(problem.message()).isEqualTo("datagram-size 1473 does not fit interface 'eth0' (MTU 1500)");
        assertThat(problem.hint()).isEqualTo("with 28 bytes of IPv4 and UDP headers, at most 1472 fits");
        assertAt(problem, yaml, "1473");
    }

    @Test
    void anIpv6DatagramLeavesRoomFor48BytesOfHeaders() {
        String fits = VALID.replace("239.192.10.1", "ff15::10")
            .replace("port: 40456", "port: 40456\n    datagram-size: 1452");

        assertThat(parse(fits).transport("lan").datagramSize().bytes())
            .isEqualTo(1500 - TransportChecks.IPV6_UDP_HEADERS);
        assertThat(onlyProblemOf(fits.replace("1452", "1453")).hint()).contains("48 bytes of IPv6", "at most 1452");
    }

    @Test
    void noDatagramIsLargerThanTheLargestUdpPayload() {
        String yaml = VALID.replace("interface: eth0", "interface: lo")
            .replace("port: 40456", "port: 40456\n    datagram-size: 65508");

        Problem problem = onlyProblemOf(yaml);

        assertThat(problem.message()).isEqualTo("datagram-size must be in 64..65507 (was 65508)");
        assertThat(parse(yaml.replace("65508", "65507")).transport("lan").datagramSize().bytes()).isEqualTo(65_507);
    }

    @Test
    void socketBuffersMustBePositiveAndFitAnInt() {
        List<Problem> problems = problemsOf(VALID.replace("port: 40456",
            "port: 40456\n    socket-send-buffer: 0\n    socket-receive-buffer: 2g"));

        assertThat(problems).extracting(Problem::path, Problem::message).containsExactly(
            tuple("transports[0].socket-send-buffer",
                "socket-send-buffer must be in 1..2147483647 (was 0)"),
            tuple("transports[0].socket-receive-buffer",
                "socket-receive-buffer must be in 1..2147483647 (was 2147483648)"));
    }

    @Test
    void transportNamesAreUnique() {
        String yaml = VALID.replace("topics:", """
              - name: lan
                interface: lo
                group: 239.192.10.2
                port: 40457
            topics:""");

        Problem problem = onlyProblemOf(yaml);

        assertThat(problem.path()).isEqualTo("transports[1].name");
        assertThat(problem.message()).isEqualTo("duplicate transport name 'lan'");
        assertThat(problem.hint()).isEqualTo("transports[0] has it too");
    }

    @Test
    void everyOptionalSettingIsRead() {
        TransportConfig lan = parse(VALID.replace("port: 40456", """
            port: 40456
                ttl: 1
                datagram-size: 1k
                socket-send-buffer: 4m
                socket-receive-buffer: 8m
                send-rate: 100m
                repair-rate: 24m""")).transport("lan");

        assertThat(lan.ttl()).isEqualTo(1);
        assertThat(lan.datagramSize()).isEqualTo(ByteSize.parse("1024"));
        assertThat(lan.socketSendBuffer().bytes()).isEqualTo(4L << 20);
        assertThat(lan.socketReceiveBuffer().bytes()).isEqualTo(8L << 20);
        assertThat(lan.sendRate().bytes()).isEqualTo(100L << 20);
        assertThat(lan.repairRate().bytes()).isEqualTo(24L << 20);
    }
}
