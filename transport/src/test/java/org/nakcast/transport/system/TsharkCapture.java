package org.nakcast.transport.system;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A {@code tshark} capture of the UDP traffic on {@code lo} of this JVM's private network
 * namespace, and its decoding with nakcast's Wireshark dissector ({@code ops/wireshark/nakcast.lua})
 * into one {@link DissectedPacket} per datagram.
 */
final class TsharkCapture implements AutoCloseable {
    private static final long START_TIMEOUT_MS = 20_000;
    /** Where {@link #start} sends the datagrams that prove the capture runs: the discard port. */
    private static final int PROBE_PORT = 9;

    private final Path pcap;
    private final Path log;
    private final Process process;

    private TsharkCapture(Path pcap, Path log, Process process) {
        this.pcap = pcap;
        this.log = log;
        this.process = process;
    }

    /**
     * Starts capturing UDP on {@code lo} into {@code directory}, and returns once the capture has
     * seen a probe datagram: tshark saying it captures is no proof that its filter is already in
     * place. Probes go to {@link #PROBE_PORT} and are left out of {@link #decode}. Refuses outside a
     * private network namespace: it never captures on a host's network. A capture not seen to start
     * is stopped before the failure goes up: no tshark is left running.
     */
    static TsharkCapture start(Path directory) throws IOException, InterruptedException {
        assertThat(System.getenv("NAKCAST_PRIVATE_NETNS"))
            .as("captures only inside a private network namespace (ops/netns/bin/java)").isEqualTo("1");
        final Path pcap = directory.resolve("nakcast.pcap");
        final Path log = directory.resolve("tshark-capture.log");
        // The probe's source port is ephemeral, and some are claimed by a dissector (34962 by PROFINET):
        // the probe printed as that protocol would never show its port. Probes decode as plain data.
        final Process process = new ProcessBuilder(tshark(), "-i", "lo", "-f", "udp", "-w", pcap.toString(),
            "-P", "-l", "-d", "udp.port==" + PROBE_PORT + ",data").redirectErrorStream(true)
            .redirectOutput(log.toFile()).start();
        final long deadlineMs = System.currentTimeMillis() + START_TIMEOUT_MS;
        try {
            awaitProbe(process, log, deadlineMs);
        } catch (AssertionError | IOException | InterruptedException ex) {
            process.destroyForcibly();
            throw ex;
        }
        return new TsharkCapture(pcap, log, process);
    }

    /** Sends probes until the capture's log shows one: the capture runs with its filter in place. */
    private static void awaitProbe(Process process, Path log, long deadlineMs)
        throws IOException, InterruptedException {
        try (DatagramSocket probe = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
            final DatagramPacket datagram = new DatagramPacket(new byte[1], 1,
                new InetSocketAddress(InetAddress.getLoopbackAddress(), PROBE_PORT));
            while (!Files.readString(log).contains(" " + PROBE_PORT + " Len=")) {
                assertThat(process.isAlive()).as("tshark ended before capturing:%n%s", Files.readString(log))
                    .isTrue();
                assertThat(System.currentTimeMillis()).as("tshark starting:%n%s", Files.readString(log))
                    .isLessThan(deadlineMs);
                probe.send(datagram);
                Thread.sleep(20);
            }
        }
    }

    /** Stops the capture if it still runs; a test that failed before {@link #decode} leaves no tshark behind. */
    @Override
    public void close() {
        try {
            stop();
        } catch (InterruptedException ex) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    /** Stops the capture: tshark writes out what it holds on SIGTERM. */
    private void stop() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
        }
    }

    /**
     * Stops the capture if it still runs and decodes it with the dissector, its port preference set
     * to {@code dataPort}; with 0 the dissector is a heuristic only, so it must find nakcast by the
     * magic alone, and judges no ports. Decodes the same capture as often as asked; the probes
     * {@link #start} sent are not in it.
     *
     * @param lines the dissector's lines preference ({@code 40456=md-a,40458=md-b}); empty for none
     * @param fields the display fields to read, e.g. {@code nakcast.type}
     * @return one packet per captured datagram, in capture order
     */
    List<DissectedPacket> decode(Path dissector, int dataPort, String lines, List<String> fields)
        throws IOException, InterruptedException {
        stop();
        final List<String> command = new ArrayList<>(List.of(tshark(), "-r", pcap.toString(),
            "-X", "lua_script:" + dissector, "-o", "nakcast.port:" + dataPort, "-o", "nakcast.lines:" + lines,
            "-Y", "udp.dstport != " + PROBE_PORT,
            "-T", "fields", "-E", "separator=/t", "-E", "occurrence=a", "-E", "aggregator=,"));
        fields.forEach(field -> command.addAll(List.of("-e", field)));
        final Path out = pcap.resolveSibling("decoded.tsv");
        final Path err = pcap.resolveSibling("tshark-decode.log");
        final Process decoder = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile())
            .start();
        assertThat(decoder.waitFor(60, TimeUnit.SECONDS)).as("tshark decoding").isTrue();
        assertThat(decoder.exitValue()).as("tshark -r:%n%s%ncapture:%n%s", Files.readString(err), Files.readString(log))
            .isZero();
        final List<DissectedPacket> packets = new ArrayList<>();
        for (String line : Files.readAllLines(out, StandardCharsets.UTF_8)) {
            final String[] values = line.split("\t", -1);
            final Map<String, String> byField = new HashMap<>();
            for (int i = 0; i < fields.size(); i++) {
                byField.put(fields.get(i), i < values.length ? values[i] : "");
            }
            packets.add(new DissectedPacket(byField));
        }
        return packets;
    }

    /** {@code tshark} from the PATH or /usr/bin; fails, naming the fix, when it is not installed. */
    private static String tshark() {
        final String path = System.getenv().getOrDefault("PATH", "/usr/bin");
        return Arrays.stream((path + ":/usr/bin").split(":"))
            .map(dir -> Path.of(dir, "tshark"))
            .filter(Files::isExecutable)
            .findFirst()
            .map(Path::toString)
            .orElseThrow(() -> new AssertionError(
                "tshark is not installed: run ops/install-prerequisites (Debian package tshark)"));
    }
}
