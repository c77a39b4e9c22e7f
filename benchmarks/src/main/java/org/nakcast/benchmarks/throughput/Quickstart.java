package org.nakcast.benchmarks.throughput;

import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

import org.nakcast.benchmarks.child.ChildJvm;
import org.nakcast.benchmarks.child.Figures;
import org.nakcast.config.ByteSize;
import org.nakcast.config.FlowControlMode;
import org.nakcast.config.MediaType;
import org.nakcast.config.TransportConfig;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code ops/quickstart}: for each codec, its encode and decode rates ({@link CodecSpeedMain}, a
 * JVM of its own) and an end-to-end run ({@link ThroughputRun} with the codec's {@link Payload}: a
 * publisher JVM that encodes, a subscriber JVM that decodes and checks every message), then one
 * table: codec, encode/s, decode/s, min(enc,dec), end-to-end msgs/s, lost. Progress goes to
 * standard error; the table, its notes and a JSON line to standard output.
 *
 * <p>It refuses to run unless it sees only {@code lo} (a private network namespace). Exit status:
 * 0 when every codec delivered every message exactly once and in order; 1 when a codec lost
 * messages (reported by loss events) or broke their order; 2 when a measurement failed to
 * complete; 3 outside a private network namespace; 64 for a bad option.
 */
@Command(name = "ops/quickstart", sortOptions = false, usageHelpAutoWidth = true,
    exitCodeOnInvalidInput = ThroughputBench.BAD_OPTION,
    description = "For each codec: encode/s and decode/s (a quick in-process loop), then a publisher JVM and a"
        + " subscriber JVM on loopback multicast in a private network namespace. One table; the last line is JSON.")
public final class Quickstart implements Callable<Integer> {

    private final PrintStream out;
    private final PrintStream log;

    @Option(names = "--codecs", split = ",", paramLabel = "NAME",
        description = "the codecs, in this order (default: flyweight,fst-unshared,fst,kryo,jdk-externalizable,jdk)")
    private List<String> codecs = new ArrayList<>(Payload.CODECS);

    @Option(names = "--seconds", defaultValue = "3", paramLabel = "N",
        description = "measured seconds of each end-to-end run, after the warm-up (default: ${DEFAULT-VALUE})")
    private int seconds;

    @Option(names = "--warmup", defaultValue = "1", paramLabel = "N",
        description = "seconds of traffic before the measured ones (default: ${DEFAULT-VALUE})")
    private int warmup;

    @Option(names = "--rate", defaultValue = "0", paramLabel = "BYTES/S",
        converter = ThroughputBench.ByteSizeConverter.class,
        description = "the publisher's send-rate cap in bytes per second, with k, m or g (x1024); 0 is unpaced: flow"
            + " control alone holds the publisher to the subscriber (default: ${DEFAULT-VALUE})")
    private ByteSize rate;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help and exit")
    private boolean help;

    Quickstart(PrintStream out, PrintStream log) {
        this.out = out;
        this.log = log;
    }

    /**
     * @param args the options; {@code --help} lists them
     */
    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    /**
     * Runs the quickstart as {@code main} does, printing the table and the JSON to {@code out}.
     *
     * @return the exit status
     */
    static int run(String[] args, PrintStream out, PrintStream log) {
        return new CommandLine(new Quickstart(out, log))
            .setOut(new PrintWriter(out, true))
            .setErr(new PrintWriter(log, true))
            .execute(args);
    }

    @Override
    public Integer call() throws InterruptedException {
        final List<RunSettings> runs = new ArrayList<>();
        try {
            for (String codec : codecs) {
                if (!Payload.CODECS.contains(codec)) {
                    throw new IllegalArgumentException("--codecs takes " + String.join(", ", Payload.CODECS)
                        + "; '" + codec + "' is none of them");
                }
                runs.add(new RunSettings(Contender.NAKCAST, seconds, warmup, Long.BYTES,
                    TransportConfig.DEFAULT_DATAGRAM_SIZE, 0, 0, rate, FlowControlMode.MIN, 42, codec, Duration.ZERO,
                    1, MediaType.NIO, false, null));
            }
        } catch (IllegalArgumentException ex) {
            log.println("ops/quickstart: " + ex.getMessage());
            return ThroughputBench.BAD_OPTION;
        }
        if (runs.isEmpty()) {
            log.println("ops/quickstart: --codecs names no codec");
            return ThroughputBench.BAD_OPTION;
        }
        final String refusal = PrivateNetwork.refusal();
        if (refusal != null) {
            log.println("ops/quickstart: " + refusal);
            return 3;
        }
        log.println(ChildJvm.collectorNote());
        out.print(QuickstartTable.header());
        out.flush();
        final List<QuickstartRow> rows = new ArrayList<>();
        for (int i = 0; i < runs.size(); i++) {
            final RunSettings run = runs.get(i);
            final String step = String.format(Locale.ROOT, "[%d/%d] %s", i + 1, runs.size(), run.codec());
            log.printf(Locale.ROOT, "%s: encode and decode, %d ms warm-up + %d ms measured each ...%n", step,
                CodecSpeedMain.SPEED_WARMUP_MS,
                CodecSpeedMain.SPEED_MEASURE_MS);
            Figures speed = new Figures();
            String speedFailure = null;
            try {
                speed = CodecSpeedMain.measureInChild(run.codec(), log);
            } catch (ChildJvm.ChildFailedException | IOException | IllegalArgumentException ex) {
                speedFailure = ex.getMessage();
            }
            log.printf(Locale.ROOT, "%s: end-to-end, publisher and subscriber JVMs, %d s warm-up + %d s measured,"
                + " %s, host load %.2f ...%n", step, run.warmupSeconds(), run.seconds(), run.rateText(),
                HostLoad.oneMinute());
            final QuickstartRow row = new QuickstartRow(run.codec(), speed, speedFailure, ThroughputRun.run(run, log));
            rows.add(row);
            out.print(QuickstartTable.row(row));
            out.flush();
        }
        out.print(QuickstartTable.footer(runs.get(0), rows, CodecSpeedMain.SPEED_WARMUP_MS,
            CodecSpeedMain.SPEED_MEASURE_MS));
        out.println(QuickstartTable.json(runs.get(0), rows));
        out.flush();
        return exitStatus(rows);
    }

    private static int exitStatus(List<QuickstartRow> rows) {
        if (rows.stream().anyMatch(QuickstartRow::isFailed)) {
            return 2;
        }
        return rows.stream().anyMatch(QuickstartRow::lostOrBroken) ? 1 : 0;
    }
}
