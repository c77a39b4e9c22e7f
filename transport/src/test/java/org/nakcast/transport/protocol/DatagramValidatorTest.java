package org.nakcast.transport.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.nakcast.transport.protocol.HeaderFlyweight.BYTE_ORDER;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.nakcast.transport.status.DatagramCheck;

/**
 * Each check of {@link DatagramValidator} on its own: a well-formed datagram of every type passes,
 * and changing one field gives the answer that names that field.
 */
class DatagramValidatorTest {
    private static final int OFFSET = 8;
    private static final int SESSION = 7;
    private static final int TOPIC = 3;

    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[2048]);

    /** DATA of two whole messages, 5 and 3 bytes; returns its length. */
    private int data() {
        final int length = DataFlyweight.DATA_HEADER_LENGTH + 2 * MessageFrame.FRAME_HEADER_LENGTH + 8;
        final DataFlyweight header = new DataFlyweight();
        header.wrap(buffer, OFFSET);
        header.writeHeader(FrameType.DATA, length, SESSION, TOPIC, 42);
        header.completedMessages(0);
        final int first = OFFSET + DataFlyweight.DATA_HEADER_LENGTH;
        MessageFrame.write(buffer, first, 5, MessageFrame.UNFRAGMENTED);
        MessageFrame.write(buffer, first + MessageFrame.FRAME_HEADER_LENGTH + 5, 3, MessageFrame.UNFRAGMENTED);
        return length;
    }

    /** An UNRECOVERABLE header, its range left to the caller. */
    private UnrecoverableFlyweight unrecoverable() {
        final UnrecoverableFlyweight unrecoverable = new UnrecoverableFlyweight();
        unrecoverable.wrap(buffer, OFFSET);
        unrecoverable.writeHeader(FrameType.UNRECOVERABLE, UnrecoverableFlyweight.UNRECOVERABLE_LENGTH, SESSION,
            TOPIC, 0);
        return unrecoverable;
    }

    private DatagramCheck check(int length) {
        return DatagramValidator.check(buffer, OFFSET, length);
    }

    @Test
    void aWellFormedDatagramOfEveryTypePasses() {
        assertThat(check(data())).isEqualTo(DatagramCheck.VALID);

        final HeartbeatFlyweight heartbeat = new HeartbeatFlyweight();
        heartbeat.wrap(buffer, OFFSET);
        heartbeat.writeHeader(FrameType.HEARTBEAT, HeartbeatFlyweight.HEARTBEAT_LENGTH, SESSION, TOPIC, -1);
        heartbeat.oldestSequence(0);
        assertThat(check(HeartbeatFlyweight.HEARTBEAT_LENGTH)).as("heartbeat before any data")
            .isEqualTo(DatagramCheck.VALID);

        final int nakLength = NakFlyweight.lengthFor(2);
        final NakFlyweight nak = new NakFlyweight();
        nak.wrap(buffer, OFFSET);
        nak.writeHeader(FrameType.NAK, nakLength, SESSION, TOPIC, 0);
        nak.rangeCount(2).range(0, 3, 5).range(1, 9, 9);
        assertThat(check(nakLength)).isEqualTo(DatagramCheck.VALID);

        final UnrecoverableFlyweight unrecoverable = unrecoverable();
        unrecoverable.lostRange(3, 5, 17);
        assertThat(check(UnrecoverableFlyweight.UNRECOVERABLE_LENGTH)).isEqualTo(DatagramCheck.VALID);

        final StatusFlyweight status = new StatusFlyweight();
        status.wrap(buffer, OFFSET);
        status.writeHeader(FrameType.STATUS, StatusFlyweight.STATUS_LENGTH, SESSION, TOPIC, 12);
        assertThat(check(StatusFlyweight.STATUS_LENGTH)).isEqualTo(DatagramCheck.VALID);
    }

    @Test
    void aPublishersTypeBelongsOnTheDataPortAReceiversOnTheControlPortAndNothingElseAnywhere() {
        final int dataLength = data();
        assertThat(DatagramValidator.check(buffer, OFFSET, dataLength, FrameType.Port.DATA))
            .isEqualTo(DatagramCheck.VALID);
        assertThat(DatagramValidator.check(buffer, OFFSET, dataLength, FrameType.Port.CONTROL))
            .isEqualTo(DatagramCheck.WRONG_PORT);

        final StatusFlyweight status = new StatusFlyweight();
        status.wrap(buffer, OFFSET);
        status.writeHeader(FrameType.STATUS, StatusFlyweight.STATUS_LENGTH, SESSION, TOPIC, 12);
        assertThat(DatagramValidator.check(buffer, OFFSET, StatusFlyweight.STATUS_LENGTH, FrameType.Port.CONTROL))
            .isEqualTo(DatagramCheck.VALID);
        assertThat(DatagramValidator.check(buffer, OFFSET, StatusFlyweight.STATUS_LENGTH, FrameType.Port.DATA))
            .isEqualTo(DatagramCheck.WRONG_PORT);
        assertThat(DatagramValidator.check(buffer, OFFSET, 3, FrameType.Port.DATA))
            .as("what fails the checks says why, whatever the port").isEqualTo(DatagramCheck.TOO_SHORT);

        for (FrameType type : FrameType.values()) {
            final boolean publishers = type != FrameType.NAK && type != FrameType.STATUS;
            assertThat(FrameType.belongsOn(FrameType.Port.DATA, type.code())).as("%s", type).isEqualTo(publishers);
            assertThat(FrameType.belongsOn(FrameType.Port.CONTROL, type.code())).as("%s", type)
                .isNotEqualTo(publishers);
        }
        assertThat(FrameType.belongsOn(FrameType.Port.DATA, 0)).as("an unknown type belongs nowhere").isFalse();
        assertThat(FrameType.belongsOn(FrameType.Port.CONTROL, 99)).isFalse();
    }

    @Test
    void theCommonHeaderIsCheckedFieldByField() {
        final int length = data();
        assertThat(check(HeaderFlyweight.HEADER_LENGTH - 1)).isEqualTo(DatagramCheck.TOO_SHORT);
        assertThat(check(length - 1)).as("length field disagrees").isEqualTo(DatagramCheck.LENGTH_MISMATCH);

        assertThat(checkWithByte(HeaderFlyweight.MAGIC_OFFSET, 0x00, length)).isEqualTo(DatagramCheck.BAD_MAGIC);
        assertThat(checkWithByte(HeaderFlyweight.VERSION_OFFSET, HeaderFlyweight.CURRENT_VERSION - 1, length))
            .isEqualTo(DatagramCheck.UNSUPPORTED_VERSION);
        assertThat(checkWithByte(HeaderFlyweight.VERSION_OFFSET, HeaderFlyweight.CURRENT_VERSION + 1, length))
            .isEqualTo(DatagramCheck.UNSUPPORTED_VERSION);
        assertThat(checkWithByte(HeaderFlyweight.TYPE_OFFSET, 0x7F, length)).isEqualTo(DatagramCheck.UNKNOWN_TYPE);
        assertThat(checkWithByte(HeaderFlyweight.FLAGS_OFFSET + 1, 1, length)).isEqualTo(DatagramCheck.BAD_FLAGS);

        buffer.putInt(OFFSET + HeaderFlyweight.TOPIC_ID_OFFSET, 0, BYTE_ORDER);
        assertThat(check(length)).as("topic 0").isEqualTo(DatagramCheck.BAD_TOPIC);
        buffer.putInt(OFFSET + HeaderFlyweight.TOPIC_ID_OFFSET, -TOPIC, BYTE_ORDER);
        assertThat(check(length)).as("negative topic").isEqualTo(DatagramCheck.BAD_TOPIC);
    }

    @Test
    void dataAndRetransmitCarryTheirSessionsAgeClassAndStatusWantedInTheFlagsAHeartbeatOnlyTheEndOfItsStream() {
        final int length = data();
        assertThat(checkWithByte(HeaderFlyweight.FLAGS_OFFSET, HeaderFlyweight.AGE_CLASS_MASK, length))
            .as("DATA, the largest age class").isEqualTo(DatagramCheck.VALID);
        assertThat(checkWithByte(HeaderFlyweight.FLAGS_OFFSET,
            HeaderFlyweight.AGE_CLASS_MASK | HeaderFlyweight.STATUS_WANTED_FLAG, length))
            .as("DATA, the largest age class, a STATUS wanted").isEqualTo(DatagramCheck.VALID);
        assertThat(checkWithByte(HeaderFlyweight.FLAGS_OFFSET, HeaderFlyweight.STATUS_WANTED_FLAG << 1, length))
            .as("DATA, a bit past STATUS wanted").isEqualTo(DatagramCheck.BAD_FLAGS);

        final HeartbeatFlyweight heartbeat = new HeartbeatFlyweight();
        heartbeat.wrap(buffer, OFFSET);
        heartbeat.writeHeader(FrameType.HEARTBEAT, HeartbeatFlyweight.HEARTBEAT_LENGTH, SESSION, TOPIC, 4);
        heartbeat.oldestSequence(0).publisherId(7).sessionAgeNs(1_000);
        assertThat(check(HeartbeatFlyweight.HEARTBEAT_LENGTH)).isEqualTo(DatagramCheck.VALID);
        assertThat(checkWithByte(HeaderFlyweight.FLAGS_OFFSET, HeaderFlyweight.END_OF_STREAM_FLAG,
            HeartbeatFlyweight.HEARTBEAT_LENGTH)).as("HEARTBEAT at the end of its stream")
            .isEqualTo(DatagramCheck.VALID);
        assertThat(checkWithByte(HeaderFlyweight.FLAGS_OFFSET, 2, HeartbeatFlyweight.HEARTBEAT_LENGTH))
            .as("HEARTBEAT with an age class").isEqualTo(DatagramCheck.BAD_FLAGS);
        assertThat(checkWithByte(HeaderFlyweight.FLAGS_OFFSET, HeaderFlyweight.STATUS_WANTED_FLAG,
            HeartbeatFlyweight.HEARTBEAT_LENGTH)).as("HEARTBEAT wanting a STATUS").isEqualTo(DatagramCheck.BAD_FLAGS);
        heartbeat.sessionAgeNs(-1);
        assertThat(check(HeartbeatFlyweight.HEARTBEAT_LENGTH)).as("a negative session age")
            .isEqualTo(DatagramCheck.BAD_SEQUENCE);
    }

    @Test
    void theAgeClassBracketsTheSessionsAgeWithinAFactorOfTwo() {
        for (long ageNs : new long[] {0, 1, 1_023, 1_024, 5_000, 1_000_000_000L, 86_400_000_000_000L, Long.MAX_VALUE}) {
            final int ageClass = DataFlyweight.ageClassOf(ageNs);
            assertThat(ageClass).isBetween(0, HeaderFlyweight.AGE_CLASS_MASK);
            assertThat(DataFlyweight.minAgeNs(ageClass)).as("age %d", ageNs).isLessThanOrEqualTo(ageNs);
            assertThat(DataFlyweight.maxAgeNs(ageClass)).as("age %d", ageNs)
                .isGreaterThan(Math.min(ageNs, Long.MAX_VALUE - 1));
        }
    }

    private DatagramCheck checkWithByte(int fieldOffset, int value, int length) {
        final byte before = buffer.getByte(OFFSET + fieldOffset);
        buffer.putByte(OFFSET + fieldOffset, (byte) value);
        final DatagramCheck check = check(length);
        buffer.putByte(OFFSET + fieldOffset, before);
        return check;
    }

    @Test
    void dataNeedsANonNegativeSequenceAndCount() {
        final int length = data();
        buffer.putLong(OFFSET + HeaderFlyweight.SEQUENCE_OFFSET, -1, BYTE_ORDER);
        assertThat(check(length)).isEqualTo(DatagramCheck.BAD_SEQUENCE);

        data();
        buffer.putLong(OFFSET + DataFlyweight.COMPLETED_MESSAGES_OFFSET, -5, BYTE_ORDER);
        assertThat(check(length)).isEqualTo(DatagramCheck.BAD_SEQUENCE);
    }

    @Test
    void framesMustTileThePayloadExactly() {
        final int length = data();
        final int first = OFFSET + DataFlyweight.DATA_HEADER_LENGTH;
        final int second = first + MessageFrame.FRAME_HEADER_LENGTH + 5;

        MessageFrame.write(buffer, second, 4, MessageFrame.UNFRAGMENTED);
        assertThat(check(length)).as("last frame runs past the end").isEqualTo(DatagramCheck.BAD_FRAMES);

        data();
        MessageFrame.write(buffer, second, 2, MessageFrame.UNFRAGMENTED);
        assertThat(check(length)).as("a stray byte after the last frame").isEqualTo(DatagramCheck.BAD_FRAMES);

        data();
        MessageFrame.write(buffer, first, 5, MessageFrame.BEGIN | 0x01);
        assertThat(check(length)).as("unknown frame flag").isEqualTo(DatagramCheck.BAD_FRAMES);

        data();
        buffer.putByte(first + 3, (byte) 1);
        assertThat(check(length)).as("reserved byte").isEqualTo(DatagramCheck.BAD_FRAMES);

        data();
        MessageFrame.write(buffer, second, 3, MessageFrame.END);
        assertThat(check(length)).as("only the first frame may continue a message")
            .isEqualTo(DatagramCheck.BAD_FRAMES);

        data();
        MessageFrame.write(buffer, first, 5, MessageFrame.BEGIN);
        assertThat(check(length)).as("only the last frame may leave its message unfinished")
            .isEqualTo(DatagramCheck.BAD_FRAMES);

        data();
        MessageFrame.write(buffer, first, 5, MessageFrame.END);
        MessageFrame.write(buffer, second, 3, MessageFrame.BEGIN);
        assertThat(check(length)).as("a continued first frame and an unfinished last one")
            .isEqualTo(DatagramCheck.VALID);

        final int headerOnly = DataFlyweight.DATA_HEADER_LENGTH;
        new DataFlyweight().wrap(buffer, OFFSET).writeHeader(FrameType.DATA, headerOnly, SESSION, TOPIC, 42);
        assertThat(check(headerOnly)).as("DATA without a frame").isEqualTo(DatagramCheck.LENGTH_MISMATCH);
    }

    @Test
    void aHeartbeatsOldestLiesWithinWhatWasSent() {
        final HeartbeatFlyweight heartbeat = new HeartbeatFlyweight();
        heartbeat.wrap(buffer, OFFSET);
        heartbeat.writeHeader(FrameType.HEARTBEAT, HeartbeatFlyweight.HEARTBEAT_LENGTH, SESSION, TOPIC, 10);
        heartbeat.oldestSequence(11);
        assertThat(check(HeartbeatFlyweight.HEARTBEAT_LENGTH)).as("history empty after 10")
            .isEqualTo(DatagramCheck.VALID);

        heartbeat.oldestSequence(12);
        assertThat(check(HeartbeatFlyweight.HEARTBEAT_LENGTH)).isEqualTo(DatagramCheck.BAD_SEQUENCE);
        heartbeat.oldestSequence(-1);
        assertThat(check(HeartbeatFlyweight.HEARTBEAT_LENGTH)).isEqualTo(DatagramCheck.BAD_SEQUENCE);
        heartbeat.sequence(-2);
        heartbeat.oldestSequence(0);
        assertThat(check(HeartbeatFlyweight.HEARTBEAT_LENGTH)).isEqualTo(DatagramCheck.BAD_SEQUENCE);
    }

    @Test
    void aNaksRangesAreOrderedDisjointAndCountedRight() {
        final int length = NakFlyweight.lengthFor(2);
        final NakFlyweight nak = new NakFlyweight();
        nak.wrap(buffer, OFFSET);
        nak.writeHeader(FrameType.NAK, length, SESSION, TOPIC, 0);

        nak.rangeCount(2).range(0, 3, 5).range(1, 5, 9);
        assertThat(check(length)).as("overlapping ranges").isEqualTo(DatagramCheck.BAD_SEQUENCE);
        nak.range(0, 3, 5).range(1, 9, 8);
        assertThat(check(length)).as("a range ending before it starts").isEqualTo(DatagramCheck.BAD_SEQUENCE);
        nak.rangeCount(3).range(1, 9, 9);
        assertThat(check(length)).as("count says three, length holds two")
            .isEqualTo(DatagramCheck.LENGTH_MISMATCH);
        nak.rangeCount(0);
        assertThat(check(length)).as("no range").isEqualTo(DatagramCheck.LENGTH_MISMATCH);
        assertThat(check(HeaderFlyweight.HEADER_LENGTH)).isEqualTo(DatagramCheck.LENGTH_MISMATCH);
    }

    @Test
    void aNakAsksForAtMostTheMostDatagramsOneNakMayAskFor() {
        final int most = NakFlyweight.MAX_DATAGRAMS_ASKED;
        final int length = NakFlyweight.lengthFor(2);
        final NakFlyweight nak = new NakFlyweight();
        nak.wrap(buffer, OFFSET);
        nak.writeHeader(FrameType.NAK, length, SESSION, TOPIC, 0);

        nak.rangeCount(2).range(0, 100, 109).range(1, 200, 200 + most - 11);
        assertThat(check(length)).as("exactly the most, in two ranges").isEqualTo(DatagramCheck.VALID);
        nak.range(1, 200, 200 + most - 10);
        assertThat(check(length)).as("one more").isEqualTo(DatagramCheck.NAK_TOO_WIDE);
        nak.range(0, 0, 0).range(1, 1L << 20, Long.MAX_VALUE);
        assertThat(check(length)).as("a span past a long").isEqualTo(DatagramCheck.NAK_TOO_WIDE);
        nak.writeHeader(FrameType.NAK, NakFlyweight.lengthFor(1), SESSION, TOPIC, 0);
        nak.rangeCount(1).range(0, 0, Long.MAX_VALUE);
        assertThat(check(NakFlyweight.lengthFor(1))).as("the whole sequence space")
            .isEqualTo(DatagramCheck.NAK_TOO_WIDE);
    }

    @Test
    void anUnrecoverableRangeIsOrderedAndNonNegative() {
        final UnrecoverableFlyweight unrecoverable = unrecoverable();

        unrecoverable.lostRange(5, 3, 17);
        assertThat(check(UnrecoverableFlyweight.UNRECOVERABLE_LENGTH)).isEqualTo(DatagramCheck.BAD_SEQUENCE);
        unrecoverable.lostRange(-1, 3, 17);
        assertThat(check(UnrecoverableFlyweight.UNRECOVERABLE_LENGTH)).isEqualTo(DatagramCheck.BAD_SEQUENCE);
        unrecoverable.lostRange(3, 5, -1);
        assertThat(check(UnrecoverableFlyweight.UNRECOVERABLE_LENGTH)).isEqualTo(DatagramCheck.BAD_SEQUENCE);
    }

    @Test
    void aStatusHasItsFixedLengthAndANonNegativePosition() {
        final StatusFlyweight status = new StatusFlyweight();
        status.wrap(buffer, OFFSET);
        status.writeHeader(FrameType.STATUS, StatusFlyweight.STATUS_LENGTH + 8, SESSION, TOPIC, 12);
        assertThat(check(StatusFlyweight.STATUS_LENGTH + 8)).isEqualTo(DatagramCheck.LENGTH_MISMATCH);

        status.writeHeader(FrameType.STATUS, StatusFlyweight.STATUS_LENGTH, SESSION, TOPIC, -1);
        assertThat(check(StatusFlyweight.STATUS_LENGTH)).isEqualTo(DatagramCheck.BAD_SEQUENCE);
    }
}
