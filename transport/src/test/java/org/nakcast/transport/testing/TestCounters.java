package org.nakcast.transport.testing;

import java.nio.ByteBuffer;

import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.CountersManager;
import org.agrona.concurrent.status.CountersReader;
import org.nakcast.transport.status.SystemCounter;
import org.nakcast.transport.status.SystemCounters;

/**
 * A node's {@link SystemCounters} in memory, for tests: room for every system counter, with the
 * metadata area four times the values area as {@link CountersManager} requires.
 */
public final class TestCounters {
    private static final int VALUES_LENGTH = 64 * CountersReader.COUNTER_LENGTH;

    private final SystemCounters counters = new SystemCounters(new CountersManager(
        new UnsafeBuffer(ByteBuffer.allocateDirect(VALUES_LENGTH * (CountersReader.METADATA_LENGTH
            / CountersReader.COUNTER_LENGTH))),
        new UnsafeBuffer(ByteBuffer.allocateDirect(VALUES_LENGTH))));

    /** The counters, to hand to the code under test. */
    public SystemCounters counters() {
        return counters;
    }

    /** The current value of {@code counter}. */
    public long get(SystemCounter counter) {
        return counters.get(counter).get();
    }
}
