package org.nakcast.codecs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.ArrayList;
import java.util.List;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.From;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.Size;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.nakcast.codecs.sample.Instrument;
import org.nakcast.codecs.sample.OrderLeg;
import org.nakcast.codecs.sample.PriceUpdateRecord;
import org.nakcast.codecs.sample.InstrumentRecord;
import org.nakcast.codecs.sample.SampleMessages;
import org.nakcast.codecs.sample.Side;

/**
 * The contract every codec passes (one small subclass per codec names it): round trips of the
 * samples, of random values and of records, boundary values, exact fits, messages too large,
 * truncated and corrupt input, classes the codec does not carry. The zero-copy path's allocation
 * test lives in {@link FlyweightCodecContractTest}.
 */
abstract class CodecContractTest {
    /** Where messages are written in the test buffers: not at 0, to catch offset mistakes. */
    static final int OFFSET = 13;
    static final int CAPACITY = 64 * 1024;
    static final byte GUARD = (byte) 0x5A;

    final CodecRegistry registry = CodecRegistry.create();
    final Codec<Object> prices = untyped(registry.create(SampleMessages.priceUpdateSpec(codecName())));
    final Codec<Object> orders = untyped(registry.create(SampleMessages.orderSpec(codecName())));

    /**
     * @return the name of the codec under test
     */
    abstract String codecName();

    /**
     * @return whether the codec carries records (Externalizable cannot: Java serializes records by
     *     their components only)
     */
    boolean carriesRecords() {
        return true;
    }

    @Test
    void roundTripsTheSamplePriceUpdate() {
        assertRoundTrip(prices, SampleMessages.samplePriceUpdate(codecName()));
    }

    @Test
    void roundTripsTheSampleOrder() {
        assertRoundTrip(orders, SampleMessages.sampleOrder(codecName()));
    }

    @Test
    void roundTripsAnOrderWithoutLegs() {
        assertRoundTrip(orders, SampleMessages.order(codecName(), 1, 2, List.of()));
    }

    @Test
    void roundTripsRecords() {
        assumeTrue(carriesRecords(), codecName() + " cannot carry records: Java never serializes a record"
            + " as Externalizable");
        final Codec<PriceUpdateRecord> records = registry.create(SampleMessages.priceUpdateRecordSpec(codecName()));
        assertRoundTrip(records, new PriceUpdateRecord(new InstrumentRecord(42, "EURUSD"), 1_000_000, 1.0825));
        assertRoundTrip(records, new PriceUpdateRecord(new InstrumentRecord(Long.MIN_VALUE, ""), -1, Double.NaN));
    }

    @Test
    void roundTripsBoundaryValues() {
        final long[] ids = {Long.MIN_VALUE, -1, 0, Long.MAX_VALUE};
        final int[] quantities = {Integer.MIN_VALUE, 0, Integer.MAX_VALUE};
        final double[] prices = {Double.NaN, Double.NEGATIVE_INFINITY, -0.0, Double.MIN_VALUE, Double.MAX_VALUE};
        final String[] mnemonics = {"", "A", "ABCDEFGH", "~!@#$%^&"};
        for (int i = 0; i < ids.length * quantities.length * prices.length; i++) {
            final Instrument instrument = new Instrument(ids[i % ids.length], mnemonics[i % mnemonics.length]);
            final int qty = quantities[i / ids.length % quantities.length];
            final double price = prices[i / (ids.length * quantities.length) % prices.length];
            assertRoundTrip(this.prices, SampleMessages.priceUpdate(codecName(), instrument, qty, price));
        }
    }

    @Property(tries = 200)
    void roundTripsRandomPriceUpdates(@ForAll long instrumentId, @ForAll("mnemonics") String mnemonic,
        @ForAll int qty, @ForAll double price) {
        assertRoundTrip(prices, SampleMessages.priceUpdate(codecName(), new Instrument(instrumentId, mnemonic),
            qty, price));
    }

    @Property(tries = 100)
    void roundTripsRandomOrders(@ForAll long orderId, @ForAll long timestampNanos,
        @ForAll @Size(max = 60) List<@From("legs") OrderLeg> legs) {
        assertRoundTrip(orders, SampleMessages.order(codecName(), orderId, timestampNanos, legs));
    }

    @Test
    void writesExactlyUpToTheEndOfTheBuffer() {
        final Object order = SampleMessages.sampleOrder(codecName());
        final int length = encodedLength(orders, order);
        final MutableDirectBuffer exact = new UnsafeBuffer(new byte[OFFSET + length]);
        exact.setMemory(0, OFFSET, GUARD);

        assertThat(orders.encode(order, exact, OFFSET, length)).isEqualTo(length);
        assertThat(orders.decode(exact, OFFSET, length)).isEqualTo(order);
        assertGuarded(exact, 0, OFFSET);
    }

    @Test
    void refusesAMessageLargerThanTheSpaceWithoutWritingPastIt() {
        final Object order = SampleMessages.sampleOrder(codecName());
        final int length = encodedLength(orders, order);
        for (final int maxLength : new int[] {0, 1, length / 2, length - 1}) {
            final MutableDirectBuffer buffer = guardedBuffer();
            assertThatThrownBy(() -> orders.encode(order, buffer, OFFSET, maxLength))
                .isInstanceOf(MessageTooLargeException.class)
                .hasMessageContaining(order.getClass().getName());
            assertGuarded(buffer, 0, OFFSET);
            assertGuarded(buffer, OFFSET + maxLength, CAPACITY - OFFSET - maxLength);
        }
    }

    @Test
    void rejectsEveryTruncationOfAMessage() {
        final MutableDirectBuffer buffer = guardedBuffer();
        final int length = orders.encode(SampleMessages.sampleOrder(codecName()), buffer, OFFSET, CAPACITY - OFFSET);
        for (int truncated = 0; truncated < length; truncated++) {
            final int shorter = truncated;
            assertThatThrownBy(() -> orders.decode(buffer, OFFSET, shorter))
                .as("decoding %d of %d bytes", shorter, length)
                .isInstanceOf(CorruptMessageException.class);
        }
    }

    @Property(tries = 300)
    void decodesCorruptBytesToAMessageOrATypedError(@ForAll("flips") List<Integer> flips) {
        final MutableDirectBuffer buffer = guardedBuffer();
        final int length = orders.encode(SampleMessages.sampleOrder(codecName()), buffer, OFFSET, CAPACITY - OFFSET);
        for (int i = 0; i + 1 < flips.size(); i += 2) {
            final int at = OFFSET + Math.floorMod(flips.get(i), length);
            buffer.putByte(at, (byte) (buffer.getByte(at) ^ flips.get(i + 1)));
        }
        assertMessageOrTypedError(buffer, length);
    }

    @Property(tries = 300)
    void decodesArbitraryBytesToAMessageOrATypedError(@ForAll @Size(max = 300) byte[] bytes) {
        final MutableDirectBuffer buffer = guardedBuffer();
        buffer.putBytes(OFFSET, bytes);
        assertMessageOrTypedError(buffer, bytes.length);
    }

    @Test
    void refusesToEncodeAClassItDoesNotCarry() {
        final Object order = SampleMessages.sampleOrder(codecName());
        assertThatThrownBy(() -> prices.encode(order, guardedBuffer(), OFFSET, CAPACITY - OFFSET))
            .isInstanceOf(UnknownClassException.class)
            .hasMessageContaining(order.getClass().getName());
    }

    @Test
    void refusesToDecodeAClassItDoesNotCarry() {
        final Class<?> priceClass = prices.messageClass();
        final Class<Object> orderClass = orders.messageClass();
        final Codec<Object> wider = registry.create(CodecSpec.of(codecName(), orderClass, priceClass,
            Instrument.class, orderClass, OrderLeg.class, Side.class, ArrayList.class));
        final MutableDirectBuffer buffer = guardedBuffer();
        final int length = wider.encode(SampleMessages.sampleOrder(codecName()), buffer, OFFSET, CAPACITY - OFFSET);

        assertThatThrownBy(() -> prices.decode(buffer, OFFSET, length))
            .isInstanceOf(UnknownClassException.class)
            .satisfies(thrown -> assertThat(((UnknownClassException) thrown).className()).isNotBlank());
    }

    @Provide
    Arbitrary<String> mnemonics() {
        return Arbitraries.strings().withCharRange((char) 1, (char) 127).ofMaxLength(Instrument.MNEMONIC_LENGTH);
    }

    @Provide
    Arbitrary<OrderLeg> legs() {
        final Arbitrary<Instrument> instruments = Combinators.combine(Arbitraries.longs(), mnemonics())
            .as(Instrument::new);
        return Combinators.combine(instruments, Arbitraries.of(Side.class), Arbitraries.integers(),
            Arbitraries.doubles()).as(OrderLeg::new);
    }

    @Provide
    Arbitrary<List<Integer>> flips() {
        return Arbitraries.integers().between(1, 255).list().ofMinSize(2).ofMaxSize(8);
    }

    <T> void assertRoundTrip(Codec<T> codec, T message) {
        final MutableDirectBuffer buffer = guardedBuffer();
        final int length = codec.encode(message, buffer, OFFSET, CAPACITY - OFFSET);
        assertThat(length).isPositive();
        assertGuarded(buffer, 0, OFFSET);
        assertGuarded(buffer, OFFSET + length, CAPACITY - OFFSET - length);
        assertThat(codec.decode(buffer, OFFSET, length)).isEqualTo(message);
    }

    void assertMessageOrTypedError(MutableDirectBuffer buffer, int length) {
        final Throwable thrown = catchThrowable(() -> assertThat(orders.decode(buffer, OFFSET, length))
            .isInstanceOf(orders.messageClass()));
        if (thrown != null) {
            assertThat(thrown).isInstanceOf(CodecException.class);
        }
    }

    @SuppressWarnings("unchecked")
    static Codec<Object> untyped(Codec<?> codec) {
        return (Codec<Object>) codec;
    }

    static <T> int encodedLength(Codec<T> codec, T message) {
        return codec.encode(message, guardedBuffer(), OFFSET, CAPACITY - OFFSET);
    }

    static MutableDirectBuffer guardedBuffer() {
        final MutableDirectBuffer buffer = new UnsafeBuffer(new byte[CAPACITY]);
        buffer.setMemory(0, CAPACITY, GUARD);
        return buffer;
    }

    static void assertGuarded(MutableDirectBuffer buffer, int from, int length) {
        for (int i = from; i < from + length; i++) {
            assertThat(buffer.getByte(i)).as("guard byte at %d", i).isEqualTo(GUARD);
        }
    }
}
