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
        assertThat(window.bufferOf(6).getByte(window.offsetOf(6) + 9)).isEqualTo((byte) 7);
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
    void aSmallWindowIsOnePageTakenAtTheFirstStoreAndFreedOnce() {
        assertThat(window.allocatedBytes()).isZero();
        window.free();

        window.store(1, bytes(4, 9), 0, 4);

        assertThat(window.allocatedBytes()).isEqualTo(4 * 16);
        assertThat(window.bufferOf(1).getByte(window.offsetOf(1) + 3)).isEqualTo((byte) 9);
        window.free();
        assertThat(window.allocatedBytes()).isZero();
    }

    @Test
    void aDatagramHeldFarAheadTakesOnlyItsOwnPage() {
        final ReorderWindow large = new ReorderWindow(1024, 1408);
        large.store(5_000, bytes(1408, 3), 0, 1408);

        assertThat(large.allocatedBytes()).isEqualTo(ReorderWindow.PAGE_SLOTS * 1408);
        final long slot = 5_000 & 1023;
        assertThat(large.offsetOf(5_000)).isEqualTo((slot % ReorderWindow.PAGE_SLOTS) * 1408);
        assertThat(large.bufferOf(5_000).getByte(large.offsetOf(5_000) + 1407)).isEqualTo((byte) 3);
        large.free();
    }

    @Test
    void pagesAreTakenOnceAndKeptForLaterDatagrams() {
        final ReorderWindow large = new ReorderWindow(1024, 100);
        for (long sequence = 0; sequence < 3 * ReorderWindow.PAGE_SLOTS; sequence += 7) {
            large.store(sequence, bytes(1, (int) sequence), 0, 1);
        }
        final UnsafeBuffer firstPage = large.bufferOf(0);
        large.store(1024, bytes(1, 99), 0, 1);

        assertThat(large.allocatedBytes()).isEqualTo(3L * ReorderWindow.PAGE_SLOTS * 100);
        assertThat(large.bufferOf(1024)).isSameAs(firstPage);
        assertThat(large.bufferOf(7)).isSameAs(firstPage);
        assertThat(large.bufferOf(ReorderWindow.PAGE_SLOTS)).isNotSameAs(firstPage);
        assertThat(large.bufferOf(70).getByte(large.offsetOf(70))).isEqualTo((byte) 70);
        large.free();
    }

    @Test
    void aDatagramFitsUpToTheSlotLength() {
        assertThat(window.fits(16)).isTrue();
        assertThat(window.fits(17)).isFalse();
    }
}
