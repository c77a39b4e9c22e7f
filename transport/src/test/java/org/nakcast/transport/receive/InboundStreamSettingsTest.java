package org.nakcast.transport.receive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.nio.ByteBuffer;
import java.util.SplittableRandom;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.nakcast.transport.StreamEventListener;
import org.nakcast.transport.protocol.NakFlyweight;
import org.nakcast.transport.testing.TestCounters;

class InboundStreamSettingsTest {
    private static final InboundStreamSettings DEFAULTS = InboundStreamSettings.DEFAULTS;

    @Test
    void defaultsAreTheDocumentedOnes() {
        assertThat(DEFAULTS).isEqualTo(new InboundStreamSettings(1024, 1408, 1 << 20, false, NakTiming.DEFAULTS));
        assertThat(NakTiming.DEFAULTS).isEqualTo(new NakTiming(20_000, 50_000, 100_000, 50_000_000));
    }

    @Test
    void theWindowMustBeAPositivePowerOfTwo() {
        assertThatIllegalArgumentException().isThrownBy(() -> DEFAULTS.withReorderWindowCapacity(1000))
            .withMessageContaining("reorderWindowCapacity").withMessageContaining("1000");
        assertThatIllegalArgumentException().isThrownBy(() -> DEFAULTS.withReorderWindowCapacity(0))
            .withMessageContaining("reorderWindowCapacity");
        assertThat(DEFAULTS.withReorderWindowCapacity(1).reorderWindowCapacity()).isEqualTo(1);
    }

    @Test
    void theDatagramLengthMustHoldADataFrameAndANakRangeAndFitUdp() {
        assertThatIllegalArgumentException()
            .isThrownBy(() -> new InboundStreamSettings(
                8, NakFlyweight.lengthFor(1) - 1, 100, false, NakTiming.DEFAULTS))
            .withMessageContaining("maxDatagramLength");
        assertThatIllegalArgumentException()
            .isThrownBy(() -> new InboundStreamSettings(8, 65_508, 100, false, NakTiming.DEFAULTS))
            .withMessageContaining("maxDatagramLength");
    }

    @Test
    void theWindowMustStayAddressable() {
        assertThatIllegalArgumentException()
            .isThrownBy(() -> new InboundStreamSettings(1 << 16, 65_507, 100, false, NakTiming.DEFAULTS))
            .withMessageContaining("reorderWindowCapacity x maxDatagramLength");
    }

    @Test
    void theMessageLimitMustBePositive() {
        assertThatIllegalArgumentException().isThrownBy(() -> DEFAULTS.withMaxMessageLength(0))
            .withMessageContaining("maxMessageLength");
    }

    @Test
    void nakTimingBoundsAreChecked() {
        assertThatIllegalArgumentException().isThrownBy(() -> new NakTiming(-1, 0, 1, 1))
            .withMessageContaining("delayFloorNs");
        assertThatIllegalArgumentException().isThrownBy(() -> new NakTiming(0, -1, 1, 1))
            .withMessageContaining("initialRepairEstimateNs");
        assertThatIllegalArgumentException().isThrownBy(() -> new NakTiming(0, 0, 0, 1))
            .withMessageContaining("retryMinNs");
        assertThatIllegalArgumentException().isThrownBy(() -> new NakTiming(0, 0, 10, 9))
            .withMessageContaining("retryMaxNs");
        assertThatIllegalArgumentException().isThrownBy(() -> new NakTiming(0, 11, 1, 10))
            .withMessageContaining("initialRepairEstimateNs");
    }

    @Test
    void aStreamRefusesANakBufferTooSmallForOneRange() {
        final UnsafeBuffer tooSmall = new UnsafeBuffer(ByteBuffer.allocateDirect(NakFlyweight.lengthFor(1) - 1));

        assertThatIllegalArgumentException().isThrownBy(() -> new InboundStream(1, 1, 1, DEFAULTS,
                new SplittableRandom(1), (buffer, offset, length, header) -> { }, StreamEventListener.NONE,
                (buffer, offset, length) -> true, tooSmall, new TestCounters().counters()))
            .withMessageContaining("nakBuffer");
    }
}
