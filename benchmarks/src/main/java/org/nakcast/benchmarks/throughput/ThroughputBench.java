package org.nakcast.benchmarks.throughput;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

import org.nakcast.config.ByteSize;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code ops/throughput}: messages per second delivered by the transport, publisher and
 * subscriber in two JVMs on loopback multicast, with a seeded loss injected at the subscriber.
 * For each send rate and each loss level given, one run ({@link ThroughputRun}) starts both JVMs,
 * offers numbered messages (raw bytes, or the sample price update through a codec: {@link Payload})
 * for the warm-up and measured seconds, checks that every message
 * arrives once and in order or is reported lost, and prints one table row; the last line on
 * standard output is a JSON object with every figure of every run.
 *
 * <p>It refuses to run unless it sees only {@code lo} (a private network namespace); the child
 * JVMs inherit the namespace, the {@code java} executable, the JVM flags and the class path.
 *
 * <p>Exit status: 0 when every run completed and kept the contract (loss reported by loss events
 * is a result, not a failure); 1 when a run saw a sequence error or a message neither delivered
 * nor reported lost; 2 when a run failed to complete; 3 outside a private network namespace; 64
 * for a bad option.
 */
@Command(name = "ops/throughput", sortOptions = false, usageHelpAutoWidth = true,
    exitCodeOnInvalidInput = ThroughputBench.BAD_OPTION,
    description = "Transport throughput: a publisher JVM and a subscriber JVM on loopback multicast, inside a"
        + " private network namespace. One run per rate x loss, one table row per run; the last line is JSON.")
public final class ThroughputBench implements Callable<Integer> {
    /**
     * The default send-rate cap: 128 MiB/s, about 1.76 M messages of 70 bytes per second. A raw
     * run's topic has flow control {@code max}, so a publisher that outruns the subscriber (unpaced, or capped
     * high while the subscriber's thread waits for a core) overflows the subscriber's socket buffer
     * and its history, and the loss policy reports the gap. On a shared 2-core machine, 128m
     * delivered everything at 0% and 1% loss in every run but one made under a load average of 6
     * to 9; 192m lost messages in 3 of 5 runs without injected loss, and 224m and 256m in most:
     * the default is the highest rate that stayed clean, so that the default run measures the
     * transport and not the machine's scheduling.
     */
    static final String DEFAULT_RATE = "128m";
    /** The exit status for a bad option (sysexits' EX_USAGE). */
    static final int BAD_OPTION = 64;

    private final PrintStream out;
    private final PrintStream log;

    @Option(names = "--seconds", defaultValue = "10", paramLabel = "N",
        description = "measured seconds, after the warm-up (default: ${DEFAULT-VALUE})")
    private int seconds;

    @Option(names = "--warmup", defaultValue = "3", paramLabel = "N",
        description = "seconds of traffic before the measured ones (default: ${DEFAULT-VALUE})")
    private int warmup;

    @Option(names = "--codec", defaultValue = Payload.RAW, paramLabel = "NAME",
        description = "raw: raw bytes, the number in the first 8; or a codec (flyweight, fst, fst-unshared, jdk,"
            + " jdk-externalizable, kryo) that encodes the sample PriceUpdate on the publisher and decodes it on the"
            + " subscriber, the number as its instrument id, the topic on flow control min (default: ${DEFAULT-VALUE})")
    private String codec;

    @Option(names = "--size", defaultValue = "70", paramLabel = "BYTES",
        description = "bytes per raw message; each carries its 64-bit sequence number; a codec sizes its own"
            + " (default: ${DEFAULT-VALUE})")
    private int size;

    @Option(names = "--loss", defaultValue = "0", split = ",", paramLabel = "FRACTION",
        description = "fraction of DATA and RETRANSMIT datagrams the subscriber drops on receipt, seeded; a list"
            + " runs each in turn, e.g. 0,0.01,0.10 (default: ${DEFAULT-VALUE})")
    private List<Double> losses;

    @Option(names = "--rate", defaultValue = DEFAULT_RATE, split = ",", paramLabel = "BYTES/S",
        converter = ByteSizeConverter.class,
        description = "the publisher's send-rate cap in bytes per second, with k, m or g (x1024), or 0 for"
            + " unpaced; a list runs each in turn (default: ${DEFAULT-VALUE}, a rate the subscriber keeps up with)")
    private List<ByteSize> rates;

    @Option(names = "--seed", defaultValue = "42", paramLabel = "N",
        description = "seeds the loss pattern (default: ${DEFAULT-VALUE})")
    private long seed;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help and exit")
    private boolean help;

    ThroughputBench(PrintStream out, PrintStream log) {
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
     * Runs the measurement as {@code main} does, printing the table and the JSON to {@code out}.
     *
     * @return the exit status
     */
    static int run(String[] args, PrintStream out, PrintStream log) {
        return new CommandLine(new ThroughputBench(out, log))
            .setOut(new PrintWriter(out, true))
            .setErr(new PrintWriter(log, true))
            .execute(args);
    }

    @Override
    public Integer call() throws InterruptedException {
        final String refusal = PrivateNetwork.refusal();
        if (refusal != null) {
            log.println("ops/throughput: " + refusal);
            return 3;
        }
        final List<RunSettings> runs = new ArrayList<>();
        try {
            for (ByteSize rate : rates) {
                for (double loss : losses) {
                    runs.add(new RunSettings(seconds, warmup, size, loss, rate, seed, codec));
                }
            }
        } catch (IllegalArgumentException ex) {
            log.println("ops/throughput: " + ex.getMessage());
            return BAD_OPTION;
        }
        out.print(ThroughputTable.header());
        out.flush();
        final List<RunResult> results = new ArrayList<>();
        for (int i = 0; i < runs.size(); i++) {
            final RunSettings run = runs.get(i);
            log.printf(Locale.ROOT, "run %d/%d: rate %s, loss %.1f%%, %d s warm-up + %d s measured, %s,"
                    + " host load %.2f%n", i + 1, runs.size(), run.rateText(), run.loss() * 100, run.warmupSeconds(),
                run.seconds(), run.messagesText(), HostLoad.oneMinute());
            final RunResult result = ThroughputRun.run(run, log);
            results.add(result);
            out.print(ThroughputTable.row(result));
            out.flush();
        }
        out.println(ThroughputTable.json(runs.get(0), results));
        out.flush();
        return exitStatus(results);
    }

    /** Reads a send rate as configuration writes sizes: {@code 0}, {@code 64m}, {@code 1g}. */
    static final class ByteSizeConverter implements CommandLine.ITypeConverter<ByteSize> {
        @Override
        public ByteSize convert(String value) {
            try {
                return ByteSize.parse(value);
            } catch (IllegalArgumentException ex) {
                throw new CommandLine.TypeConversionException(ex.getMessage());
            }
        }
    }

    private static int exitStatus(List<RunResult> results) {
        if (results.stream().anyMatch(RunResult::isFailed)) {
            return 2;
        }
        return results.stream().anyMatch(RunResult::brokeContract) ? 1 : 0;
    }
}
