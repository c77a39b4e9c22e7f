package org.nakcast.transport.lossinjection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.nio.ByteBuffer;
import java.util.EnumSet;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.nakcast.transport.protocol.FrameType;
import org.nakcast.transport.protocol.HeaderFlyweight;

class SequenceRangeLossGeneratorTest {
    private final UnsafeBuffer datagram = new UnsafeBuffer(ByteBuffer.allocateDirect(64));
    private final HeaderFlyweight header = new HeaderFlyweight();
    private final SequenceRangeLossGenerator generator =
        new SequenceRangeLossGenerator(10, 12, EnumSet.of(FrameType.DATA));

    @Test
    void dropsDatagramsOfTheChosenTypeInsideTheRangeOnly() {
        assertThat(drops(FrameType.DATA, 9)).isFalse();
        assertThat(drops(FrameType.DATA, 10)).isTrue();
        assertThat(drops(FrameType.DATA, 12)).isTrue();
        assertThat(drops(FrameType.DATA, 13)).isFalse();
    }

    @Test
    void letsOtherTypesThrough() {
        assertThat(drops(FrameType.RETRANSMIT, 11)).isFalse();
        assertThat(drops(FrameType.HEARTBEAT, 11)).isFalse();
    }

    @Test
    void letsDatagramsTooShortForAHeaderThrough() {
        header.wrap(datagram, 0);
        header.writeHeader(FrameType.DATA, 64, 1, 1, 11);

        assertThat(generator.shouldDrop(datagram, 0, HeaderFlyweight.HEADER_LENGTH - 1)).isFalse();
    }

    @Test
    void refusesAnEmptyRange() {
        assertThatIllegalArgumentException()
            .isThrownBy(() -> new SequenceRangeLossGenerator(5, 4, EnumSet.of(FrameType.DATA)))
            .withMessageContaining("5..4");
    }

    private boolean drops(FrameType type, long sequence) {
        header.wrap(datagram, 0);
        header.writeHeader(type, 64, 1, 1, sequence);
        return generator.shouldDrop(datagram, 0, 64);
    }
}
