package org.nakcast.transport.testing;

import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.Map;

import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.CountersManager;
import org.agrona.concurrent.status.CountersReader;
import org.nakcast.transport.status.SystemCounter;
import org.nakcast.transport.status.SystemCounters;

/**
 * A node's {@link SystemCounters} in memory, for tests: room for every system counter and the counters
 * of a few streams, with the metadata area four times the values area as {@link CountersManager} requires.
 */
public final class TestCounters {
    private static final int VALUES_LENGTH = 128 * CountersReader.COUNTER_LENGTH;

    private final CountersManager manager = new CountersManager(
        new UnsafeBuffer(ByteBuffer.allocateDirect(VALUES_LENGTH * (CountersReader.METADATA_LENGTH
            / CountersReader.COUNTER_LENGTH))),
        new UnsafeBuffer(ByteBuffer.allocateDirect(VALUES_LENGTH)));
    private final SystemCounters counters = new SystemCounters(manager);

    /** The counters, to hand to the code under test. */
    public SystemCounters counters() {
        return counters;
    }

    /** Every counter allocated now, system and stream counters alike: label to value, in slot order. */
    public Map<String, Long> valuesByLabel() {
        final Map<String, Long> values = new LinkedHashMap<>();
        manager.forEach((counterId, label) -> values.put(label, manager.getCounterValue(counterId)));
        return values;
    }

    /** The current value of {@code counter}. */
    public long get(SystemCounter counter) {
        return counters.get(counter).get();
    }
}
