package org.nakcast.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;

import org.nakcast.codecs.CodecRegistry;
import org.nakcast.config.ConcludeContext;
import org.nakcast.config.ConfigException;
import org.nakcast.config.NetworkInterfaceInfo;
import org.nakcast.config.NetworkInterfaces;
import org.nakcast.config.NodeConfig;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code nakcast check-host}: checks that this Linux host gives a config's transports what they need
 * and prints one OK, WARN or FAIL line per check, with the command that fixes it. Changes nothing;
 * sends nothing.
 */
@Command(name = "check-host", mixinStandardHelpOptions = true,
    description = {"Checks what this Linux host needs for a nakcast config: net.core.rmem_max / wmem_max against "
        + "the socket buffers, each transport's interface (both lines' for a topic on two): MTU against "
        + "datagram-size, up and multicast-capable, the multicast route, an rp_filter that lets the group's "
        + "datagrams in, and IGMP; each transport's auth-key-file: its owner's alone and valid, with the keys it "
        + "holds; whether two lines share an interface, a physical NIC or a group; transport ports among the "
        + "kernel's ephemeral ports and not reserved (another socket may be given one); and user namespaces for the "
        + "test runner.",
        "Read-only: prints OK / WARN / FAIL lines with the command that fixes each; exit code 1 if any FAIL."})
final class CheckHostCommand implements Callable<Integer> {
    /** Exit code when a check failed. */
    static final int FAILED = 1;

    @Spec
    CommandSpec spec;

    @Option(names = "--config", paramLabel = "FILE",
        description = "the node's YAML config. Default: the embedded default (interface lo).")
    Path config;

    @Option(names = "--root", paramLabel = "DIR", hidden = true,
        description = "read proc/ and sys/ under DIR instead of / (a copy of another host's files; tests)")
    Path root = Path.of("/");

    @Override
    public Integer call() {
        final PrintWriter out = spec.commandLine().getOut();
        final NodeConfig nodeConfig;
        try {
            nodeConfig = loadConfig();
        } catch (ConfigException ex) {
            out.println(Finding.fail("config: " + ex.getMessage().strip().replace("\n", "\n      "),
                "fix the config; check-host checks the host once the config loads").render());
            out.flush();
            return FAILED;
        }
        final List<Finding> findings = new HostCheck(new HostFacts(root)).check(nodeConfig);
        findings.forEach(finding -> out.println(finding.render()));
        final long failed = findings.stream().filter(finding -> finding.level() == Finding.Level.FAIL).count();
        final long warned = findings.stream().filter(finding -> finding.level() == Finding.Level.WARN).count();
        out.printf("check-host: %d checks, %d FAIL, %d WARN%n", findings.size(), failed, warned);
        out.flush();
        return failed > 0 ? FAILED : 0;
    }

    /**
     * The config, concluded against the codecs a node here would have and this machine's
     * interfaces by name and address, but with their MTU and state left for {@link HostCheck} to
     * judge, and its key files left for {@link KeyFileCheck}: a datagram too large for the MTU, an
     * interface that is down or a key file open to others is a finding with its fix here, not a
     * config that refuses to load.
     */
    private NodeConfig loadConfig() {
        final ConcludeContext context = ConcludeContext.system().withNetworkInterfaces(
            new NamesAndAddressesOnly(NetworkInterfaces.system())).withCodecNames(
            CodecRegistry.create().namesTopicsMayUse()).withKeyFilesUnread();
        if (config != null) {
            return NodeConfig.load(config, context);
        }
        try (InputStream in = NodeConfig.class.getClassLoader()
            .getResourceAsStream(NodeConfig.EMBEDDED_DEFAULT_RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("resource " + NodeConfig.EMBEDDED_DEFAULT_RESOURCE + " is missing");
            }
            return NodeConfig.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8),
                "classpath:" + NodeConfig.EMBEDDED_DEFAULT_RESOURCE, context);
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    /** This machine's interfaces, each said to be up with an unknown MTU (0), which {@code conclude()} skips. */
    private record NamesAndAddressesOnly(NetworkInterfaces interfaces) implements NetworkInterfaces {
        @Override
        public Optional<NetworkInterfaceInfo> byName(String name) {
            return interfaces.byName(name).map(NamesAndAddressesOnly::namesAndAddresses);
        }

        @Override
        public Optional<NetworkInterfaceInfo> byAddress(InetAddress address) {
            return interfaces.byAddress(address).map(NamesAndAddressesOnly::namesAndAddresses);
        }

        @Override
        public List<String> names() {
            return interfaces.names();
        }

        private static NetworkInterfaceInfo namesAndAddresses(NetworkInterfaceInfo nic) {
            return new NetworkInterfaceInfo(nic.name(), nic.addresses(), 0, true);
        }
    }
}
