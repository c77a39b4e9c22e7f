package org.nakcast.benchmarks.throughput;

import org.nakcast.benchmarks.child.ChildProtocol;
import org.nakcast.benchmarks.child.Figures;
import org.nakcast.benchmarks.codec.QuickCodecSpeed;

/**
 * The codec-speed JVM of {@link Quickstart}: measures one codec's encode and decode rates
 * ({@link QuickCodecSpeed}), says them in a RESULT line and exits. One JVM per codec, so that no
 * codec's rates carry another's JIT profile. Sends no packet.
 */
public final class CodecSpeedMain {
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
}
