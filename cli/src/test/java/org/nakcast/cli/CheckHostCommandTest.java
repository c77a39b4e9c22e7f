package org.nakcast.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.stream.Collectors;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nakcast.config.AuthKeyFile;
import org.nakcast.config.AuthKeys;
import org.nakcast.config.ConcludeContext;
import org.nakcast.config.NetworkInterfaceInfo;
import org.nakcast.config.NetworkInterfaces;
import org.nakcast.config.NodeConfig;

/**
 * {@code nakcast check-host} against a made-up host: its {@code /proc} and {@code /sys} files in a
 * temporary directory ({@code --root}), the embedded default config (interface lo, 2 MiB socket
 * buffers, 1408-byte datagrams); and a topic on two lines, its config concluded against a made-up
 * host's interfaces ({@code eth0} at 10.77.0.2, {@code eth1} at 10.78.0.2, VLANs {@code eth2.100} and
 * {@code eth2.200}).
 */
class CheckHostCommandTest {
    private static final String GROUP_ON_LO_JOINED = """
        Idx\tDevice    : Count Querier\tGroup    Users Timer\tReporter
        1\tlo        :     2      V3
        \t\t\t\t014DFFEF     1 0:00000000\t\t0
        \t\t\t\t010000E0     1 0:00000000\t\t0
        """;

    private static final String ROUTE_HEADER =
        "Iface\tDestination\tGateway\tFlags\tRefCnt\tUse\tMetric\tMask\tMTU\tWindow\tIRTT\n";

    @TempDir
    Path root;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    @BeforeEach
    void aHealthyHost() throws IOException {
        write("proc/sys/net/core/rmem_max", "4194304");
        write("proc/sys/net/core/wmem_max", "4194304");
        write("proc/sys/net/ipv4/igmp_max_memberships", "20");
        write("sys/class/net/lo/mtu", "65536");
        write("sys/class/net/lo/flags", "0x9");
        write("proc/net/route", "Iface\tDestination\tGateway\tFlags\tRefCnt\tUse\tMetric\tMask\tMTU\tWindow\tIRTT\n");
        write("proc/net/igmp", GROUP_ON_LO_JOINED);
        write("proc/self/status", "Name:\tjava\nUid:\t1000\t1000\t1000\t1000\n");
        write("proc/sys/user/max_user_namespaces", "15000");
        write("proc/sys/net/ipv4/ip_local_port_range", "32768\t60999\n");
        write("proc/sys/net/ipv4/ip_local_reserved_ports", "40456-40459\n");
    }

    @Test
    void aHealthyHostIsAllOk() {
        assertThat(run()).as(text()).isZero();
        assertThat(text()).doesNotContain("FAIL ", "WARN ")
            .contains("OK    net.core.rmem_max 4194304 >= socket-receive-buffer 2097152 (transport 'local')")
            .contains("OK    net.core.wmem_max 4194304 >= socket-send-buffer 2097152")
            .contains("interface lo MTU 65536 fits datagram-size 1408 + 28 header bytes")
            .contains("interface lo is loopback, without the MULTICAST flag")
            .contains("group 239.255.77.1 joined on lo now")
            .contains("unprivileged user namespaces allowed")
            .contains("OK    transport 'local': no auth-key-file: its datagrams are not authenticated (nakcast keygen"
                + " --out FILE writes a key file)")
            .contains("OK    every transport port is outside the ephemeral ports 32768-60999"
                + " (net.ipv4.ip_local_port_range) or reserved (net.ipv4.ip_local_reserved_ports)")
            .contains("check-host: 10 checks, 0 FAIL, 0 WARN");
    }

    @Test
    void aTooSmallReceiveBufferLimitFailsWithTheSysctlThatFixesIt() throws IOException {
        write("proc/sys/net/core/rmem_max", "212992");

        assertThat(run()).as(text()).isEqualTo(CheckHostCommand.FAILED);
        assertThat(text())
            .contains("FAIL  net.core.rmem_max 212992 < socket-receive-buffer 2097152 of transport 'local'")
            .contains("fix: sysctl -w net.core.rmem_max=2097152  (for good: echo 'net.core.rmem_max = 2097152' >> "
                + "/etc/sysctl.d/90-nakcast.conf)")
            .contains("OK    net.core.wmem_max")
            .contains("1 FAIL");
    }

    @Test
    void aTooSmallMtuFailsWithTheMtuOrDatagramSizeThatFits() throws IOException {
        write("sys/class/net/lo/mtu", "1400");

        assertThat(run()).as(text()).isEqualTo(CheckHostCommand.FAILED);
        assertThat(text())
            .contains("FAIL  transport 'local': interface lo MTU 1400 < datagram-size 1408 + 28 bytes of IP/UDP"
                + " headers")
            .contains("fix: ip link set dev lo mtu 1436  (or datagram-size: 1372)");
    }

    @Test
    void aDownInterfaceWithoutMulticastAndARouteElsewhereAreToldApart() throws IOException {
        write("sys/class/net/lo/flags", "0x0");
        write("proc/net/route", "Iface\tDestination\tGateway\tFlags\tRefCnt\tUse\tMetric\tMask\tMTU\tWindow\tIRTT\n"
            + "eth0\t000000E0\t00000000\t0001\t0\t0\t0\t000000F0\t0\t0\t0\n");
        write("proc/net/igmp", "");

        assertThat(run()).as(text()).isEqualTo(CheckHostCommand.FAILED);
        assertThat(text())
            .contains("FAIL  transport 'local': interface lo is down", "fix: ip link set dev lo up")
            .contains("FAIL  transport 'local': interface lo lacks the MULTICAST flag",
                "fix: ip link set dev lo multicast on")
            .contains("WARN  transport 'local': group 239.255.77.1 is routed through eth0, not lo",
                "fix: ip route add 239.255.77.1/32 dev lo  (this group alone",
                "or ip route replace 224.0.0.0/4 dev lo for every group)")
            .contains("group 239.255.77.1 not joined on lo now");
    }

    @Test
    void portsAmongTheEphemeralPortsAndNotReservedAreWarnedAboutWithTheSysctlThatReservesThem() throws IOException {
        write("proc/sys/net/ipv4/ip_local_reserved_ports", "50000,50010-50011\n");

        assertThat(run()).as(text()).isZero();

        assertThat(text()).contains("WARN  ports 40456 (transport 'local'), 40457 (transport 'local') are among the"
            + " ephemeral ports 32768-60999 (net.ipv4.ip_local_port_range) and not reserved: any socket on this host"
            + " that sends without binding may be given one, and while it holds it a node cannot listen there"
            + " (bind: Address already in use)")
            .contains("fix: sysctl -w net.ipv4.ip_local_reserved_ports=50000,50010-50011,40456-40457  (for good:"
                + " echo 'net.ipv4.ip_local_reserved_ports = 50000,50010-50011,40456-40457' >>"
                + " /etc/sysctl.d/90-nakcast.conf)")
            .contains("10 checks, 0 FAIL, 1 WARN");
    }

    @Test
    void portsBelowTheEphemeralPortsNeedNoReservation() throws IOException {
        write("proc/sys/net/ipv4/ip_local_port_range", "49152\t65535\n");
        write("proc/sys/net/ipv4/ip_local_reserved_ports", "\n");

        assertThat(run()).as(text()).isZero();

        assertThat(text()).contains("OK    every transport port is outside the ephemeral ports 49152-65535")
            .doesNotContain("WARN ");
    }

    @Test
    void anUnreadablePortRangeIsAWarning() throws IOException {
        Files.delete(root.resolve("proc/sys/net/ipv4/ip_local_port_range"));

        assertThat(run()).as(text()).isZero();

        assertThat(text()).contains("WARN  net.ipv4.ip_local_port_range unreadable: cannot tell whether another"
            + " socket may be given a transport's port");
    }

    @Test
    void noUserNamespacesForTheTestRunnerIsAWarning() throws IOException {
        write("proc/sys/kernel/unprivileged_userns_clone", "0");

        assertThat(run()).as(text()).isZero();
        assertThat(text()).contains("WARN  test runner: kernel.unprivileged_userns_clone is 0",
            "fix: sysctl -w kernel.unprivileged_userns_clone=1");
    }

    @Test
    void aConfigThatDoesNotLoadIsAFailNamingTheProblem() throws IOException {
        final Path config = root.resolve("bad.yaml");
        Files.writeString(config, """
            transports:
              - name: lan
                interface: nosuchnic0
                group: 239.1.1.1
                port: 40000
            topics:
              - name: t
                id: 1
                transport: lan
                codec: flyweight
            """);

        assertThat(run("--config", config.toString())).isEqualTo(CheckHostCommand.FAILED);
        assertThat(text()).startsWith("FAIL  config: ").contains("unknown interface 'nosuchnic0'");
    }

    @Test
    void aKeyFileIsNamedWithItsKeysAndTheOneThatSigns() throws IOException {
        final Path keys = root.resolve("nakcast.keys");
        AuthKeyFile.write(keys, new AuthKeys(2, List.of(AuthKeyFile.newKey(1), AuthKeyFile.newKey(2))));

        assertThat(run("--config", authenticatedConfig(keys).toString())).as(text()).isZero();

        assertThat(text()).contains("OK    transport 'local': key file " + keys + ": signing with key 2, accepting"
            + " keys 1, 2\n").contains("10 checks, 0 FAIL, 0 WARN");
    }

    @Test
    void aKeyFileOpenToOthersFailsInItsOwnWordsWithTheChmodThatFixesItAndTheHostIsStillChecked() throws IOException {
        final Path keys = root.resolve("nakcast.keys");
        AuthKeyFile.write(keys, new AuthKeys(1, List.of(AuthKeyFile.newKey(1))));
        Files.setPosixFilePermissions(keys, PosixFilePermissions.fromString("rw-r-----"));
        final String refusal = catchThrowableOfType(AuthKeyFile.BadKeyFileException.class,
            () -> AuthKeyFile.read(keys)).getMessage();

        assertThat(run("--config", authenticatedConfig(keys).toString())).as(text()).isEqualTo(CheckHostCommand.FAILED);

        assertThat(refusal).contains("is open to others (group read");
        assertThat(text()).contains("FAIL  transport 'local': " + refusal + "\n"
                + "      fix: chmod 600 " + keys + "\n")
            .contains("OK    transport 'local': interface lo MTU 65536 fits datagram-size 1408")
            .contains("10 checks, 1 FAIL, 0 WARN");
    }

    @Test
    void aMissingKeyFileFailsWithTheKeygenThatWritesOne() throws IOException {
        final Path keys = root.resolve("absent.keys");

        assertThat(run("--config", authenticatedConfig(keys).toString())).as(text()).isEqualTo(CheckHostCommand.FAILED);

        assertThat(text()).contains("FAIL  transport 'local': key file " + keys + " cannot be read")
            .contains("fix: nakcast keygen --out " + keys + "  (a new key: the same file, mode 600, on every node of"
                + " transport 'local'; or copy that file here from another node)");
    }

    @Test
    void aKeyFileWithAWrongLineFailsInItsOwnWordsWithTheFileToPutInItsPlace() throws IOException {
        final Path keys = root.resolve("nakcast.keys");
        AuthKeyFile.write(keys, new AuthKeys(1, List.of(AuthKeyFile.newKey(1))));
        Files.writeString(keys, "secret 1\n", StandardOpenOption.APPEND);

        assertThat(run("--config", authenticatedConfig(keys).toString())).as(text()).isEqualTo(CheckHostCommand.FAILED);

        assertThat(text()).contains("FAIL  transport 'local': key file " + keys + ", line 5: expected 'sign ID' or 'key"
            + " ID BASE64', found 'secret ...'")
            .contains("fix: put transport 'local''s key file from another node in its place, mode 600\n");
    }

    @Test
    void twoLinesOnTwoNicsAndGroupsAreOkAndEachLineNicIsChecked() throws IOException {
        aTwoNicHost();

        final String text = checkLines("eth0", "239.192.10.1", "eth1", "239.192.11.1");

        assertThat(text).doesNotContain("FAIL ", "WARN ")
            .contains("OK    topic 'prices': lines 'lan-a' and 'lan-b' share no interface, NIC or group (eth0,"
                + " 239.192.10.1; eth1, 239.192.11.1)")
            .contains("OK    transport 'lan-a': interface eth0 is up", "OK    transport 'lan-b': interface eth1 is up")
            .contains("OK    transport 'lan-b': interface eth1 does multicast")
            .contains("OK    transport 'lan-b': group 239.192.11.1 is routed through eth1")
            .contains("OK    transport 'lan-b': interface eth1: rp_filter 1 (strict), and its network (10.78.0.2) is"
                + " routed through eth1")
            .contains("OK    transport 'lan-a': interface eth0: rp_filter 2 (loose) lets in datagrams from any source");
    }

    @Test
    void twoLinesOnOneNicOrOneGroupAreWarnedAbout() throws IOException {
        aTwoNicHost();

        assertThat(checkLines("eth0", "239.192.10.1", "eth0", "239.192.11.1"))
            .contains("WARN  topic 'prices': lines 'lan-a' and 'lan-b' share interface eth0: a fault of that NIC",
                "fix: give line 'lan-b' an interface of its own");
        assertThat(checkLines("eth0", "239.192.10.1", "eth1", "239.192.10.1"))
            .contains("WARN  topic 'prices': lines 'lan-a' and 'lan-b' share group 239.192.10.1",
                "fix: give line 'lan-b' a group of its own (group:)")
            .doesNotContain("share interface");
    }

    @Test
    void twoLinesOnVlansOfOnePhysicalNicAreWarnedAbout() throws IOException {
        aTwoNicHost();

        assertThat(checkLines("eth2.100", "239.192.10.1", "eth2.200", "239.192.11.1"))
            .contains("WARN  topic 'prices': lines 'lan-a' and 'lan-b' are on eth2.100 and eth2.200, both on physical"
                + " NIC eth2");
    }

    @Test
    void strictReversePathFilteringWithTheLinesNetworkRoutedElsewhereFails() throws IOException {
        aTwoNicHost();
        // line B's network (10.78.0.0/24) is routed out of eth0, as when both NICs sit on one network
        write("proc/net/route", ROUTE_HEADER
            + "eth0\t00004D0A\t00000000\t0001\t0\t0\t0\t00FFFFFF\t0\t0\t0\n"
            + "eth0\t00004E0A\t00000000\t0001\t0\t0\t0\t00FFFFFF\t0\t0\t0\n"
            + "eth1\t00004E0A\t00000000\t0001\t0\t0\t100\t00FFFFFF\t0\t0\t0\n");

        assertThat(checkLines("eth0", "239.192.10.1", "eth1", "239.192.11.1"))
            .contains("FAIL  transport 'lan-b': interface eth1: rp_filter 1 (strict) drops datagrams from publishers on"
                + " its network: 10.78.0.2 is routed through eth0, not eth1")
            .contains("fix: sysctl -w net.ipv4.conf.eth1.rp_filter=2");
    }

    /** The embedded default's transport on lo with {@code keys} as its key file, and one topic. */
    private Path authenticatedConfig(Path keys) throws IOException {
        final Path config = root.resolve("authenticated.yaml");
        Files.writeString(config, """
            transports:
              - name: local
                interface: lo
                group: 239.255.77.1
                port: 40456
                auth-key-file: %s
            topics:
              - name: prices
                id: 1
                transport: local
                codec: flyweight
            """.formatted(keys));
        return config;
    }

    /**
     * eth0 on 10.77.0.0/24 (loose rp_filter), eth1 on 10.78.0.0/24 (strict), eth2 with two VLANs; each
     * line's group routed through its own NIC.
     */
    private void aTwoNicHost() throws IOException {
        for (String nic : List.of("eth0", "eth1", "eth2.100", "eth2.200")) {
            write("sys/class/net/" + nic + "/mtu", "1500");
            write("sys/class/net/" + nic + "/flags", "0x1003");
            write("proc/sys/net/ipv4/conf/" + nic + "/rp_filter", "0");
        }
        write("sys/class/net/eth2.100/lower_eth2/ifindex", "4");
        write("sys/class/net/eth2.200/lower_eth2/ifindex", "4");
        write("proc/sys/net/ipv4/conf/eth0/rp_filter", "2");
        write("proc/sys/net/ipv4/conf/all/rp_filter", "1");
        write("proc/net/route", ROUTE_HEADER
            + "eth0\t00004D0A\t00000000\t0001\t0\t0\t0\t00FFFFFF\t0\t0\t0\n"
            + "eth1\t00004E0A\t00000000\t0001\t0\t0\t0\t00FFFFFF\t0\t0\t0\n"
            + "eth0\t000AC0EF\t00000000\t0001\t0\t0\t0\t00FFFFFF\t0\t0\t0\n"
            + "eth1\t000BC0EF\t00000000\t0001\t0\t0\t0\t00FFFFFF\t0\t0\t0\n"
            + "eth0\t000000E0\t00000000\t0001\t0\t0\t0\t000000F0\t0\t0\t0\n");
    }

    /**
     * The findings for topic prices on lines lan-a and lan-b of these interfaces and groups, the
     * config concluded against the made-up host's interfaces, one line per finding.
     */
    private String checkLines(String nicA, String groupA, String nicB, String groupB) throws IOException {
        final String yaml = """
            transports:
              - name: lan-a
                interface: %s
                group: %s
                port: 40456
              - name: lan-b
                interface: %s
                group: %s
                port: 40458
            topics:
              - name: prices
                id: 1
                transports: [lan-a, lan-b]
                codec: flyweight
            """.formatted(nicA, groupA, nicB, groupB);
        final NetworkInterfaces interfaces = NetworkInterfaces.of(List.of(
            nic("eth0", "10.77.0.2"), nic("eth1", "10.78.0.2"),
            nic("eth2.100", "10.79.0.2"), nic("eth2.200", "10.80.0.2")));
        final NodeConfig config = NodeConfig.parse(yaml, "lines.yaml",
            ConcludeContext.system().withNetworkInterfaces(interfaces));
        return new HostCheck(new HostFacts(root)).check(config).stream().map(Finding::render)
            .collect(Collectors.joining("\n"));
    }

    private static NetworkInterfaceInfo nic(String name, String address) throws IOException {
        return new NetworkInterfaceInfo(name, List.of(InetAddress.getByName(address)), 1500, true);
    }

    private int run(String... options) {
        final String[] args = new String[options.length + 3];
        args[0] = "check-host";
        args[1] = "--root";
        args[2] = root.toString();
        System.arraycopy(options, 0, args, 3, options.length);
        final PrintStream print = new PrintStream(out, true, StandardCharsets.UTF_8);
        return Nakcast.run(print, print, args);
    }

    private String text() {
        return out.toString(StandardCharsets.UTF_8);
    }

    private void write(String file, String content) throws IOException {
        final Path path = root.resolve(file);
        Files.createDirectories(path.getParent());
        Files.writeString(path, content);
    }
}
