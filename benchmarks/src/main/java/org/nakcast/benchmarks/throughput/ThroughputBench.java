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
import org.nakcast.config.ConfigException;
import org.nakcast.config.Durations;
import org.nakcast.config.FlowControlMode;
import org.nakcast.config.MediaType;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code ops/throughput}: messages per second delivered by the transport, publisher and
 * subscriber in two JVMs on loopback multicast, on one line or two, with loss in the kernel
 * ({@link RunSettings#kernelLoss()}) and,
 * optionally, a seeded loss injected at the nakcast subscriber. For each kernel loss level, send
 * rate and injected loss given, one run ({@link ThroughputRun}) starts both JVMs, offers numbered
 * messages (raw bytes, or the sample price update through a codec: {@link Payload}) for the
 * warm-up and measured seconds, checks that every message arrives once and in order or is reported
 * lost, and prints one table row. With {@code --peers}, Aeron and fast-cast run the same messages
 * at each loss level, and a second table gives the ratio nakcast/peer ({@link PeerComparison}).
 * With {@code --stranger-naks}, a stranger NAKs the stream's whole history every interval
 * ({@link StrangerNaks}), and a table gives each flooded run against its clean twin
 * ({@link TwinComparison}). With {@code --recorder}, each nakcast run also runs with a recorder of
 * the topic as one more subscriber ({@link RecorderMain}), and a table gives it against its twin.
 * With a codec, the codec's own encode and decode rates are measured first
 * ({@link CodecSpeedMain}). The last line on standard output is a JSON object with every figure.
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
        + " private network namespace. One run per loss x rate x injected loss, and with --peers one Aeron and one"
        + " fast-cast run per loss; one table row per run; the last line is JSON.")
public final class ThroughputBench implements Callable<Integer> {
    /**
     * The default send-rate cap: none. Every topic of a run is on flow control {@code min} unless
     * {@code --flow-control max} says otherwise, so the subscriber's position, not a cap, holds the
     * publisher back, and an unpaced run measures the most the transport delivers with nothing lost.
     * A cap ({@code --rate}) is for finding what a rate costs; with {@code max} it is what keeps a
     * publisher from outrunning its subscriber (README: "Rates and flow control").
     */
    static final String DEFAULT_RATE = "0";
    /** The default datagram size: nakcast's transport default, which fits a 1500-byte MTU. */
    static final String DEFAULT_DATAGRAM_SIZE = "1408";
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

    @Option(names = "--datagram-size", defaultValue = DEFAULT_DATAGRAM_SIZE, paramLabel = "BYTES",
        converter = ByteSizeConverter.class,
        description = "the largest datagram each system sends, in bytes, with k (x1024): nakcast's transport"
            + " datagram-size (its config says what it takes), Aeron's MTU (a multiple of 32, at most 65504),"
            + " fast-cast's datagram size; 8k suits a network of 9000-byte jumbo frames (default: ${DEFAULT-VALUE},"
            + " nakcast's, for a 1500-byte MTU)")
    private ByteSize datagramSize;

    @Option(names = "--loss", defaultValue = "0", split = ",", paramLabel = "FRACTION",
        description = "fraction of the UDP datagrams the kernel drops on receipt (iptables -m statistic in the"
            + " namespace; needs root there), for every system alike; a list runs each in turn, e.g. 0,0.01,0.10"
            + " (default: ${DEFAULT-VALUE})")
    private List<Double> losses;

    @Option(names = "--lines", defaultValue = "1", split = ",", paramLabel = "N",
        description = "nakcast only: 1, the topic on its transport; 2, also on a copy of it as line B (group"
            + " 239.255.77.5, port 40476, on lo): the publisher sends every datagram on both, the subscriber takes the"
            + " first copy and NAKs what both lines missed; --loss then drops its fraction on each line independently"
            + " (one iptables rule per line). A list runs each in turn, e.g. 1,2 (default: ${DEFAULT-VALUE})")
    private List<Integer> lines;

    @Option(names = "--media", defaultValue = "nio", split = ",", paramLabel = "MEDIA",
        description = "nakcast only: how its nodes move datagrams to and from the kernel (node.media): nio, one system"
            + " call per datagram; native, sendmmsg/recvmmsg (JDK 22+ and Linux; a node that cannot have it fails the"
            + " run). A list runs each in turn, e.g. nio,native (default: ${DEFAULT-VALUE})")
    private List<String> media;

    @Option(names = "--injected-loss", defaultValue = "0", split = ",", paramLabel = "FRACTION",
        description = "nakcast only: fraction of DATA and RETRANSMIT datagrams its subscriber drops on receipt, in"
            + " process and seeded; a list runs each in turn (default: ${DEFAULT-VALUE})")
    private List<Double> injectedLosses;

    @Option(names = "--peers",
        description = "at each --loss level, also run Aeron and fast-cast (raw bytes of --size, two JVMs each) and"
            + " print the ratio nakcast/peer")
    private boolean peers;

    @Option(names = "--rate", defaultValue = DEFAULT_RATE, split = ",", paramLabel = "BYTES/S",
        converter = ByteSizeConverter.class,
        description = "the publisher's send-rate cap in bytes per second, with k, m or g (x1024), or 0 for"
            + " unpaced; a list runs each in turn (default: ${DEFAULT-VALUE}: flow control holds the publisher to the"
            + " subscriber)")
    private List<ByteSize> rates;

    @Option(names = "--flow-control", paramLabel = "MODE",
        defaultValue = "min",
        description = "nakcast's topic: min (held to its slowest receiver, with a " + RunSettings.HELD_HISTORY
            + " history; the default) or max (the publisher at its own pace, the topic's own history: with --rate 0 it"
            + " outruns the subscriber, and the loss events say what it lost). With one receiver, min is what Aeron's"
            + " default multicast flow control does (default: ${DEFAULT-VALUE})")
    private String flowControl;

    @Option(names = "--stranger-naks", defaultValue = "0", split = ",", paramLabel = "INTERVAL",
        converter = IntervalConverter.class,
        description = "nakcast only: a stranger in the namespace learns the stream's session from the data port and"
            + " multicasts a forged NAK for its whole history (sequences 0 to 2^62) to the control port every INTERVAL"
            + " (ns, us, ms or s, e.g. 1ms), from the publisher's start to the end of the run; 0 for none. A list runs"
            + " each in turn, e.g. 0,1ms, and compares each flooded run with its clean one (default: ${DEFAULT-VALUE})")
    private List<Duration> strangerNaks;

    @Option(names = "--recorder",
        description = "nakcast only: each run once without and once with a recorder JVM recording the topic (late-join"
            + " oldest, 128 MiB segments synced per segment, in a temporary directory under java.io.tmpdir:"
            + " JAVA_OPTS=-Djava.io.tmpdir=DIR records on another disk) as one more subscriber, held"
            + " to like any receiver under flow control min; a table compares each run with its twin, and a message"
            + " the recorder neither recorded nor recorded as a hole breaks the contract")
    private boolean recorder;

    @Option(names = "--auth", defaultValue = "off", split = ",", paramLabel = "off|on",
        description = "nakcast only: off, or on (every datagram signed and checked with a key file written for the"
            + " bench, auth-key-file), or a list, e.g. off,on: each run in turn, and a table compares each"
            + " authenticated run with its twin (default: ${DEFAULT-VALUE})")
    private List<String> auth;

    @Option(names = "--seed", defaultValue = "42", paramLabel = "N",
        description = "seeds the injected loss pattern (default: ${DEFAULT-VALUE})")
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
        final List<RunSettings> runs;
        try {
            runs = runs();
        } catch (IllegalArgumentException ex) {
            log.println("ops/throughput: " + ex.getMessage());
            return BAD_OPTION;
        }
        log.println(ChildJvm.collectorNote());
        final Figures codecSpeed = codecSpeed(runs.get(0));
        out.print(ThroughputTable.header());
        out.flush();
        final List<RunResult> results = new ArrayList<>();
        for (int i = 0; i < runs.size(); i++) {
            final RunSettings run = runs.get(i);
            log.printf(Locale.ROOT, "run %d/%d: %s, %s, media %s, rate %s, kernel loss %.1f%%, injected loss %.1f%%,"
                    + " stranger NAKs %s, %s, %d s warm-up + %d s measured, %s in datagrams of %s, host load %.2f%n",
                i + 1, runs.size(), run.system().label(), run.lines() == 1 ? "one line" : "two lines",
                ThroughputTable.media(run), run.rateText(),
                run.loss() * 100, run.injectedLoss() * 100,
                run.strangerText(), run.recorder() ? "a recorder" : "no recorder", run.warmupSeconds(), run.seconds(),
                run.messagesText(), run.datagramSize(),
                HostLoad.oneMinute());
            final RunResult result = ThroughputRun.run(run, log);
            results.add(result);
            out.print(ThroughputTable.row(result));
            out.flush();
        }
        final List<PeerComparison.Row> comparison = PeerComparison.rows(results);
        out.print(PeerComparison.table(comparison));
        final List<List<TwinComparison.Row>> twinComparisons = new ArrayList<>();
        for (TwinComparison.Addition addition : TwinComparison.Addition.values()) {
            final List<TwinComparison.Row> rows = TwinComparison.rows(results, addition);
            out.print(TwinComparison.table(rows));
            twinComparisons.add(rows);
        }
        if (codecSpeed != null) {
            out.print(codecNote(runs.get(0).codec(), codecSpeed, results));
        }
        out.println(ThroughputTable.json(runs.get(0), codecSpeed, results, comparison, twinComparisons));
        out.flush();
        return exitStatus(results);
    }

    /**
     * Every run, in order: per kernel loss level, nakcast on each line count at each rate, injected
     * loss and stranger interval, then each peer with {@code --peers}.
     *
     * @throws IllegalArgumentException for a bad value or combination
     */
    List<RunSettings> runs() {
        if (peers && !Payload.RAW.equals(codec)) {
            throw new IllegalArgumentException("--peers compares raw bytes: leave out --codec " + codec);
        }
        final FlowControlMode mode = flowControlMode();
        final List<RunSettings> runs = new ArrayList<>();
        for (double loss : losses) {
            RunSettings first = null;
            for (int lineCount : lines) {
                for (MediaType mediaType : mediaTypes()) {
                    for (ByteSize rate : rates) {
                        for (double injected : injectedLosses) {
                            for (Duration stranger : strangerNaks) {
                                for (boolean recorded : recorder ? List.of(false, true) : List.of(false)) {
                                    for (String keyFile : authKeyFiles()) {
                                        final RunSettings run = new RunSettings(Contender.NAKCAST, seconds, warmup,
                                            size, datagramSize, loss, injected, rate, mode, seed, codec, stranger,
                                            lineCount, mediaType, recorded, keyFile);
                                        checkNakcastConfig(run);
                                        runs.add(run);
                                        first = first == null ? run : first;
                                    }
                                }
                            }
                        }
                    }
                }
            }
            if (peers && first != null) {
                runs.add(first.forPeer(Contender.AERON));
                runs.add(first.forPeer(Contender.FAST_CAST));
            }
        }
        return runs;
    }

    /**
     * Concludes the config a nakcast run's JVMs will launch with, so that what nakcast refuses
     * ({@code --datagram-size} out of its range, say) is a bad option here, not a failed run.
     */
    private static void checkNakcastConfig(RunSettings run) {
        try {
            run.nodeConfig();
        } catch (ConfigException ex) {
            throw new IllegalArgumentException("nakcast refuses the run's config: " + ex.getMessage(), ex);
        }
    }

    /**
     * The key file of each {@code --auth} value in turn: null for off, and for on one key file
     * written owner-only in a temporary directory for the whole bench.
     */
    private List<String> authKeyFiles() {
        final List<String> files = new ArrayList<>();
        for (String value : auth) {
            switch (value) {
                case "off" -> files.add(null);
                case "on" -> files.add(BenchKeyFile.path());
                default -> throw new IllegalArgumentException("--auth must be off or on, was '" + value + "'");
            }
        }
        return files;
    }

    private List<MediaType> mediaTypes() {
        return media.stream().map(name -> {
            try {
                return MediaType.valueOf(name.toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException ex) {
                throw new IllegalArgumentException("--media must be nio or native, was '" + name + "'", ex);
            }
        }).toList();
    }

    private FlowControlMode flowControlMode() {
        if ("min".equals(flowControl)) {
            return FlowControlMode.MIN;
        }
        if ("max".equals(flowControl)) {
            return FlowControlMode.MAX;
        }
        throw new IllegalArgumentException("--flow-control must be min or max, was '" + flowControl + "'");
    }

    /** A codec's own rates, measured in a JVM of its own before the runs; null for raw bytes or on failure. */
    private Figures codecSpeed(RunSettings run) throws InterruptedException {
        if (Payload.RAW.equals(run.codec())) {
            return null;
        }
        log.printf(Locale.ROOT, "codec %s: encode and decode, %d ms warm-up + %d ms measured each ...%n", run.codec(),
            CodecSpeedMain.SPEED_WARMUP_MS, CodecSpeedMain.SPEED_MEASURE_MS);
        try {
            return CodecSpeedMain.measureInChild(run.codec(), log);
        } catch (ChildJvm.ChildFailedException | IOException | IllegalArgumentException ex) {
            log.println("ops/throughput: the codec's speed could not be measured: " + ex.getMessage());
            return null;
        }
    }

    /** The codec's own min(encode, decode) and each run's end-to-end rate as a share of it. */
    static String codecNote(String codec, Figures codecSpeed, List<RunResult> results) {
        final StringBuilder note = new StringBuilder(String.format(Locale.ROOT,
            "%ncodec %s on one thread (quick loop, ops/codec-bench for JMH): encode %.3f M/s, decode %.3f M/s,"
                + " min(enc,dec) %.3f M/s%n", codec, codecSpeed.doubleValue("encodePerSecond") / 1e6,
            codecSpeed.doubleValue("decodePerSecond") / 1e6, codecSpeed.doubleValue("min") / 1e6));
        for (RunResult result : results) {
            if (!result.isFailed()) {
                note.append(String.format(Locale.ROOT, "  %s, loss %s: end to end %.3f M/s, %.0f%% of min(enc,dec)%n",
                    result.settings().rateText(), ThroughputTable.percent(result.settings().loss()),
                    result.subscriber().doubleValue("deliveredPerSecond") / 1e6,
                    100 * result.subscriber().doubleValue("deliveredPerSecond") / codecSpeed.doubleValue("min")));
            }
        }
        return note.toString();
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

    /** Reads an interval as configuration writes durations ({@code 1ms}, {@code 100us}), or {@code 0} for none. */
    static final class IntervalConverter implements CommandLine.ITypeConverter<Duration> {
        @Override
        public Duration convert(String value) {
            if ("0".equals(value.trim())) {
                return Duration.ZERO;
            }
            try {
                return Durations.parse(value);
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
