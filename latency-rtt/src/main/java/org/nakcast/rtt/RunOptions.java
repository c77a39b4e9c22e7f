package org.nakcast.rtt;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import picocli.CommandLine.Option;

/** The ping side's options: how many round trips, how fast, and where the report goes. */
final class RunOptions {
    @Option(names = "--warmup", paramLabel = "N", defaultValue = "200000",
        description = "round trips before measuring, per path (with --rounds, per turn), not recorded (JIT, caches); "
            + "default ${DEFAULT-VALUE}: enough for nakcast's 2 MB offer ring to wrap a few times (some 50,000 32-byte "
            + "messages a lap), so the JIT has compiled its rare branches before measuring starts")
    long warmup;

    @Option(names = "--count", paramLabel = "N", defaultValue = "100000",
        description = "round trips measured, per path (with --rounds, shared among its turns); "
            + "default ${DEFAULT-VALUE}")
    long count;

    @Option(names = "--duration", paramLabel = "SECONDS", defaultValue = "0",
        description = "measure for this long instead of --count round trips, per path (with --rounds, shared among its "
            + "turns); 0 (default) uses --count")
    double duration;

    @Option(names = "--rate", paramLabel = "PER_SECOND", defaultValue = "0",
        description = {"pings per second; 0 (default) is back-to-back: the next ping goes as soon as the echo is in. "
            + "At a fixed rate each ping is sent at its due time and recorded with the expected interval, so a stall "
            + "also counts the pings it held up (coordinated omission corrected)"})
    long rate;

    @Option(names = "--timeout", paramLabel = "SECONDS", defaultValue = "5",
        description = "give up when an echo has not come after this long (also: pong not started); "
            + "default ${DEFAULT-VALUE}")
    double timeout;

    @Option(names = "--output", paramLabel = "DIR", defaultValue = "target/latency-rtt",
        description = {"where the .hgrm, .hlog and .png files go (created); default ${DEFAULT-VALUE}"})
    Path output;

    @Option(names = "--name", paramLabel = "PREFIX", defaultValue = "rtt",
        description = {"file name prefix: PREFIX-nakcast.hgrm, PREFIX-nakcast.hlog, PREFIX-raw-udp.*, PREFIX.png; "
            + "default ${DEFAULT-VALUE}"})
    String name;

    /**
     * Checks the values picocli cannot; the message names the option.
     *
     * @param rounds the run's {@code --rounds}: each turn measures at least one round trip
     */
    void check(int rounds) {
        if (warmup < 0 || count < 1 || duration < 0 || rate < 0 || timeout <= 0) {
            throw new IllegalArgumentException(
                "need --warmup >= 0, --count >= 1, --duration >= 0, --rate >= 0, --timeout > 0");
        }
        if (duration == 0 && count < rounds) {
            throw new IllegalArgumentException("--count " + count + " leaves a turn of the " + rounds
                + " rounds with nothing to measure: give at least one round trip per round");
        }
        if (!name.matches("[A-Za-z0-9._-]+")) {
            throw new IllegalArgumentException("--name may hold letters, digits, '.', '_' and '-' only (was " + name
                + ")");
        }
    }

    /**
     * Round trips one turn of a path measures: its share of --count over {@code rounds} turns, the
     * first turns taking one more where the count does not divide; no limit when --duration is given.
     *
     * @param turn which of the path's turns, from 0
     * @param rounds how many turns the path has
     */
    long measuredCount(int turn, int rounds) {
        if (duration > 0) {
            return Long.MAX_VALUE;
        }
        return count / rounds + (turn < count % rounds ? 1 : 0);
    }

    /** One turn's share of --duration over {@code rounds} turns, in nanoseconds; 0 for none. */
    long durationNs(int rounds) {
        return (long) (duration * 1e9 / rounds);
    }

    /** The time between pings at --rate; 0 back-to-back. */
    long intervalNs() {
        return rate == 0 ? 0 : Math.max(1, TimeUnit.SECONDS.toNanos(1) / rate);
    }

    /** --timeout in nanoseconds. */
    long timeoutNs() {
        return (long) (timeout * 1e9);
    }

    /** {@code DIR/PREFIX-label.suffix}, or {@code DIR/PREFIX.suffix} for a null label. */
    Path file(String label, String suffix) {
        return output.resolve(label == null ? name + suffix : name + "-" + label + suffix);
    }

    /** "back-to-back" or "rate N/s", for reports. */
    String mode() {
        return rate == 0 ? "back-to-back" : "rate " + rate + "/s";
    }
}
