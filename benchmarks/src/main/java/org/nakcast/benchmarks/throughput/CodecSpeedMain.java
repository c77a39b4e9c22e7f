package org.nakcast.benchmarks.throughput;

import java.io.IOException;
import java.io.PrintStream;
import java.util.List;

import org.nakcast.benchmarks.child.ChildJvm;
import org.nakcast.benchmarks.child.ChildProtocol;
import org.nakcast.benchmarks.child.Figures;
import org.nakcast.benchmarks.codec.QuickCodecSpeed;

/**
 * The codec-speed JVM of {@link Quickstart}: measures one codec's encode and decode rates
 * ({@link QuickCodecSpeed}), says them in a RESULT line and exits. One JVM per codec, so that no
 * codec's rates carry another's JIT profile. Sends no packet. {@code ops/throughput --codec} uses it
 * too, for the codec's own min(encode, decode) beside its end-to-end rate.
 */
public final class CodecSpeedMain {
    /** Warm-up of each codec-speed loop (encode, then decode). */
    static final long SPEED_WARMUP_MS = 1000;
    /** Measured time of each codec-speed loop. */
    static final long SPEED_MEASURE_MS = 1000;
    private static final long SPEED_TIMEOUT_SECONDS = 60;
    private static final long NANOS_PER_MILLI = 1_000_000L;

    private CodecSpeedMain() {
    }

    /**
     * @param args the codec's name, then the warm-up and the measured milliseconds of each operation
     */
    public static void main(String[] args) {
        final QuickCodecSpeed.Speed speed = new QuickCodecSpeed(
            Long.parseLong(args[1]) * NANOS_PER_MILLI, Long.parseLong(args[2]) * NANOS_PER_MILLI).measure(args[0]);
        ChildProtocol.say(ChildProtocol.RESULT, new Figures()
            .put("encodePerSecond", speed.encodePerSecond())
            .put("decodePerSecond", speed.decodePerSecond())
            .put("bytes", speed.bytes())
            .toLine());
    }

    /**
     * Measures one codec in a JVM of its own.
     *
     * @param log where the child's stray output goes
     * @return {@code encodePerSecond}, {@code decodePerSecond}, {@code bytes} and {@code min} (the lower rate)
     * @throws IOException if the JVM cannot start
     * @throws InterruptedException if interrupted while waiting
     */
    static Figures measureInChild(String codec, PrintStream log) throws IOException, InterruptedException {
        try (ChildJvm child = ChildJvm.start("codec-speed", CodecSpeedMain.class,
            List.of(codec, Long.toString(SPEED_WARMUP_MS), Long.toString(SPEED_MEASURE_MS)), log)) {
            final Figures figures = Figures.parse(child.await(ChildProtocol.RESULT, SPEED_TIMEOUT_SECONDS));
            child.awaitExit(SPEED_TIMEOUT_SECONDS);
            return figures.put("min",
                Math.min(figures.doubleValue("encodePerSecond"), figures.doubleValue("decodePerSecond")));
        }
    }
}
