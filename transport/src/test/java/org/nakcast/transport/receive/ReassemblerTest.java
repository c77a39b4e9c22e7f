package org.nakcast.transport.receive;

import static org.assertj.core.api.Assertions.assertThat;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

class ReassemblerTest {
    private static UnsafeBuffer filled(int length, int value) {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[length]);
        buffer.setMemory(0, length, (byte) value);
        return buffer;
    }

    @Test
    void joinsFragmentsInOrder() {
        final Reassembler reassembler = new Reassembler(100);
        reassembler.begin(5);
        reassembler.append(filled(3, 1), 0, 3);
        reassembler.append(filled(2, 2), 0, 2);

        assertThat(reassembler.isAssembling()).isTrue();
        assertThat(reassembler.beginSequence()).isEqualTo(5);
        assertThat(reassembler.finish()).isEqualTo(5);
        assertThat(reassembler.isAssembling()).isFalse();
        final byte[] joined = new byte[5];
        reassembler.buffer().getBytes(0, joined);
        assertThat(joined).containsExactly(1, 1, 1, 2, 2);
    }

    @Test
    void startsNoLargerThanTheLimit() {
        assertThat(new Reassembler(100).capacity()).isEqualTo(100);
        assertThat(new Reassembler(1 << 20).capacity()).isEqualTo(Reassembler.INITIAL_CAPACITY);
    }

    @Test
    void doublesAsTheBytesArriveAndStopsAtTheLimit() {
        final int limit = 5 * Reassembler.INITIAL_CAPACITY;
        final Reassembler reassembler = new Reassembler(limit);
        final UnsafeBuffer fragment = filled(Reassembler.INITIAL_CAPACITY / 2, 9);
        reassembler.begin(0);
        final int[] capacities = new int[10];
        for (int i = 0; i < capacities.length; i++) {
            assertThat(reassembler.append(fragment, 0, fragment.capacity())).isTrue();
            capacities[i] = reassembler.capacity();
        }

        final int initial = Reassembler.INITIAL_CAPACITY;
        assertThat(capacities).containsExactly(
            initial, initial, 2 * initial, 2 * initial, 4 * initial, 4 * initial, 4 * initial, 4 * initial, limit,
            limit);
        assertThat(reassembler.buffer().getByte(limit - 1)).isEqualTo((byte) 9);
    }

    @Test
    void refusesAFragmentThatWouldPassTheLimitAndKeepsWhatItHas() {
        final Reassembler reassembler = new Reassembler(10);
        reassembler.begin(0);
        reassembler.append(filled(6, 1), 0, 6);

        assertThat(reassembler.append(filled(5, 2), 0, 5)).isFalse();
        assertThat(reassembler.capacity()).isEqualTo(10);
        assertThat(reassembler.append(filled(4, 3), 0, 4)).isTrue();
        assertThat(reassembler.finish()).isEqualTo(10);
    }

    @Test
    void aNewMessageStartsEmptyAndAbandonEndsTheOldOne() {
        final Reassembler reassembler = new Reassembler(10);
        reassembler.begin(0);
        reassembler.append(filled(6, 1), 0, 6);
        reassembler.abandon();

        assertThat(reassembler.isAssembling()).isFalse();
        reassembler.begin(1);
        reassembler.append(filled(2, 2), 0, 2);
        assertThat(reassembler.finish()).isEqualTo(2);
    }
}
