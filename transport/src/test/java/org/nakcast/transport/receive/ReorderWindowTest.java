package org.nakcast.transport.receive;

import static org.assertj.core.api.Assertions.assertThat;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

class ReorderWindowTest {
    private final ReorderWindow window = new ReorderWindow(4, 16);

    private static UnsafeBuffer bytes(int length, int fill) {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[length]);
        buffer.setMemory(0, length, (byte) fill);
        return buffer;
    }

    @Test
    void holdsACopyOfEachDatagramInItsSlot() {
        final UnsafeBuffer datagram = bytes(10, 7);
        window.store(6, datagram, 0, 10);
        datagram.setMemory(0, 10, (byte) 0);

        assertThat(window.contains(6)).isTrue();
        assertThat(window.lengthOf(6)).isEqualTo(10);
        assertThat(window.offsetOf(6)).isEqualTo(2 * 16);
        assertThat(window.buffer().getByte(window.offsetOf(6) + 9)).isEqualTo((byte) 7);
    }

    @Test
    void aSlotAnswersOnlyForTheSequenceItHolds() {
        window.store(6, bytes(1, 1), 0, 1);

        assertThat(window.contains(2)).isFalse();
        assertThat(window.contains(10)).isFalse();
        assertThat(window.contains(5)).isFalse();
    }

    @Test
    void aLaterSequenceReplacesTheOneLeftBehindInItsSlot() {
        window.store(6, bytes(3, 1), 0, 3);
        window.store(10, bytes(5, 2), 0, 5);

        assertThat(window.contains(6)).isFalse();
        assertThat(window.contains(10)).isTrue();
        assertThat(window.lengthOf(10)).isEqualTo(5);
    }

    @Test
    void nothingIsHeldAtFirstNotEvenSequenceZero() {
        assertThat(window.contains(0)).isFalse();
        assertThat(window.capacity()).isEqualTo(4);
    }

    @Test
    void theSlotsAreTakenAtTheFirstStoreAndFreedOnce() {
        assertThat(window.isAllocated()).isFalse();
        window.free();

        window.store(1, bytes(4, 9), 0, 4);

        assertThat(window.isAllocated()).isTrue();
        assertThat(window.buffer().capacity()).isEqualTo(4 * 16);
        assertThat(window.buffer().getByte(window.offsetOf(1) + 3)).isEqualTo((byte) 9);
        window.free();
    }

    @Test
    void aDatagramFitsUpToTheSlotLength() {
        assertThat(window.fits(16)).isTrue();
        assertThat(window.fits(17)).isFalse();
    }
}
