package org.nakcast.codecs.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Supplier;
import java.util.stream.IntStream;

import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.nakcast.codecs.Codec;
import org.nakcast.codecs.CodecConfigurationException;
import org.nakcast.codecs.CodecException;
import org.nakcast.codecs.CodecRegistry;
import org.nakcast.codecs.CodecSpec;
import org.nakcast.codecs.CorruptMessageException;
import org.nakcast.codecs.MessageTooLargeException;
import org.nakcast.codecs.UnknownClassException;
import org.nakcast.codecs.sample.Instrument;
import org.nakcast.codecs.sample.InstrumentRecord;
import org.nakcast.codecs.sample.OrderLeg;
import org.nakcast.codecs.sample.PriceUpdate;
import org.nakcast.codecs.sample.PriceUpdateRecord;
import org.nakcast.codecs.sample.SampleMessages;
import org.nakcast.codecs.sample.Side;

/**
 * The contract every codec passes (one small subclass per codec names it): round trips of the
 * samples, of random values and of records, boundary values, exact fits, messages too large,
 * truncated and corrupt input, classes the codec does not carry, on write too. The zero-copy
 * path's allocation test lives in {@link FlyweightCodecContractTest}.
 *
 * <p>It lives in the test-jar of {@code nakcast-codecs-samples}, beside the messages it runs on:
 * the subclasses for the codecs of {@code nakcast-codecs-core} run in that module, those for FST
 * and Kryo in theirs, each module's tests with only the JVM flags its codecs need.
 *
 * <p>The randomized properties run {@value #CASES} cases each, numbered from 1 like JUnit's
 * invocations ({@code [n]} in a report), every case drawing its values from the property's fixed
 * seed and its number (see {@link Draw}): a failing case is rerun by its number alone.
 *
 * <p>One instance per codec serves every test: the codecs under test are built once (an FST
 * configuration takes milliseconds, which each of the randomized cases would pay again) and then
 * encode and decode everything, as an application's codec does, corrupt input included.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class CodecContractTest {
    /** Where messages are written in the test buffers: not at 0, to catch offset mistakes. */
    static final int OFFSET = 13;
    static final int CAPACITY = 64 * 1024;
    static final byte GUARD = (byte) 0x5A;
    /** Cases per randomized property. */
    static final int CASES = 300;
    static final int MAX_LEGS = 60;
    static final int MAX_RANDOM_BYTES = 300;
    static final int MAX_FLIPS = 4;

    final CodecRegistry registry = CodecRegistry.create();
    Codec<Object> prices;
    Codec<Object> orders;

    /**
     * Makes the codecs under test, once the subclass can name them.
     */
    @BeforeAll
    void makeCodecs() {
        prices = untyped(registry.create(SampleMessages.priceUpdateSpec(codecName())));
        orders = untyped(registry.create(SampleMessages.orderSpec(codecName())));
    }

    /**
     * @return the name of the codec under test
     */
    protected abstract String codecName();

    /**
     * @return whether the codec carries records (Externalizable cannot: Java serializes records by
     *     their components only)
     */
    protected boolean carriesRecords() {
        return true;
    }

    /**
     * @return whether the codec writes a {@link java.io.Serializable} class field by field, so that
     *     a field may hold an object of a class off the topic's list (flyweights have no such
     *     fields; an Externalizable class writes itself)
     */
    protected boolean writesFieldsOfAnyClass() {
        return true;
    }

    /**
     * @return whether the codec numbers classes in the order of the spec's list (FST and Kryo): it
     *     refuses, when it is made, a spec that does not list its message class, a field of a closed
     *     class off the list, and collections and arrays it would size from a length read off the
     *     wire (the JDK codec writes class names, and its filter bounds lengths instead)
     */
    protected boolean numbersClasses() {
        return false;
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

    @ParameterizedTest(name = "case {0}")
    @MethodSource("cases")
    void roundTripsRandomPriceUpdates(int caseNumber) {
        final Draw draw = new Draw(0x5EED_0001_0000L, caseNumber);
        final Instrument instrument = new Instrument(draw.anyLong(), draw.mnemonic());
        assertRoundTrip(prices, SampleMessages.priceUpdate(codecName(), instrument, draw.anyInt(), draw.anyDouble()));
    }

    @ParameterizedTest(name = "case {0}")
    @MethodSource("cases")
    void roundTripsRandomOrders(int caseNumber) {
        final Draw draw = new Draw(0x5EED_0002_0000L, caseNumber);
        final long orderId = draw.anyLong();
        final long timestampNanos = draw.anyLong();
        final List<OrderLeg> legs = draw.list(0, MAX_LEGS, () -> new OrderLeg(new Instrument(draw.anyLong(),
            draw.mnemonic()), draw.oneOf(Side.values()), draw.anyInt(), draw.anyDouble()));
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

    @ParameterizedTest(name = "case {0}")
    @MethodSource("cases")
    void decodesCorruptBytesToAMessageOrATypedError(int caseNumber) {
        final Draw draw = new Draw(0x5EED_0003_0000L, caseNumber);
        final MutableDirectBuffer buffer = guardedBuffer();
        final int length = orders.encode(SampleMessages.sampleOrder(codecName()), buffer, OFFSET, CAPACITY - OFFSET);
        for (int flips = draw.between(1, MAX_FLIPS); flips > 0; flips--) {
            final int at = OFFSET + draw.between(0, length - 1);
            buffer.putByte(at, (byte) (buffer.getByte(at) ^ draw.between(1, 255)));
        }
        assertMessageOrTypedError(buffer, length);
    }

    @ParameterizedTest(name = "case {0}")
    @MethodSource("cases")
    void decodesArbitraryBytesToAMessageOrATypedError(int caseNumber) {
        final byte[] bytes = new Draw(0x5EED_0004_0000L, caseNumber).bytes(MAX_RANDOM_BYTES);
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

    @Test
    void refusesToWriteAClassOffItsList() {
        assumeTrue(writesFieldsOfAnyClass(), codecName() + " writes no field of an arbitrary class");
        final Codec<Holder> holders = registry.create(CodecSpec.of(codecName(), Holder.class, Holder.class));
        final Holder holder = new Holder();
        holder.payload = new Gadget();
        assertThatThrownBy(() -> holders.encode(holder, guardedBuffer(), OFFSET, CAPACITY - OFFSET))
            .isInstanceOf(UnknownClassException.class)
            .hasMessageContaining(Gadget.class.getName());
    }

    @Test
    void refusesContainersSizedFromTheWire() {
        assumeTrue(numbersClasses(), codecName() + " bounds containers as it reads them");
        assertThatThrownBy(() -> registry.create(CodecSpec.of(codecName(), WithMap.class, WithMap.class)))
            .isInstanceOf(CodecConfigurationException.class)
            .hasMessageContaining(WithMap.class.getName() + ".prices")
            .hasMessageContaining("java.util.HashMap");
        assertThatThrownBy(() -> registry.create(CodecSpec.of(codecName(), PriceUpdate.class, PriceUpdate.class,
            long[].class)))
            .isInstanceOf(CodecConfigurationException.class)
            .hasMessageContaining("array");
    }

    @Test
    void refusesAMessageClassOffTheListSoThatNoClassTakesTheNumberOfAnother() {
        assumeTrue(numbersClasses(), codecName() + " writes class names");
        final CodecSpec<?> orders = SampleMessages.orderSpec(codecName());
        final List<Class<?>> listed = orders.classes();

        assertThatThrownBy(() -> registry.create(new CodecSpec<>(codecName(), LookAlikeInstrument.class, listed)))
            .isInstanceOf(CodecConfigurationException.class)
            .hasMessageContaining(LookAlikeInstrument.class.getName())
            .hasMessageContaining(orders.messageClass().getName());
        assertThatThrownBy(() -> registry.create(CodecSpec.of(codecName(), Instrument.class)))
            .as("a spec with no list names no class either")
            .isInstanceOf(CodecConfigurationException.class)
            .hasMessageContaining("allowed-classes");
    }

    @Test
    void refusesAtOnceAFieldOfAClosedClassOffTheList() {
        assumeTrue(numbersClasses(), codecName() + " checks classes as it writes them");
        final List<Class<?>> withoutSide = SampleMessages.orderSpec(codecName()).classes().stream()
            .filter(type -> type != Side.class).toList();

        assertThatThrownBy(() -> registry.create(new CodecSpec<>(codecName(), withoutSide.get(0), withoutSide)))
            .isInstanceOf(CodecConfigurationException.class)
            .hasMessageContaining(OrderLeg.class.getName() + ".side")
            .hasMessageContaining(Side.class.getName())
            .hasMessageContaining("allowed-classes");
    }

    static IntStream cases() {
        return IntStream.rangeClosed(1, CASES);
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

    /**
     * A registered class whose field may hold something unregistered.
     */
    static final class Holder implements java.io.Serializable {
        private static final long serialVersionUID = 1L;

        java.io.Serializable payload;
    }

    /**
     * A class of the same shape as {@link Instrument} under another name: what a process that is
     * not allowed to offer instruments would offer instead.
     */
    static final class LookAlikeInstrument implements java.io.Serializable {
        private static final long serialVersionUID = 1L;

        long id;
        String symbol;
    }

    /**
     * A message with a map field, which FST and Kryo would size from the wire.
     */
    static final class WithMap implements java.io.Serializable {
        private static final long serialVersionUID = 1L;

        java.util.HashMap<String, Double> prices = new java.util.HashMap<>();
    }

    /**
     * The values of one randomized case, drawn from a {@link SplittableRandom} seeded with the
     * property's seed plus the case number. The first {@value #EDGE_CASES} cases draw edge values
     * only: the n-th draw of case c takes edge c + n of its kind, so every edge of every kind turns
     * up at every place a property draws one (the extreme numbers, NaN and the infinities, the empty
     * and the longest mnemonic, the shortest and the longest list). Later cases draw at random, over
     * every magnitude, and still take an edge one draw in {@value #EDGE_ODDS}.
     */
    static final class Draw {
        /** As many as the largest set of edges, so each place meets all of them. */
        static final int EDGE_CASES = 10;
        static final int EDGE_ODDS = 8;
        private static final long[] LONG_EDGES = {Long.MIN_VALUE, Long.MAX_VALUE, 0, -1, 1};
        private static final int[] INT_EDGES = {Integer.MIN_VALUE, Integer.MAX_VALUE, 0, -1, 1};
        private static final double[] DOUBLE_EDGES = {Double.NaN, Double.NEGATIVE_INFINITY,
            Double.POSITIVE_INFINITY, -0.0, 0.0, Double.MIN_VALUE, Double.MIN_NORMAL, -Double.MAX_VALUE,
            Double.MAX_VALUE, 1.0};
        private static final char FIRST_CHAR = 1;
        private static final char LAST_CHAR = 127;
        private static final String[] MNEMONIC_EDGES = {"", String.valueOf(FIRST_CHAR), String.valueOf(LAST_CHAR),
            String.valueOf(FIRST_CHAR).repeat(Instrument.MNEMONIC_LENGTH),
            String.valueOf(LAST_CHAR).repeat(Instrument.MNEMONIC_LENGTH)};

        private final SplittableRandom random;
        private final boolean edgesOnly;
        private final int caseNumber;
        private int draws;

        Draw(long seed, int caseNumber) {
            this.random = new SplittableRandom(seed + caseNumber);
            this.edgesOnly = caseNumber <= EDGE_CASES;
            this.caseNumber = caseNumber;
        }

        /** Any long, small or large. */
        long anyLong() {
            final int edge = edge(LONG_EDGES.length);
            return edge >= 0 ? LONG_EDGES[edge] : random.nextLong() >> random.nextInt(Long.SIZE);
        }

        /** Any int, small or large. */
        int anyInt() {
            final int edge = edge(INT_EDGES.length);
            return edge >= 0 ? INT_EDGES[edge] : random.nextInt() >> random.nextInt(Integer.SIZE);
        }

        /** Any double: half of them any bit pattern at all, half of them plain prices. */
        double anyDouble() {
            final int edge = edge(DOUBLE_EDGES.length);
            if (edge >= 0) {
                return DOUBLE_EDGES[edge];
            }
            return random.nextBoolean() ? Double.longBitsToDouble(random.nextLong()) : random.nextDouble(-1e6, 1e6);
        }

        /** Between {@code min} and {@code max}, both included. */
        int between(int min, int max) {
            final int edge = edge(2);
            return edge == 0 ? min : edge == 1 ? max : random.nextInt(min, max + 1);
        }

        /** A mnemonic: up to {@link Instrument#MNEMONIC_LENGTH} ASCII characters, NUL excepted. */
        String mnemonic() {
            final int edge = edge(MNEMONIC_EDGES.length);
            if (edge >= 0) {
                return MNEMONIC_EDGES[edge];
            }
            final char[] chars = new char[random.nextInt(Instrument.MNEMONIC_LENGTH + 1)];
            for (int i = 0; i < chars.length; i++) {
                chars[i] = (char) random.nextInt(FIRST_CHAR, LAST_CHAR + 1);
            }
            return new String(chars);
        }

        <T> T oneOf(T[] choices) {
            final int edge = edge(choices.length);
            return choices[edge >= 0 ? edge : random.nextInt(choices.length)];
        }

        <T> List<T> list(int minSize, int maxSize, Supplier<T> element) {
            final int size = between(minSize, maxSize);
            final List<T> list = new ArrayList<>(size);
            for (int i = 0; i < size; i++) {
                list.add(element.get());
            }
            return list;
        }

        /** Up to {@code maxLength} bytes of any value. */
        byte[] bytes(int maxLength) {
            final byte[] bytes = new byte[between(0, maxLength)];
            for (int i = 0; i < bytes.length; i++) {
                bytes[i] = (byte) between(Byte.MIN_VALUE, Byte.MAX_VALUE);
            }
            return bytes;
        }

        /** Which of {@code count} edges to take, or -1 to draw at random. */
        private int edge(int count) {
            if (edgesOnly) {
                return (caseNumber + draws++) % count;
            }
            return random.nextInt(EDGE_ODDS) == 0 ? random.nextInt(count) : -1;
        }
    }
}
