package org.nakcast.micrometer;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.status.CountersReader;

/**
 * One counter in a counters file, told apart from whatever takes its slot after it is freed (a stream
 * counter's slot serves the next stream): its id, its type and the first 8 bytes of its key (a stream's
 * topic and session, a malformed counter's cause).
 *
 * @param counterId the counter's id: its slot in the file
 * @param typeId the counter's type id
 * @param keyStart the first 8 bytes of the counter's key, little-endian
 */
record CounterSlot(int counterId, int typeId, long keyStart) {
    /** The slot of a counter as {@link CountersReader#forEach(CountersReader.MetaData)} gives it. */
    static CounterSlot of(int counterId, int typeId, DirectBuffer key) {
        return new CounterSlot(counterId, typeId, key.getLong(0));
    }

    /** Whether {@code counters} still holds this counter in its slot, not a freed or another one. */
    boolean isHeldIn(CountersReader counters) {
        return counters.getCounterState(counterId) == CountersReader.RECORD_ALLOCATED
            && counters.getCounterTypeId(counterId) == typeId
            && counters.metaDataBuffer().getLong(CountersReader.metaDataOffset(counterId) + CountersReader.KEY_OFFSET)
            == keyStart;
    }
}
