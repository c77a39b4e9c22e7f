package org.nakcast.micrometer;

import java.util.Locale;

import io.micrometer.core.instrument.Tags;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.status.CountersReader;
import org.nakcast.transport.status.CounterTypeIds;
import org.nakcast.transport.status.DatagramCheck;
import org.nakcast.transport.status.LineCounter;
import org.nakcast.transport.status.StreamCounters;
import org.nakcast.transport.status.SystemCounter;

/**
 * The meter one counter of a counters file is exported as: which counter (its slot), the meter's name,
 * description and tags, and whether it is a counter (only goes up) or a gauge. The names and tags are
 * {@link NakcastMetrics}'s.
 *
 * @param slot the counter it reads
 * @param name the meter's name
 * @param description the meter's description, the same for every meter of that name
 * @param tags the meter's tags, {@code node} among them
 * @param monotonic true for a {@code FunctionCounter}, false for a {@code Gauge}
 */
record CounterMeter(CounterSlot slot, String name, String description, Tags tags, boolean monotonic) {
    private static final String MALFORMED_LABEL_START = "malformed: ";
    private static final DatagramCheck[] CAUSES = DatagramCheck.values();

    /**
     * The meter for a counter as {@link CountersReader#forEach(CountersReader.MetaData)} gives it, or
     * null if it is not exported: a counter whose type this version does not know (a newer node's), or
     * a malformed-by-cause counter whose key and label do not name one of this version's causes.
     */
    static CounterMeter of(String nodeName, int counterId, int typeId, DirectBuffer key, String label) {
        final Tags node = Tags.of(NakcastMetrics.NODE_TAG, nodeName);
        final CounterSlot slot = CounterSlot.of(counterId, typeId, key);
        final SystemCounter system = systemCounter(typeId);
        if (system != null) {
            return new CounterMeter(slot, NakcastMetrics.meterName(system), system.label(), node, true);
        }
        final LineCounter line = LineCounter.ofTypeId(typeId);
        if (line != null) {
            return line(node, slot, line, key, label);
        }
        return switch (typeId) {
            case CounterTypeIds.MALFORMED_BY_CAUSE -> malformed(node, slot, key.getInt(0), label);
            case CounterTypeIds.PUBLISHER_POSITION -> stream(node, slot, NakcastMetrics.PUBLISHER_POSITION,
                "the sequence below which the publisher has sent every datagram of the stream", key, label);
            case CounterTypeIds.RECEIVER_POSITION -> stream(node, slot, NakcastMetrics.RECEIVER_POSITION,
                "the sequence of the next datagram the receiver delivers of the stream", key, label);
            case CounterTypeIds.RECEIVER_LAG -> stream(node, slot, NakcastMetrics.RECEIVER_LAG,
                "datagrams of the stream known to exist that the receiver has not delivered yet", key, label);
            case CounterTypeIds.GAPS_BOTH_LINES_MISSED -> counted(stream(node, slot,
                NakcastMetrics.GAPS_BOTH_LINES_MISSED, "gaps both lines of the stream missed", key, label));
            default -> null;
        };
    }

    private static SystemCounter systemCounter(int typeId) {
        for (SystemCounter counter : SystemCounter.values()) {
            if (counter.typeId() == typeId) {
                return counter;
            }
        }
        return null;
    }

    private static CounterMeter malformed(Tags node, CounterSlot slot, int causeOrdinal, String label) {
        if (causeOrdinal <= DatagramCheck.VALID.ordinal() || causeOrdinal >= CAUSES.length
            || !label.equals(MALFORMED_LABEL_START + CAUSES[causeOrdinal].description())) {
            return null;
        }
        return new CounterMeter(slot, NakcastMetrics.MALFORMED_BY_CAUSE, "datagrams rejected by the checks, by cause",
            node.and(NakcastMetrics.CAUSE_TAG, causeTag(CAUSES[causeOrdinal])), true);
    }

    /** The {@code cause} tag of malformed datagrams of that cause: its constant's name in lower case. */
    static String causeTag(DatagramCheck cause) {
        return cause.name().toLowerCase(Locale.ROOT);
    }

    private static CounterMeter stream(Tags node, CounterSlot slot, String name, String description,
        DirectBuffer key, String label) {
        final int topicId = key.getInt(StreamCounters.KEY_TOPIC_ID_OFFSET);
        final int sessionId = key.getInt(StreamCounters.KEY_SESSION_ID_OFFSET);
        final String topicName = StreamCounters.topicName(label, topicId, sessionId);
        return new CounterMeter(slot, name, description,
            node.and(NakcastMetrics.TOPIC_TAG, topicName == null ? Integer.toString(topicId) : topicName)
                .and(NakcastMetrics.TOPIC_ID_TAG, Integer.toString(topicId))
                .and(NakcastMetrics.SESSION_TAG, Integer.toString(sessionId)),
            false);
    }

    /**
     * One line's meter of a stream heard on two lines, tagged as a stream's and with its line's name
     * (its index where the label has no room for the name): copies and misses are counted, the lag
     * and whether the line is down are gauges.
     */
    private static CounterMeter line(Tags node, CounterSlot slot, LineCounter kind, DirectBuffer key, String label) {
        final String lineName = StreamCounters.lineName(label, kind);
        final CounterMeter stream = stream(node, slot, NakcastMetrics.lineMeterName(kind), "line " + kind.label(),
            key, label);
        final CounterMeter tagged = new CounterMeter(slot, stream.name(), stream.description(), stream.tags().and(
            NakcastMetrics.LINE_TAG, lineName == null ? Integer.toString(key.getInt(StreamCounters.KEY_LINE_OFFSET))
                : lineName), false);
        return kind == LineCounter.LAG_NS || kind == LineCounter.DOWN ? tagged : counted(tagged);
    }

    /** The same meter as a counter: what it reads only goes up. */
    private static CounterMeter counted(CounterMeter meter) {
        return new CounterMeter(meter.slot(), meter.name(), meter.description(), meter.tags(), true);
    }
}
