package org.nakcast.media.linux;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

/**
 * The syscall-batching measurement ({@code ops/syscall-batching}) on lo, in the test JVM's private
 * network namespace: every mode moves every datagram on both paths, the native receivers allocate
 * nothing per datagram, the program prints its table, and its Java 17 part is Java 17 class files.
 */
class SyscallBatchingTest {
    private static final int RECEIVE_BUFFER_BYTES = 2 << 20;

    @Test
    void everyModeMovesEveryDatagramOnBothPaths() throws Exception {
        for (String path : new String[] {"multicast", "unicast"}) {
            final DatagramRun.Route route = DatagramRun.Route.parse(path);
            for (SyscallBatching.Mode mode : SyscallBatching.Mode.values()) {
                final DatagramRun.Result run = SyscallBatching.runOnce(mode, route, RECEIVE_BUFFER_BYTES, 512, 0.3);

                assertThat(run.refused()).as("%s %s", path, mode.label).isNull();
                assertThat(run.sent()).as("%s %s", path, mode.label).isPositive();
                assertThat(run.received()).as("%s %s: held to the receiver, nothing is lost", path, mode.label)
                    .isEqualTo(run.sent());
                assertThat((double) run.sent() / run.sendCalls()).as("%s %s: datagrams per send", path, mode.label)
                    .isBetween(1.0, (double) mode.batch);
            }
        }
    }

    @Test
    void theNativeReceiversAllocateNothingPerDatagramFromTwoSenders() throws Exception {
        assertThat(leastAllocatedBytesPerDatagram(SyscallBatching.RecvfromReceiver::new, 42_500))
            .as("recvfrom into a reused sockaddr_in").isZero();
        assertThat(leastAllocatedBytesPerDatagram(
            (route, port, bytes) -> new SyscallBatching.RecvmmsgReceiver(route, port, bytes, 32, false), 42_600))
            .as("recvmmsg of 32").isZero();
    }

    /**
     * The allocation probe's figure from two senders taking turns, the least of up to ten probes: the
     * JIT may still compile after a probe's warm-up pass, and code compiled anew may allocate as it
     * first runs.
     */
    private static double leastAllocatedBytesPerDatagram(DatagramRun.ReceiverFactory receivers, int firstPort)
        throws Exception {
        final DatagramRun.Route route = DatagramRun.Route.parse("multicast");
        double least = Double.MAX_VALUE;
        for (int probe = 0; probe < 10 && least > 0; probe++) {
            least = Math.min(least, DatagramRun.allocatedBytesPerDatagram(receivers, route, firstPort + 2 * probe, 2,
                20_000));
        }
        return least;
    }

    @Test
    void theProgramPrintsItsTableAndTheAllocationProbe() throws Exception {
        final String out = printed(() -> SyscallBatching.main(new String[] {"--seconds", "0.2", "--rounds", "1",
            "--warmup", "0", "--paths", "multicast", "--modes", "mmsg-8", "--allocation-datagrams", "2000"}));

        assertThat(out).contains("syscall batching: 1408-byte datagrams", "x nio", "CPU x nio",
            "allocation on the receiving thread", "FFM recvmmsg 32");
        assertThat(out.lines().filter(line -> line.startsWith("multicast ")))
            .as("a row for nio and one for mmsg-8").hasSize(2)
            .allMatch(line -> !line.contains("refused"));
    }

    @Test
    void theCommandLineIsCheckedAndNioIsAlwaysTheFirstMode() {
        final SyscallBatching.Options options = SyscallBatching.Options.parse(
            new String[] {"--modes", "gso,mmsg-8", "--rcvbuf", "4m,512k"});

        assertThat(options.modes()).containsExactly(SyscallBatching.Mode.NIO, SyscallBatching.Mode.GSO,
            SyscallBatching.Mode.MMSG_8);
        assertThat(options.receiveBuffers()).containsExactly(4 << 20, 512 << 10);
        assertThatIllegalArgumentException().isThrownBy(() -> SyscallBatching.Options.parse(new String[] {"--speed"}))
            .withMessageContaining("--speed");
        assertThatIllegalArgumentException().isThrownBy(() -> SyscallBatching.Options.parse(
            new String[] {"--modes", "sendfile"})).withMessageContaining("unknown mode 'sendfile'");
    }

    @Test
    void theBaselineRunOnNakcastsOwnJdkIsJava17ClassFilesAndTheRestJava22() throws IOException {
        for (String java17 : new String[] {"DatagramRun", "DatagramRun$NioReceiver", "DatagramRun$Flow"}) {
            assertThat(classFileMajorVersion(java17)).as(java17).isEqualTo(61);
        }
        assertThat(classFileMajorVersion("SyscallBatching")).isEqualTo(66);
    }

    private static int classFileMajorVersion(String className) throws IOException {
        try (InputStream in = SyscallBatching.class.getResourceAsStream(className + ".class")) {
            assertThat(in).as(className).isNotNull();
            final DataInputStream data = new DataInputStream(in);
            assertThat(data.readInt()).isEqualTo(0xCAFEBABE);
            data.readUnsignedShort();
            return data.readUnsignedShort();
        }
    }

    /** What {@code program} prints on standard output. */
    private static String printed(ThrowingRunnable program) throws Exception {
        final PrintStream standardOut = System.out;
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        try {
            program.run();
        } finally {
            System.setOut(standardOut);
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    /** A program's main, which may throw. */
    @FunctionalInterface
    private interface ThrowingRunnable {
        void run() throws Exception;
    }
}
