package org.nakcast.transport.status;

import java.util.EnumMap;

import org.agrona.concurrent.status.AtomicCounter;
import org.agrona.concurrent.status.CountersManager;

/**
 * One {@link AtomicCounter} per {@link SystemCounter} and per cause of malformed datagram,
 * allocated once from a {@link CountersManager} when a node starts. They are never freed: a
 * node's counters file keeps them after it stops, to tell how it ended. The counters of single
 * streams come from the same file through {@link #streams()}.
 */
public final class SystemCounters {
    private final EnumMap<SystemCounter, AtomicCounter> counters = new EnumMap<>(SystemCounter.class);
    private final EnumMap<DatagramCheck, AtomicCounter> malformedByCause = new EnumMap<>(DatagramCheck.class);
    private final StreamCounters streamCounters;

    /** Allocates every system counter from {@code manager}. */
    public SystemCounters(CountersManager manager) {
        for (SystemCounter counter : SystemCounter.values()) {
            counters.put(counter, manager.newCounter(counter.label(), counter.typeId()));
        }
        for (DatagramCheck cause : DatagramCheck.values()) {
            if (cause != DatagramCheck.VALID) {
                malformedByCause.put(cause, manager.newCounter(
                    "malformed: " + cause.description(),
                    CounterTypeIds.MALFORMED_BY_CAUSE,
                    keyBuffer -> keyBuffer.putInt(0, cause.ordinal())));
            }
        }
        this.streamCounters = new StreamCounters(manager, counters.get(SystemCounter.STREAM_COUNTERS_UNAVAILABLE));
    }

    /** Where the counters of single streams come from. */
    public StreamCounters streams() {
        return streamCounters;
    }

    /** The counter for {@code counter}. */
    public AtomicCounter get(SystemCounter counter) {
        return counters.get(counter);
    }

    /** Counts one malformed datagram under its cause and under the total. */
    public void countMalformed(DatagramCheck cause) {
        malformedByCause.get(cause).increment();
        counters.get(SystemCounter.MALFORMED).increment();
    }

    /** The counter of malformed datagrams with this cause. */
    public AtomicCounter malformed(DatagramCheck cause) {
        return malformedByCause.get(cause);
    }

    /**
     * The counters that are not zero, as {@code label=value} pairs in declaration order, for logs
     * and failure messages. Allocates: not for the hot path.
     */
    public String describeNonZero() {
        final StringBuilder description = new StringBuilder();
        counters.forEach((counter, value) -> appendIfNonZero(description, counter.label(), value.get()));
        malformedByCause.forEach((cause, value) ->
            appendIfNonZero(description, "malformed: " + cause.description(), value.get()));
        return description.toString();
    }

    private static void appendIfNonZero(StringBuilder description, String label, long value) {
        if (value != 0) {
            description.append(description.isEmpty() ? "" : ", ").append(label).append('=').append(value);
        }
    }
}
