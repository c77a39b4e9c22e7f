package org.nakcast.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import org.junit.jupiter.api.Test;

/** The rule of what a delivery queue of a given size holds and carries. */
class DeliveryQueueSizeTest {
    private static final long MIB = 1 << 20;

    @Test
    void aQueueIsARingOfItsSizeRoundedDownToAPowerOfTwoOfAtMostOneGibibyte() {
        assertThat(DeliveryQueueSize.ringBytes(4 * MIB)).isEqualTo(4 * MIB);
        assertThat(DeliveryQueueSize.ringBytes(4 * MIB - 1)).isEqualTo(2 * MIB);
        assertThat(DeliveryQueueSize.ringBytes(ByteSize.parse("4g").bytes())).isEqualTo(1 << 30);
    }

    @Test
    void aRingCarriesThreeQuartersOfItselfLessSixteenDatagrams() {
        assertThat(DeliveryQueueSize.largestMessage(4 * MIB, 1408)).isEqualTo(3 * MIB - 16 * 1408);
        assertThat(DeliveryQueueSize.largestMessage(7 * MIB, 1408))
            .isEqualTo(DeliveryQueueSize.largestMessage(4 * MIB, 1408));
    }

    @Test
    void theSmallestQueueForAMessageAlsoHoldsSixtyFourDatagrams() {
        assertThat(DeliveryQueueSize.smallestQueue(MIB, 1408)).isEqualTo(2 * MIB);
        assertThat(DeliveryQueueSize.largestMessage(2 * MIB - 1, 1408)).isLessThan(MIB);
        assertThat(DeliveryQueueSize.smallestQueue(8 * 1024, 1408)).isEqualTo(64 * 1408);
        assertThatIllegalArgumentException().isThrownBy(() -> DeliveryQueueSize.smallestQueue(1 << 30, 1408))
            .withMessage("no delivery queue carries messages of 1073741824 bytes");
    }
}
