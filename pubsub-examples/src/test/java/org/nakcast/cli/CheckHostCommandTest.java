package org.nakcast.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code nakcast check-host} against a made-up host: its {@code /proc} and {@code /sys} files in a
 * temporary directory ({@code --root}), the embedded default config (interface lo, 2 MiB socket
 * buffers, 1408-byte datagrams).
 */
class CheckHostCommandTest {
    private static final String GROUP_ON_LO_JOINED = """
        Idx\tDevice    : Count Querier\tGroup    Users Timer\tReporter
        1\tlo        :     2      V3
        \t\t\t\t014DFFEF     1 0:00000000\t\t0
        \t\t\t\t010000E0     1 0:00000000\t\t0
        """;

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
            .contains("check-host: 8 checks, 0 FAIL, 0 WARN");
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
                "fix: ip route replace 224.0.0.0/4 dev lo")
            .contains("group 239.255.77.1 not joined on lo now");
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
