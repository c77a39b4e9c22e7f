package org.nakcast.examples;

import java.nio.ByteOrder;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.sbe.MessageDecoderFlyweight;
import org.agrona.sbe.MessageEncoderFlyweight;
import org.nakcast.codecs.sbe.SbeBinding;

/**
 * A trade tick with flyweights written by hand, no schema and no sbe-tool: what the
 * {@code flyweight} codec asks of an encoder and a decoder, in the fewest lines. The codec writes
 * and checks SBE's 8-byte message header (block length, template id, schema id, version) itself;
 * the flyweights lay out the block after it, little-endian:
 *
 * <pre>
 *   0               4               8              12              16
 *   +---------------+---------------+---------------+---------------+
 *   | instrumentId  |       priceTicks (int64)      |  qty (int32)  |
 *   +---------------+---------------+---------------+---------------+
 * </pre>
 *
 * <p>The contract, beyond Agrona's interfaces: {@link Encoder#wrap} points the encoder at the block
 * (the codec calls it just after the header) and {@link Encoder#encodedLength()} answers the bytes
 * written from there; {@link Decoder#wrap} gets the block length and version the message carries,
 * and {@link Decoder#sbeDecodedLength()} must answer the bytes the message takes after the header
 * (Agrona's default throws: the codec checks every message's length with it); the schema id and
 * template id tell this type on the wire, and must not clash with another message a topic carries.
 * A {@link Binding}, listed in {@code META-INF/services/org.nakcast.codecs.sbe.SbeBinding}, is how
 * the codec finds the pair.
 *
 * @param instrumentId the instrument
 * @param priceTicks the price, in ticks
 * @param qty the quantity
 */
public record Tick(int instrumentId, long priceTicks, int qty) {
    /** This message type's schema id: one of the service's own, not the samples' (1) or another's. */
    public static final int SCHEMA_ID = 903;
    /** This message type within the schema. */
    public static final int TEMPLATE_ID = 1;
    /** The layout's version: a later one may add fields after the block, never move one. */
    public static final int SCHEMA_VERSION = 0;
    /** The block's length, in bytes. */
    public static final int BLOCK_LENGTH = 16;
    private static final ByteOrder ORDER = ByteOrder.LITTLE_ENDIAN;
    private static final int INSTRUMENT_ID = 0;
    private static final int PRICE_TICKS = 4;
    private static final int QTY = 12;

    /**
     * What an encoder and a decoder of ticks both say: the type's ids and block length, for the
     * header the codec writes and checks, and where the message lies in the buffer.
     */
    abstract static class Flyweight {
        int offset;
        int limit;

        public int offset() {
            return offset;
        }

        public int encodedLength() {
            return limit - offset;
        }

        public int limit() {
            return limit;
        }

        public void limit(int limit) {
            this.limit = limit;
        }

        public int sbeBlockLength() {
            return BLOCK_LENGTH;
        }

        public int sbeTemplateId() {
            return TEMPLATE_ID;
        }

        public int sbeSchemaId() {
            return SCHEMA_ID;
        }

        public int sbeSchemaVersion() {
            return SCHEMA_VERSION;
        }

        public String sbeSemanticType() {
            return "";
        }
    }

    /** Writes a tick's fields in place; the codec wraps it after the header it wrote. */
    public static final class Encoder extends Flyweight implements MessageEncoderFlyweight {
        private MutableDirectBuffer buffer;

        @Override
        public Encoder wrap(MutableDirectBuffer buffer, int offset) {
            this.buffer = buffer;
            this.offset = offset;
            this.limit = offset + BLOCK_LENGTH;
            return this;
        }

        /** @return this, with the instrument written */
        public Encoder instrumentId(int value) {
            buffer.putInt(offset + INSTRUMENT_ID, value, ORDER);
            return this;
        }

        /** @return this, with the price written */
        public Encoder priceTicks(long value) {
            buffer.putLong(offset + PRICE_TICKS, value, ORDER);
            return this;
        }

        /** @return this, with the quantity written */
        public Encoder qty(int value) {
            buffer.putInt(offset + QTY, value, ORDER);
            return this;
        }

        @Override
        public MutableDirectBuffer buffer() {
            return buffer;
        }

    }

    /** Reads a tick's fields where they were received; the codec wraps it after checking the header. */
    public static final class Decoder extends Flyweight implements MessageDecoderFlyweight {
        private DirectBuffer buffer;
        private int actingBlockLength;

        @Override
        public Decoder wrap(DirectBuffer buffer, int offset, int actingBlockLength, int actingVersion) {
            this.buffer = buffer;
            this.offset = offset;
            this.actingBlockLength = actingBlockLength;
            this.limit = offset + actingBlockLength;
            return this;
        }

        /** @return the instrument */
        public int instrumentId() {
            return buffer.getInt(offset + INSTRUMENT_ID, ORDER);
        }

        /** @return the price, in ticks */
        public long priceTicks() {
            return buffer.getLong(offset + PRICE_TICKS, ORDER);
        }

        /** @return the quantity */
        public int qty() {
            return buffer.getInt(offset + QTY, ORDER);
        }

        /** The bytes after the header: the block the message carries (a later version's may be longer). */
        @Override
        public int sbeDecodedLength() {
            return actingBlockLength;
        }

        @Override
        public StringBuilder appendTo(StringBuilder builder) {
            return builder.append("Tick(instrumentId=").append(instrumentId()).append(", priceTicks=")
                .append(priceTicks()).append(", qty=").append(qty()).append(')');
        }

        @Override
        public DirectBuffer buffer() {
            return buffer;
        }

    }

    /** Ties the record to its flyweights, for the {@code flyweight} codec (and its object path). */
    public static final class Binding implements SbeBinding<Tick, Encoder, Decoder> {
        @Override
        public Class<Tick> messageClass() {
            return Tick.class;
        }

        @Override
        public Class<Encoder> encoderClass() {
            return Encoder.class;
        }

        @Override
        public Class<Decoder> decoderClass() {
            return Decoder.class;
        }

        @Override
        public Encoder newEncoder() {
            return new Encoder();
        }

        @Override
        public Decoder newDecoder() {
            return new Decoder();
        }

        @Override
        public int encodedLength(Tick tick) {
            return BLOCK_LENGTH;
        }

        @Override
        public void encode(Tick tick, Encoder encoder) {
            encoder.instrumentId(tick.instrumentId()).priceTicks(tick.priceTicks()).qty(tick.qty());
        }

        @Override
        public Tick decode(Decoder decoder) {
            return new Tick(decoder.instrumentId(), decoder.priceTicks(), decoder.qty());
        }
    }
}
