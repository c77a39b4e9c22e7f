package org.nakcast.transport.receive;

import java.util.Objects;

import org.nakcast.transport.protocol.DataFlyweight;
import org.nakcast.transport.protocol.HeaderFlyweight;
import org.nakcast.transport.protocol.MessageFrame;
import org.nakcast.transport.protocol.NakFlyweight;

/**
 * How one {@link InboundStream} receives: its memory bounds, its loss policy and its NAK timing.
 * Checked when made, so a bad value fails at start, never in the receive loop.
 *
 * @param reorderWindowCapacity how many datagrams ahead of the next expected one are held while a
 *     gap is repaired; a power of two; default 1024. Each slot takes {@code maxDatagramLength}
 *     bytes off-heap (1.4 MB per stream by default at most), in pages of 32 slots taken as
 *     datagrams are held in them. More rides out longer repairs at full rate;
 *     a datagram further ahead is dropped and asked for again once the window has moved
 * @param maxDatagramLength the largest datagram the publisher sends, and the longest NAK this
 *     receiver sends; default 1408, the transport's default datagram size
 * @param maxMessageLength the largest message reassembled from fragments; default 1 MiB. A longer
 *     message is dropped with a loss event rather than letting the wire decide how much memory the
 *     receiver takes; the reassembly buffer grows towards this only as long messages arrive
 * @param dropStreamOnLoss the topic's loss policy: true drops the stream at the first unrecoverable
 *     loss ({@code drop}), false reports the loss and delivers on after the gap ({@code continue},
 *     the default)
 * @param nakTiming when NAKs are sent; see {@link NakTiming}
 */
public record InboundStreamSettings(
    int reorderWindowCapacity, int maxDatagramLength, int maxMessageLength, boolean dropStreamOnLoss,
    NakTiming nakTiming) {

    /** The default reorder window, in datagrams. */
    public static final int DEFAULT_REORDER_WINDOW_CAPACITY = 1024;
    /** The default largest datagram, in bytes. */
    public static final int DEFAULT_MAX_DATAGRAM_LENGTH = 1408;
    /** The default largest message, in bytes. */
    public static final int DEFAULT_MAX_MESSAGE_LENGTH = 1 << 20;
    /** Every setting at its default. */
    public static final InboundStreamSettings DEFAULTS = new InboundStreamSettings(
        DEFAULT_REORDER_WINDOW_CAPACITY, DEFAULT_MAX_DATAGRAM_LENGTH, DEFAULT_MAX_MESSAGE_LENGTH, false,
        NakTiming.DEFAULTS);

    private static final int MIN_DATAGRAM_LENGTH =
        Math.max(DataFlyweight.DATA_HEADER_LENGTH + MessageFrame.FRAME_HEADER_LENGTH, NakFlyweight.lengthFor(1));

    /** Checks every setting. */
    public InboundStreamSettings {
        if (reorderWindowCapacity < 1 || Integer.bitCount(reorderWindowCapacity) != 1) {
            throw new IllegalArgumentException(
                "reorderWindowCapacity must be a positive power of two: " + reorderWindowCapacity);
        }
        if (maxDatagramLength < MIN_DATAGRAM_LENGTH || maxDatagramLength > HeaderFlyweight.MAX_DATAGRAM_LENGTH) {
            throw new IllegalArgumentException("maxDatagramLength must be in " + MIN_DATAGRAM_LENGTH + ".."
                + HeaderFlyweight.MAX_DATAGRAM_LENGTH + ": " + maxDatagramLength);
        }
        if ((long) reorderWindowCapacity * maxDatagramLength > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("reorderWindowCapacity x maxDatagramLength must stay under 2 GiB: "
                + reorderWindowCapacity + " x " + maxDatagramLength);
        }
        if (maxMessageLength < 1) {
            throw new IllegalArgumentException("maxMessageLength must be positive: " + maxMessageLength);
        }
        Objects.requireNonNull(nakTiming, "nakTiming");
    }

    /** These settings with another reorder window capacity. */
    public InboundStreamSettings withReorderWindowCapacity(int capacity) {
        return new InboundStreamSettings(capacity, maxDatagramLength, maxMessageLength, dropStreamOnLoss, nakTiming);
    }

    /** These settings with another largest message. */
    public InboundStreamSettings withMaxMessageLength(int length) {
        return new InboundStreamSettings(
            reorderWindowCapacity, maxDatagramLength, length, dropStreamOnLoss, nakTiming);
    }

    /** These settings with another loss policy. */
    public InboundStreamSettings withDropStreamOnLoss(boolean drop) {
        return new InboundStreamSettings(reorderWindowCapacity, maxDatagramLength, maxMessageLength, drop, nakTiming);
    }

    /** These settings with another NAK timing. */
    public InboundStreamSettings withNakTiming(NakTiming timing) {
        return new InboundStreamSettings(
            reorderWindowCapacity, maxDatagramLength, maxMessageLength, dropStreamOnLoss, timing);
    }
}
