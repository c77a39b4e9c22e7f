package org.nakcast.transport.system;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.LongStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.nakcast.config.AuthKeyFile;
import org.nakcast.config.AuthKeys;
import org.nakcast.config.ByteSize;
import org.nakcast.config.FlowControlMode;
import org.nakcast.config.NodeConfig;
import org.nakcast.config.TopicConfig;
import org.nakcast.config.TransportConfig;
import org.nakcast.transport.Delivery;
import org.nakcast.transport.LossEvent;
import org.nakcast.transport.Node;
import org.nakcast.transport.NodeContext;
import org.nakcast.transport.BytePublication;
import org.nakcast.transport.StreamEventListener;
import org.nakcast.transport.node.NodeHarness;
import org.nakcast.transport.lossinjection.SequenceRangeLossGenerator;
import org.nakcast.transport.protocol.DataFlyweight;
import org.nakcast.transport.protocol.FrameType;
import org.nakcast.transport.protocol.HeaderFlyweight;

/**
 * Captures a short real run with {@code tshark} on {@code lo} of this test's private network
 * namespace and decodes it with {@code ops/wireshark/nakcast.lua}: every datagram type appears, and
 * every decoded field agrees with what the run sent.
 *
 * <p>Topic {@code prices} (id 1) carries one message per datagram with a 16-datagram history, under
 * flow control {@code max} (the publisher does not wait for the subscriber's repairs);
 * topic {@code orders} (id 2) packs small messages and fragments large ones, under flow control
 * {@code min}, so its subscriber sends STATUS. The subscriber loses the first sends of datagrams
 * 10..59 of both streams: it NAKs them, {@code orders} gets them as RETRANSMIT, {@code prices} as
 * UNRECOVERABLE (its history has moved on); HEARTBEATs go throughout.
 *
 * <p>The capture's clock checks the ages the datagrams carry: a HEARTBEAT's session age and a
 * DATA's age class against the time since the session's first datagram in the capture. Decoded
 * again with its port preference set, the dissector judges the ports the datagrams were sent to;
 * with its lines preference naming the run's port or group as a line, it shows every datagram on
 * that line, and judges a line's ports as it judges the data port's.
 *
 * <p>The same run on a transport with a key file: every datagram carries the 32-byte trailer after
 * its protocol bytes, the dissector shows it as its own subtree (key id, suite, nonce, tag) and
 * decodes the protocol bytes as it does without one.
 */
class WiresharkDissectorIT {
    private static final int DATAGRAM_LENGTH = 1408;
    /** A DATA datagram's header (the common 24 bytes and the message count) and a frame's header. */
    private static final int DATA_AND_FRAME_HEADERS = 32 + 4;
    /** The id of the key the authenticated run signs with. */
    private static final int KEY_ID = 7;
    private static final int PRICES = 200;
    private static final int SMALL_ORDERS = 2_000;
    private static final int LARGE_ORDERS = 10;
    /** The history of orders, in datagrams: a 32-datagram window, a STATUS wanted every 8. */
    private static final long ORDERS_HISTORY_DATAGRAMS = 64;
    private static final long FIRST_LOST = 10;
    private static final long LAST_LOST = 59;
    private static final int DATA_PORT = 40456;
    /** Capture time, seconds since the first datagram captured. */
    private static final String TIME = "frame.time_relative";
    /**
     * How much younger than the age it carries a datagram may look by the capture's clock, counted
     * from its session's first datagram: as late as that one left after the session began.
     */
    private static final long EARLY_NS = TimeUnit.MILLISECONDS.toNanos(5);
    /**
     * How much older than the age it carries a datagram may look by the capture's clock: the
     * publisher reads its clock once per round of sends, and on a busy host its thread may be
     * preempted between reading it and sending (25 ms seen on a shared two-core host, 167 ms with
     * both cores saturated by other work). Still well short of the second or so the run lasts.
     */
    private static final long LATE_NS = TimeUnit.MILLISECONDS.toNanos(250);
    private static final List<String> FIELDS = List.of(TIME, "udp.dstport", "udp.length", "nakcast.magic",
        "nakcast.version", "nakcast.type", "nakcast.flags", "nakcast.data.age_class", "nakcast.data.status_wanted",
        "nakcast.length",
        "nakcast.session_id", "nakcast.topic_id", "nakcast.sequence", "nakcast.data.completed_messages",
        "nakcast.data.frame_count", "nakcast.data.messages_ended", "nakcast.frame.length", "nakcast.frame.flags",
        "nakcast.heartbeat.oldest_sequence", "nakcast.heartbeat.publisher_id", "nakcast.heartbeat.session_age",
        "nakcast.nak.receiver_id", "nakcast.nak.range_count", "nakcast.nak.range.from", "nakcast.nak.range.to",
        "nakcast.unrecoverable.from", "nakcast.unrecoverable.to", "nakcast.unrecoverable.first_message_after",
        "nakcast.status.receiver_id", "nakcast.auth.key_id", "nakcast.auth.suite", "nakcast.auth.reserved",
        "nakcast.auth.nonce_base", "nakcast.auth.nonce_counter", "nakcast.auth.tag", "_ws.expert.message");
    /** The dissector's lines preference that names no line. */
    private static final String NO_LINES = "";
    private static final List<String> LINE_FIELDS = List.of("udp.dstport", "nakcast.type", "nakcast.line",
        "_ws.col.Info", "_ws.expert.message");
    private static final List<String> PORT_FIELDS = List.of("udp.dstport", "nakcast.type",
        "nakcast.malformed.wrong_port", "_ws.expert.message");

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void everyDatagramTypeOfARealRunDecodesWithTheFieldsItWasSentWith(@TempDir Path directory) throws Exception {
        final Map<Integer, Integer> sessionOfTopic = new HashMap<>();
        final List<DissectedPacket> packets;
        final List<DissectedPacket> onTheirPorts;
        final List<DissectedPacket> dataPortAbove;
        final List<DissectedPacket> dataPortBelow;
        final List<DissectedPacket> lineByPort;
        final List<DissectedPacket> lineByGroup;
        final List<DissectedPacket> lineOneBelow;
        final NodeConfig config = config(null);
        final String group = config.transports().get(0).group().getHostAddress();
        try (TsharkCapture capture = TsharkCapture.start(directory)) {
            run(config, sessionOfTopic);
            packets = capture.decode(dissector(), 0, NO_LINES, FIELDS);
            onTheirPorts = capture.decode(dissector(), DATA_PORT, NO_LINES, FIELDS);
            dataPortAbove = capture.decode(dissector(), DATA_PORT + 1, NO_LINES, PORT_FIELDS);
            dataPortBelow = capture.decode(dissector(), DATA_PORT - 1, NO_LINES, PORT_FIELDS);
            lineByPort = capture.decode(dissector(), 0, DATA_PORT + "=md-a," + (DATA_PORT + 2) + "=md-b",
                LINE_FIELDS);
            lineByGroup = capture.decode(dissector(), 0, group + "=md-b", LINE_FIELDS);
            lineOneBelow = capture.decode(dissector(), 0, (DATA_PORT - 1) + "=md-a", PORT_FIELDS);
        }
        assertProtocolFields(packets, sessionOfTopic, config);
        assertThat(packets).as("no trailer, no authentication shown")
            .allSatisfy(packet -> assertThat(packet.has("nakcast.auth.key_id")).as("%s", packet).isFalse());
        final Map<Long, Long> sessionStarts = sessionStarts(packets);
        assertSessionAges(packets, sessionStarts);
        assertAgeClasses(packets, sessionStarts, sessionOfTopic.get(2));

        assertThat(onTheirPorts).as("bound to the run's ports: as the heuristic showed it, every type on its port")
            .isEqualTo(packets);
        assertWrongPorts(dataPortAbove, DATA_PORT + 1, "data", EnumSet.of(FrameType.NAK, FrameType.STATUS));
        assertWrongPorts(dataPortBelow, DATA_PORT, "control", EnumSet.complementOf(
            EnumSet.of(FrameType.NAK, FrameType.STATUS)));

        assertOnLine(lineByPort, "md-a", packets.size());
        assertOnLine(lineByGroup, "md-b", packets.size());
        assertThat(lineOneBelow).as("a line's ports are judged as the data port preference's: one below, DATA is on"
            + " its control port").isEqualTo(dataPortBelow);
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void authenticatedDatagramsShowTheirTrailerAndDecodeAsBefore(@TempDir Path directory) throws Exception {
        final Path keyFile = directory.resolve("nakcast.keys");
        AuthKeyFile.write(keyFile, new AuthKeys(KEY_ID, List.of(AuthKeyFile.newKey(KEY_ID))));
        final NodeConfig config = config(keyFile.toString());
        final Map<Integer, Integer> sessionOfTopic = new HashMap<>();
        final List<DissectedPacket> packets;
        try (TsharkCapture capture = TsharkCapture.start(directory)) {
            run(config, sessionOfTopic);
            packets = capture.decode(dissector(), 0, NO_LINES, FIELDS);
        }

        assertProtocolFields(packets, sessionOfTopic, config);
        assertTrailers(packets);
    }

    /**
     * The fields of every datagram of a {@link #run} agree with what was sent: the common header of
     * each, every type seen, DATA, RETRANSMIT, HEARTBEAT, NAK, UNRECOVERABLE and STATUS.
     */
    private static void assertProtocolFields(List<DissectedPacket> packets, Map<Integer, Integer> sessionOfTopic,
        NodeConfig config) {
        final Map<FrameType, List<DissectedPacket>> byType = packets.stream()
            .filter(packet -> packet.has("nakcast.type"))
            .collect(Collectors.groupingBy(WiresharkDissectorIT::type));
        final int trailerBytes = config.transports().get(0).authenticated() ? AuthKeys.TRAILER_BYTES : 0;

        assertThat(packets).as("every UDP datagram is nakcast, found by the heuristic").isNotEmpty()
            .allSatisfy(packet -> assertCommonHeader(packet, sessionOfTopic, trailerBytes));
        assertThat(byType).as("types seen").containsOnlyKeys(EnumSet.allOf(FrameType.class));
        assertPricesData(of(byType, FrameType.DATA, 1), fullMessageLength(config));
        assertOrdersData(of(byType, FrameType.DATA, 2));
        assertRetransmits(byType);
        assertHeartbeats(packets);
        assertNaks(byType.get(FrameType.NAK));
        assertUnrecoverables(byType.get(FrameType.UNRECOVERABLE), byType.get(FrameType.NAK));
        assertStatusWanted(of(byType, FrameType.DATA, 1), of(byType, FrameType.DATA, 2));
        assertStatuses(byType.get(FrameType.STATUS), of(byType, FrameType.DATA, 2),
            byType.get(FrameType.NAK).get(0).text("nakcast.nak.receiver_id"));
    }

    /**
     * STATUS wanted: on the DATA of orders (flow control min) from sequence 0 every quarter window;
     * on prices (flow control max, no STATUS) never.
     */
    private static void assertStatusWanted(List<DissectedPacket> pricesData, List<DissectedPacket> ordersData) {
        assertThat(pricesData).filteredOn(WiresharkDissectorIT::wantsStatus).as("flow control max").isEmpty();
        final List<Long> wanted = ordersData.stream().filter(WiresharkDissectorIT::wantsStatus)
            .map(packet -> packet.number("nakcast.sequence")).toList();
        final long every = ORDERS_HISTORY_DATAGRAMS / 2 / 4;
        assertThat(wanted).as("flow control min, every %d datagrams of %d", every, ordersData.size())
            .hasSizeGreaterThan(2).containsExactlyElementsOf(
            LongStream.iterate(0, sequence -> sequence < ordersData.size(), sequence -> sequence + every).boxed()
                .toList());
    }

    private static boolean wantsStatus(DissectedPacket packet) {
        return (packet.number("nakcast.flags") & HeaderFlyweight.STATUS_WANTED_FLAG) != 0;
    }

    /**
     * Every datagram, DATA among them, shows its trailer: the key id of the key file, suite 3
     * (NHPoly1305-AES), reserved 0, a 16-byte tag; and no two datagrams share a nonce (base and counter).
     */
    private static void assertTrailers(List<DissectedPacket> packets) {
        assertThat(packets).filteredOn(packet -> type(packet) == FrameType.DATA).isNotEmpty();
        assertThat(packets).allSatisfy(packet -> {
            assertThat(packet.number("nakcast.auth.key_id")).as("%s", packet).isEqualTo(KEY_ID);
            assertThat(packet.number("nakcast.auth.suite")).as("%s", packet).isEqualTo(3);
            assertThat(packet.number("nakcast.auth.reserved")).as("%s", packet).isZero();
            assertThat(packet.text("nakcast.auth.tag")).as("%s", packet).matches("[0-9a-f]{32}");
        });
        assertThat(packets.stream().map(packet -> packet.text("nakcast.auth.nonce_base") + "/"
            + packet.number("nakcast.auth.nonce_counter"))).as("nonces").doesNotHaveDuplicates();
        assertThat(packets.stream().map(packet -> packet.text("nakcast.auth.tag"))).as("tags").doesNotHaveDuplicates();
    }

    /** Every datagram of the run shows the line it was sent on, in its tree and Info column, and nothing is amiss. */
    private static void assertOnLine(List<DissectedPacket> packets, String line, int datagrams) {
        assertThat(packets).hasSize(datagrams).allSatisfy(packet -> {
            assertThat(packet.text("nakcast.line")).as("%s", packet).isEqualTo(line);
            assertThat(packet.text("_ws.col.Info")).as("%s", packet).startsWith("[" + line + "] ");
            assertThat(packet.text("_ws.expert.message")).as("%s", packet).isEmpty();
        });
    }

    private static void run(NodeConfig config, Map<Integer, Integer> sessionOfTopic) throws InterruptedException {
        final SequenceChecker prices = new SequenceChecker();
        final SequenceChecker orders = new SequenceChecker();
        final List<LossEvent> losses = new CopyOnWriteArrayList<>();
        try (Node publisherNode = Node.launch(config);
            Node subscriberNode = Node.launch(new NodeContext().config(config),
                new NodeHarness()
                .receiveLoss(new SequenceRangeLossGenerator(FIRST_LOST, LAST_LOST, EnumSet.of(FrameType.DATA))))) {
            subscriberNode.newByteSubscription("prices", prices, new StreamEventListener() {
                @Override
                public void onLoss(LossEvent event) {
                    losses.add(event);
                }
            }, Delivery.ON_RECEIVING_THREAD);
            subscriberNode.newByteSubscription("orders", orders, StreamEventListener.NONE,
                Delivery.ON_RECEIVING_THREAD);
            final BytePublication pricesPublication = publisherNode.newBytePublication("prices");
            final BytePublication ordersPublication = publisherNode.newBytePublication("orders");
            sessionOfTopic.put(1, pricesPublication.sessionId());
            sessionOfTopic.put(2, ordersPublication.sessionId());

            NumberedMessages.publish(ordersPublication, SMALL_ORDERS, 100);
            NumberedMessages.publishFrom(ordersPublication, SMALL_ORDERS, LARGE_ORDERS, 3 * DATAGRAM_LENGTH);
            NumberedMessages.publish(pricesPublication, PRICES, fullMessageLength(config));
            final long deadlineMs = System.currentTimeMillis() + 30_000;
            orders.awaitCount(SMALL_ORDERS + LARGE_ORDERS, deadlineMs);
            while (losses.isEmpty() && System.currentTimeMillis() < deadlineMs) {
                Thread.sleep(5);
            }
            prices.awaitCount(PRICES - losses.stream().mapToLong(LossEvent::lostMessages).sum(), deadlineMs);
            Thread.sleep(250);
            final String counters = "publisher: " + publisherNode.counters().describeNonZero()
                + "\nsubscriber: " + subscriberNode.counters().describeNonZero();
            assertThat(orders.count()).as(counters).isEqualTo(SMALL_ORDERS + LARGE_ORDERS);
            assertThat(losses).as(counters).isNotEmpty();
        }
    }

    /** The header agrees with the run; its datagram length counts the UDP payload but for {@code trailerBytes}. */
    private static void assertCommonHeader(DissectedPacket packet, Map<Integer, Integer> sessionOfTopic,
        int trailerBytes) {
        assertThat(packet.has("nakcast.type")).as("decoded as nakcast: %s", packet).isTrue();
        assertThat(packet.text("nakcast.magic")).as("%s", packet).isEqualTo("0x4b4e");
        assertThat(packet.number("nakcast.version")).as("%s", packet).isEqualTo(HeaderFlyweight.CURRENT_VERSION);
        final FrameType type = type(packet);
        assertThat(packet.has("nakcast.data.status_wanted")).as("%s", packet)
            .isEqualTo(type == FrameType.DATA || type == FrameType.RETRANSMIT);
        if (type == FrameType.DATA || type == FrameType.RETRANSMIT) {
            assertThat(packet.number("nakcast.flags") & ~HeaderFlyweight.STATUS_WANTED_FLAG)
                .as("the age class, and maybe STATUS wanted: %s", packet)
                .isEqualTo(packet.number("nakcast.data.age_class"));
        } else if (type == FrameType.HEARTBEAT) {
            assertThat(packet.number("nakcast.flags")).as("end of stream or nothing: %s", packet)
                .isIn(0L, (long) HeaderFlyweight.END_OF_STREAM_FLAG);
        } else {
            assertThat(packet.number("nakcast.flags")).as("%s", packet).isZero();
            assertThat(packet.has("nakcast.data.age_class")).as("%s", packet).isFalse();
        }
        assertThat(packet.has("nakcast.heartbeat.session_age")).as("%s", packet).isEqualTo(type == FrameType.HEARTBEAT);
        assertThat(packet.number("nakcast.length")).as("%s", packet)
            .isEqualTo(packet.number("udp.length") - 8 - trailerBytes);
        final int topic = (int) packet.number("nakcast.topic_id");
        assertThat(sessionOfTopic).as("%s", packet).containsKey(topic);
        assertThat(packet.number("nakcast.session_id")).as("%s", packet).isEqualTo((long) sessionOfTopic.get(topic));
        final boolean toControlPort = type == FrameType.NAK || type == FrameType.STATUS;
        assertThat(packet.number("udp.dstport")).as("%s", packet).isEqualTo(DATA_PORT + (toControlPort ? 1 : 0));
        assertThat(packet.text("_ws.expert.message")).as("no malformed datagram: %s", packet).isEmpty();
    }

    /** Prices: datagram n carries message n, whole, and nothing else. */
    private static void assertPricesData(List<DissectedPacket> data, int messageLength) {
        assertThat(data).hasSize(PRICES);
        for (int n = 0; n < PRICES; n++) {
            final DissectedPacket packet = data.get(n);
            assertThat(packet.number("nakcast.sequence")).as("%s", packet).isEqualTo(n);
            assertThat(packet.number("nakcast.data.completed_messages")).as("%s", packet).isEqualTo(n);
            assertThat(packet.number("nakcast.data.frame_count")).as("%s", packet).isOne();
            assertThat(packet.number("nakcast.data.messages_ended")).as("%s", packet).isOne();
            assertThat(packet.number("nakcast.frame.length")).as("%s", packet).isEqualTo(messageLength);
            assertThat(packet.text("nakcast.frame.flags")).as("%s", packet).isEqualTo("0xc0");
        }
    }

    /**
     * Orders: sequences 0, 1, 2, ... in order; each datagram's message count is the previous one's
     * plus the messages that ended in it, so the frames were walked right; some datagrams pack
     * several messages and the large ones come as first, middle and last fragments.
     */
    private static void assertOrdersData(List<DissectedPacket> data) {
        long completed = 0;
        for (int n = 0; n < data.size(); n++) {
            final DissectedPacket packet = data.get(n);
            assertThat(packet.number("nakcast.sequence")).as("%s", packet).isEqualTo(n);
            assertThat(packet.number("nakcast.data.completed_messages")).as("%s", packet).isEqualTo(completed);
            assertThat(packet.numbers("nakcast.frame.length")).as("%s", packet)
                .hasSize((int) packet.number("nakcast.data.frame_count"));
            completed += packet.number("nakcast.data.messages_ended");
        }
        assertThat(completed).isEqualTo(SMALL_ORDERS + LARGE_ORDERS);
        assertThat(data).anySatisfy(packet -> assertThat(packet.number("nakcast.data.frame_count")).isGreaterThan(1));
        assertThat(data.stream().flatMap(packet -> List.of(packet.text("nakcast.frame.flags").split(",")).stream()))
            .contains("0xc0", "0x80", "0x00", "0x40");
    }

    /**
     * A RETRANSMIT is the DATA datagram of that sequence again, field for field, and was asked
     * for: NAKed, or one of the oldest datagrams held that a NAK's datagrams below the history stood
     * for (as many as its UNRECOVERABLE covers, from the one after it: on a slow host the prices
     * publisher may still hold some of 10..59 when the NAK comes, and then resends some beyond 59).
     */
    private static void assertRetransmits(Map<FrameType, List<DissectedPacket>> byType) {
        final List<DissectedPacket> retransmits = byType.get(FrameType.RETRANSMIT);
        final Map<Long, Set<Long>> askedOfTopic = askedForByTopic(byType);
        for (DissectedPacket retransmit : retransmits) {
            final long sequence = retransmit.number("nakcast.sequence");
            final DissectedPacket data = of(byType, FrameType.DATA, (int) retransmit.number("nakcast.topic_id"))
                .get((int) sequence);
            for (String field : List.of("nakcast.length", "nakcast.flags", "nakcast.data.age_class",
                "nakcast.data.completed_messages", "nakcast.data.frame_count", "nakcast.frame.length",
                "nakcast.frame.flags")) {
                assertThat(retransmit.text(field)).as("%s of %s", field, retransmit).isEqualTo(data.text(field));
            }
            assertThat(askedOfTopic.get(retransmit.number("nakcast.topic_id"))).as("asked for: %s", retransmit)
                .contains(sequence);
        }
        assertThat(of(byType, FrameType.RETRANSMIT, 2).stream().map(packet -> packet.number("nakcast.sequence")))
            .as("orders arrived whole: each lost datagram came again").containsAll(lost());
    }

    /**
     * By topic, the sequences a NAK asked for, and those an UNRECOVERABLE's range stands for: as many
     * as it covers, from the one after it.
     */
    private static Map<Long, Set<Long>> askedForByTopic(Map<FrameType, List<DissectedPacket>> byType) {
        final Map<Long, Set<Long>> asked = new HashMap<>();
        for (DissectedPacket nak : byType.get(FrameType.NAK)) {
            final List<Long> from = nak.numbers("nakcast.nak.range.from");
            final List<Long> to = nak.numbers("nakcast.nak.range.to");
            for (int i = 0; i < from.size(); i++) {
                LongStream.rangeClosed(from.get(i), to.get(i))
                    .forEach(asked.computeIfAbsent(nak.number("nakcast.topic_id"), topic -> new HashSet<>())::add);
            }
        }
        for (DissectedPacket unrecoverable : byType.get(FrameType.UNRECOVERABLE)) {
            final long to = unrecoverable.number("nakcast.unrecoverable.to");
            final long covered = to - unrecoverable.number("nakcast.unrecoverable.from") + 1;
            LongStream.rangeClosed(to + 1, to + covered).forEach(asked
                .computeIfAbsent(unrecoverable.number("nakcast.topic_id"), topic -> new HashSet<>())::add);
        }
        return asked;
    }

    private static List<Long> lost() {
        return LongStream.rangeClosed(FIRST_LOST, LAST_LOST).boxed().toList();
    }

    /**
     * A HEARTBEAT's sequence is the highest DATA sequence of its stream sent before it; its oldest
     * sequence is at most one past that; its publisher id stays the same. Once a stream's heartbeat
     * marks its end, no DATA of it follows and every later heartbeat marks the end too.
     */
    private static void assertHeartbeats(List<DissectedPacket> packets) {
        final Map<Long, Long> highestOfTopic = new HashMap<>();
        final Map<Long, String> publisherOfTopic = new HashMap<>();
        final Set<Long> endedTopics = new HashSet<>();
        for (DissectedPacket packet : packets) {
            final long topic = packet.number("nakcast.topic_id");
            final FrameType type = type(packet);
            if (type == FrameType.DATA) {
                assertThat(endedTopics).as("DATA after the end: %s", packet).doesNotContain(topic);
                highestOfTopic.put(topic, packet.number("nakcast.sequence"));
            } else if (type == FrameType.HEARTBEAT) {
                final boolean end = packet.number("nakcast.flags") == HeaderFlyweight.END_OF_STREAM_FLAG;
                assertThat(end || !endedTopics.contains(topic)).as("ends for good: %s", packet).isTrue();
                if (end) {
                    endedTopics.add(topic);
                }
                final long highest = highestOfTopic.getOrDefault(topic, -1L);
                assertThat(packet.number("nakcast.sequence")).as("%s", packet).isEqualTo(highest);
                assertThat(packet.number("nakcast.heartbeat.oldest_sequence")).as("%s", packet)
                    .isBetween(0L, highest + 1);
                assertThat(publisherOfTopic.computeIfAbsent(topic, t -> packet.text("nakcast.heartbeat.publisher_id")))
                    .as("%s", packet).isEqualTo(packet.text("nakcast.heartbeat.publisher_id"));
            }
        }
        assertThat(publisherOfTopic).containsOnlyKeys(1L, 2L);
        assertThat(publisherOfTopic.get(1L)).isNotEqualTo(publisherOfTopic.get(2L));
    }

    /** The capture time of each session's first datagram (the heartbeat a session starts with), by session id. */
    private static Map<Long, Long> sessionStarts(List<DissectedPacket> packets) {
        final Map<Long, Long> starts = new HashMap<>();
        packets.forEach(packet -> starts.putIfAbsent(packet.number("nakcast.session_id"), packet.nanos(TIME)));
        return starts;
    }

    /**
     * A HEARTBEAT's session age is never negative, never goes down, and grows as the capture's
     * clock does: it is the capture time since the session's first datagram (see
     * {@link #assertCapturedAtAge}).
     */
    private static void assertSessionAges(List<DissectedPacket> packets, Map<Long, Long> sessionStarts) {
        final Map<Long, Long> ageOfSession = new HashMap<>();
        for (DissectedPacket packet : packets) {
            if (type(packet) == FrameType.HEARTBEAT) {
                final long session = packet.number("nakcast.session_id");
                final long ageNs = packet.number("nakcast.heartbeat.session_age");
                assertThat(ageNs).as("%s", packet).isGreaterThanOrEqualTo(ageOfSession.getOrDefault(session, 0L));
                ageOfSession.put(session, ageNs);
                assertCapturedAtAge(packet, sessionStarts, ageNs, ageNs + 1);
            }
        }
        assertThat(ageOfSession).as("the last heartbeat's age of each session").hasSize(2)
            .allSatisfy((session, ageNs) -> assertThat(ageNs).isGreaterThan(TimeUnit.MILLISECONDS.toNanos(250)));
    }

    /**
     * A DATA's age class brackets the capture time since its session's first datagram (see
     * {@link #assertCapturedAtAge}); a session's classes never go down, and those of orders, sent
     * from its session's start for a second or so, take several values. (Prices go out after
     * orders: on a busy host its session may be half a second old by then, and its data span only
     * two classes.)
     */
    private static void assertAgeClasses(List<DissectedPacket> packets, Map<Long, Long> sessionStarts,
        int ordersSession) {
        final Map<Long, NavigableSet<Integer>> classesOfSession = new HashMap<>();
        for (DissectedPacket packet : packets) {
            if (type(packet) == FrameType.DATA) {
                final int ageClass = (int) packet.number("nakcast.data.age_class");
                assertCapturedAtAge(packet, sessionStarts, DataFlyweight.minAgeNs(ageClass),
                    DataFlyweight.maxAgeNs(ageClass));
                final NavigableSet<Integer> classes = classesOfSession.computeIfAbsent(
                    packet.number("nakcast.session_id"), s -> new TreeSet<>());
                assertThat(ageClass).as("%s after classes %s", packet, classes)
                    .isGreaterThanOrEqualTo(classes.isEmpty() ? 0 : classes.last());
                classes.add(ageClass);
            }
        }
        assertThat(classesOfSession).hasSize(2);
        assertThat(classesOfSession.get((long) ordersSession)).as("the age classes of orders").hasSizeGreaterThan(2);
    }

    /**
     * The capture time since the packet's session's first datagram lies in the ages the packet
     * says its session had when it was sent, at least {@code leastAgeNs} and less than
     * {@code ageBelowNs}: at most {@link #EARLY_NS} younger (the first datagram's own delay), at
     * most {@link #LATE_NS} older (a datagram leaves after the time it was stamped with, never before).
     */
    private static void assertCapturedAtAge(DissectedPacket packet, Map<Long, Long> sessionStarts, long leastAgeNs,
        long ageBelowNs) {
        final long sinceStartNs = packet.nanos(TIME) - sessionStarts.get(packet.number("nakcast.session_id"));
        assertThat(sinceStartNs).as("capture time since the session's first datagram: %s", packet)
            .isGreaterThanOrEqualTo(leastAgeNs - EARLY_NS)
            .isLessThan(ageBelowNs + LATE_NS);
    }

    /**
     * Decoded with its port preference one off the run's, the dissector takes the port the
     * datagrams of {@code misplaced} types were sent to, {@code port}, for a {@code kind} port: it
     * marks every one of them, and nothing else (the others went to a port it now does not know).
     */
    private static void assertWrongPorts(List<DissectedPacket> packets, int port, String kind,
        Set<FrameType> misplaced) {
        assertThat(packets).extracting(WiresharkDissectorIT::type).containsAll(misplaced);
        for (DissectedPacket packet : packets) {
            final FrameType type = type(packet);
            final boolean wrong = misplaced.contains(type);
            assertThat(packet.has("nakcast.malformed.wrong_port")).as("%s", packet).isEqualTo(wrong);
            assertThat(packet.text("_ws.expert.message")).as("%s", packet)
                .isEqualTo(wrong ? type.name() + " on the " + kind + " port " + port : "");
        }
    }

    private static FrameType type(DissectedPacket packet) {
        return FrameType.fromCode((int) packet.number("nakcast.type"));
    }

    /**
     * NAK ranges: as many as counted, ascending, disjoint, inside what the subscriber lost; for
     * orders, together they cover all it lost.
     */
    private static void assertNaks(List<DissectedPacket> naks) {
        final Set<Long> askedForOrders = new HashSet<>();
        for (DissectedPacket nak : naks) {
            final List<Long> from = nak.numbers("nakcast.nak.range.from");
            final List<Long> to = nak.numbers("nakcast.nak.range.to");
            assertThat(from).as("%s", nak).hasSize((int) nak.number("nakcast.nak.range_count")).hasSameSizeAs(to);
            for (int i = 0; i < from.size(); i++) {
                assertThat(from.get(i)).as("%s", nak).isGreaterThanOrEqualTo(i == 0 ? FIRST_LOST : to.get(i - 1) + 1);
                assertThat(to.get(i)).as("%s", nak).isBetween(from.get(i), LAST_LOST);
                if (nak.number("nakcast.topic_id") == 2) {
                    LongStream.rangeClosed(from.get(i), to.get(i)).forEach(askedForOrders::add);
                }
            }
        }
        assertThat(askedForOrders).containsExactlyInAnyOrderElementsOf(lost());
        assertThat(naks.stream().map(nak -> nak.text("nakcast.nak.receiver_id")).distinct())
            .as("one subscriber asks").hasSize(1);
    }

    /**
     * UNRECOVERABLE answers a NAK of prices for a range that starts where the NAK's did; one message
     * per datagram, so the first message after it is the one of the datagram after it.
     */
    private static void assertUnrecoverables(List<DissectedPacket> unrecoverables, List<DissectedPacket> naks) {
        final List<Long> nakedFrom = naks.stream()
            .filter(nak -> nak.number("nakcast.topic_id") == 1)
            .flatMap(nak -> nak.numbers("nakcast.nak.range.from").stream())
            .toList();
        for (DissectedPacket packet : unrecoverables) {
            assertThat(packet.number("nakcast.topic_id")).as("%s", packet).isOne();
            final long from = packet.number("nakcast.unrecoverable.from");
            final long to = packet.number("nakcast.unrecoverable.to");
            assertThat(nakedFrom).as("%s", packet).contains(from);
            assertThat(to).as("%s", packet).isGreaterThanOrEqualTo(from);
            assertThat(packet.number("nakcast.unrecoverable.first_message_after")).as("%s", packet).isEqualTo(to + 1);
        }
    }

    /** STATUS: orders only, from the subscriber that NAKs, the next sequence it needs never going back. */
    private static void assertStatuses(List<DissectedPacket> statuses, List<DissectedPacket> ordersData,
        String receiverId) {
        long previous = 0;
        for (DissectedPacket status : statuses) {
            assertThat(status.number("nakcast.topic_id")).as("%s", status).isEqualTo(2);
            assertThat(status.text("nakcast.status.receiver_id")).as("%s", status).isEqualTo(receiverId);
            final long next = status.number("nakcast.sequence");
            assertThat(next).as("%s", status).isBetween(previous, (long) ordersData.size());
            previous = next;
        }
        assertThat(previous).as("the last STATUS").isEqualTo(ordersData.size());
    }

    private static List<DissectedPacket> of(Map<FrameType, List<DissectedPacket>> byType, FrameType type, int topic) {
        return byType.get(type).stream().filter(packet -> packet.number("nakcast.topic_id") == topic).toList();
    }

    /**
     * prices: a 16-datagram history, paced, flow control max (the publisher outruns the subscriber's
     * repairs: UNRECOVERABLE); orders: flow control min (the default: STATUS); the transport
     * authenticated with {@code keyFile}, or not when null.
     */
    private static NodeConfig config(String keyFile) {
        final NodeConfig paced = TestConfigs.paced("300k");
        final List<TransportConfig> transports = paced.transports().stream()
            .map(transport -> transport.withAuthKeyFile(keyFile))
            .toList();
        final List<TopicConfig> topics = paced.topics().stream()
            .map(topic -> topic.id() == 1
                ? topic.withHistory(new ByteSize(16L * DATAGRAM_LENGTH)).withFlowControl(FlowControlMode.MAX)
                : topic.withHistory(new ByteSize(ORDERS_HISTORY_DATAGRAMS * DATAGRAM_LENGTH))
                    .withFlowControl(FlowControlMode.MIN))
            .toList();
        return new NodeConfig(paced.node(), transports, topics).conclude();
    }

    /** The message that fills one DATA datagram of the config's transport: its protocol bytes less the headers. */
    private static int fullMessageLength(NodeConfig config) {
        final TransportConfig transport = config.transports().get(0);
        return (int) transport.datagramSize().bytes() - (transport.authenticated() ? AuthKeys.TRAILER_BYTES : 0)
            - DATA_AND_FRAME_HEADERS;
    }

    /** ops/wireshark/nakcast.lua, found upwards from the working directory (the module's). */
    private static Path dissector() throws IOException {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            final Path script = dir.resolve("ops/wireshark/nakcast.lua");
            if (Files.isRegularFile(script)) {
                return script;
            }
        }
        throw new IOException("no ops/wireshark/nakcast.lua above " + Path.of("").toAbsolutePath());
    }
}
