package org.nakcast.codecs.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.management.ManagementFactory;
import java.nio.ByteOrder;

import org.agrona.MutableDirectBuffer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.nakcast.codecs.Codec;
import org.nakcast.codecs.CodecException;
import org.nakcast.codecs.CodecNames;
import org.nakcast.codecs.CodecRegistry;
import org.nakcast.codecs.CorruptMessageException;
import org.nakcast.codecs.FlyweightCodec;
import org.nakcast.codecs.InvalidMessageException;
import org.nakcast.codecs.MessageTooLargeException;
import org.nakcast.codecs.sample.PriceUpdate;
import org.nakcast.codecs.sample.SampleMessages;
import org.nakcast.codecs.sample.sbe.PriceUpdateDecoder;
import org.nakcast.codecs.sample.sbe.PriceUpdateEncoder;
import org.nakcast.codecs.sbe.SbeCodec;

/**
 * The codec contract for {@value CodecRegistry#FLYWEIGHT}, plus its zero-copy path: header checks
 * and no allocation in steady state.
 */
final class FlyweightCodecContractTest extends CodecContractTest {
    /** Header 8 + instrument (8 + 8) + qty 4 + price 8, as the schema fixes it. */
    private static final int PRICE_UPDATE_LENGTH = 36;
    private static final int WARM_UP = 200_000;
    private static final int MEASURED = 100_000;
    private static final int BLOCK_LENGTH = 0;
    private static final int TEMPLATE_ID = 2;
    private static final int SCHEMA_ID = 4;
    private static final int VERSION = 6;

    private FlyweightCodec<PriceUpdate, PriceUpdateEncoder, PriceUpdateDecoder> flyweights;
    private final MutableDirectBuffer datagram = guardedBuffer();
    private final byte[] mnemonic = new byte[8];
    private long checksum;

    @Override
    protected String codecName() {
        return CodecNames.FLYWEIGHT;
    }

    @Override
    protected boolean writesFieldsOfAnyClass() {
        return false;
    }

    @BeforeAll
    @SuppressWarnings("unchecked")
    void viewThePriceCodecAsFlyweights() {
        flyweights = (FlyweightCodec<PriceUpdate, PriceUpdateEncoder, PriceUpdateDecoder>) (Codec<?>) prices;
    }

    @Test
    void writesAndReadsFieldsInPlace() {
        flyweights.encoder(datagram, OFFSET, 64).qty(7).price(99.5).instrument().instrumentId(42).mnemonic("EURUSD");
        final int length = flyweights.encodedLength();
        assertThat(length).isEqualTo(PRICE_UPDATE_LENGTH);

        final PriceUpdateDecoder decoder = flyweights.decoder(datagram, OFFSET, length);
        assertThat(decoder.qty()).isEqualTo(7);
        assertThat(decoder.price()).isEqualTo(99.5);
        assertThat(decoder.instrument().instrumentId()).isEqualTo(42);
        assertThat(decoder.instrument().mnemonic()).isEqualTo("EURUSD");
        assertThat(flyweights.decode(datagram, OFFSET, length).qty()).isEqualTo(7);
    }

    @Test
    void carriesWhatItsHeaderNamesOnly() {
        flyweights.encoder(datagram, OFFSET, 64).qty(7);
        final int length = flyweights.encodedLength();

        assertThat(flyweights.carries(datagram, OFFSET, length)).isTrue();
        assertThat(flyweights.carries(datagram, OFFSET,
            SbeCodec.HEADER_LENGTH - 1)).as("no room for a header").isFalse();
        datagram.putShort(OFFSET + TEMPLATE_ID, (short) 2, ByteOrder.LITTLE_ENDIAN);
        assertThat(flyweights.carries(datagram, OFFSET, length)).as("another template").isFalse();
        datagram.putShort(OFFSET + TEMPLATE_ID, (short) 1, ByteOrder.LITTLE_ENDIAN);
        datagram.putShort(OFFSET + SCHEMA_ID, (short) 902, ByteOrder.LITTLE_ENDIAN);
        assertThat(flyweights.carries(datagram, OFFSET, length)).as("another schema").isFalse();
    }

    @Test
    void refusesAClaimTooSmallForTheFixedBlock() {
        assertThatThrownBy(() -> flyweights.encoder(datagram, OFFSET, PRICE_UPDATE_LENGTH - 1))
            .isInstanceOf(MessageTooLargeException.class);
    }

    @Test
    void refusesAValueLargerThanItsField() {
        final PriceUpdate update = SampleMessages.samplePriceUpdate();
        update.instrument().mnemonic("NINECHARS");
        assertThatThrownBy(() -> prices.encode(update, datagram, OFFSET, 64))
            .isInstanceOf(InvalidMessageException.class)
            .hasMessageContaining(PriceUpdate.class.getName());
    }

    @Test
    void checksTheHeaderFields() {
        final int length = prices.encode(SampleMessages.samplePriceUpdate(codecName()), datagram, OFFSET, 64);
        for (final int field : new int[] {BLOCK_LENGTH, TEMPLATE_ID, SCHEMA_ID}) {
            final short original = datagram.getShort(OFFSET + field);
            datagram.putShort(OFFSET + field, (short) (original + 1));
            assertThatThrownBy(() -> flyweights.decoder(datagram, OFFSET, length))
                .as("header field at %d", field)
                .isInstanceOf(CodecException.class);
            datagram.putShort(OFFSET + field, original);
        }
    }

    @Test
    void refusesANewerVersionWithAShorterBlock() {
        final int length = prices.encode(SampleMessages.samplePriceUpdate(codecName()), datagram, OFFSET, 64);
        datagram.putShort(OFFSET + VERSION, (short) (PriceUpdateDecoder.SCHEMA_VERSION + 1));
        datagram.putShort(OFFSET + BLOCK_LENGTH, (short) (PriceUpdateDecoder.BLOCK_LENGTH - 1));
        assertThatThrownBy(() -> flyweights.decoder(datagram, OFFSET, length))
            .isInstanceOf(CorruptMessageException.class)
            .hasMessageContaining("block length");
    }

    @Test
    void acceptsANewerVersionWithALongerBlock() {
        prices.encode(SampleMessages.samplePriceUpdate(codecName()), datagram, OFFSET, 64);
        datagram.putShort(OFFSET + VERSION, (short) (PriceUpdateDecoder.SCHEMA_VERSION + 1));
        datagram.putShort(OFFSET + BLOCK_LENGTH, (short) (PriceUpdateDecoder.BLOCK_LENGTH + 4));
        final int newerLength = PRICE_UPDATE_LENGTH + 4;
        assertThat(flyweights.decode(datagram, OFFSET, newerLength)).isEqualTo(SampleMessages.samplePriceUpdate());
    }

    @Test
    void allocatesNothingOnTheZeroCopyPathInSteadyState() {
        for (int i = 0; i < WARM_UP; i++) {
            zeroCopyRoundTrip(i);
        }
        final long allocated = allocatedBytes(MEASURED, this::zeroCopyRoundTrip);
        assertThat(allocated).as("bytes allocated by %d zero-copy round trips", MEASURED).isZero();
        assertThat(checksum).isNotZero();
    }

    @Test
    void allocatesNothingEncodingObjectsInSteadyState() {
        final PriceUpdate update = SampleMessages.samplePriceUpdate();
        final IntConsumer encode = i -> checksum += prices.encode(update.qty(i), datagram, OFFSET, 64);
        for (int i = 0; i < WARM_UP; i++) {
            encode.accept(i);
        }
        assertThat(allocatedBytes(MEASURED, encode)).isZero();
    }

    private void zeroCopyRoundTrip(int i) {
        flyweights.encoder(datagram, OFFSET, 64).qty(i).price(i * 0.25).instrument().instrumentId(i).mnemonic("EURUSD");
        final PriceUpdateDecoder decoder = flyweights.decoder(datagram, OFFSET, flyweights.encodedLength());
        decoder.instrument().getMnemonic(mnemonic, 0);
        checksum += decoder.qty() + (long) decoder.price() + decoder.instrument().instrumentId() + mnemonic[0];
    }

    /**
     * Bytes this thread allocated while running an action, less what measuring itself costs.
     */
    private static long allocatedBytes(int times, IntConsumer action) {
        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        final long emptyStart = threads.getCurrentThreadAllocatedBytes();
        final long emptyEnd = threads.getCurrentThreadAllocatedBytes();
        final long start = threads.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < times; i++) {
            action.accept(i);
        }
        final long end = threads.getCurrentThreadAllocatedBytes();
        return (end - start) - (emptyEnd - emptyStart);
    }

    /**
     * An int consumer without boxing.
     */
    @FunctionalInterface
    private interface IntConsumer {
        void accept(int value);
    }
}
