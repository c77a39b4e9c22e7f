package org.nakcast.config;

import com.fasterxml.jackson.annotation.JsonAlias;
import com.fasterxml.jackson.annotation.JsonFormat;
import com.fasterxml.jackson.annotation.JsonProperty;

import java.time.Duration;
import java.util.List;

/**
 * One entry of {@code topics:}: a named stream of messages of one codec on one transport, or on
 * two redundant lines.
 *
 * <p>A topic names its transport with {@code transport: md-a}, the common case, or two lines
 * with {@code transports: [md-a, md-b]} (exactly one of the two keys): line A and line B, two
 * transports on different interfaces or groups. A publisher sends each datagram of its one
 * sequence space on both lines; a receiver takes the first copy of each and asks again (NAKs)
 * only for what both lines missed, so losing a line costs neither messages nor NAKs. Both lines
 * carry the same datagrams, so they agree on {@code datagram-size} and on the pacing keys
 * ({@code send-rate}, {@code send-burst}, {@code repair-rate}).
 *
 * @param name the topic's name, unique in the config; code opens topics by this name (required)
 * @param id the topic's id on the wire, 1..2147483647, unique in the config (required)
 * @param lines the names of the transports it travels on: one ({@code transport:}), or line A and
 *     line B ({@code transports:}); required, as one key or the other. Both keys are read into this
 *     list; {@code conclude()} refuses a topic that writes both, or neither, or a list under {@code transport}
 * @param codec the name of the codec that turns messages into bytes (required)
 * @param history how many bytes of sent datagrams the publisher keeps to answer NAKs; default
 *     {@code 16m}. More rides out longer receiver stalls, at that much off-heap memory per topic
 * @param heartbeat how often a publisher says it is alive and where it is; default
 *     {@code 100ms}. Shorter finds a lost tail and a dead publisher sooner, for more idle traffic
 * @param flowControl whose pace the publisher keeps; default {@link FlowControlMode#MIN}: held to its slowest
 *     live receiver, so no live receiver falls out of history and loses messages; a receiver silent for
 *     {@code flowControlTimeout} is dropped and the others go on, and with no live receiver at all offers
 *     answer {@code NOT_CONNECTED}. {@link FlowControlMode#MAX} is the explicit choice for feeds whose latest
 *     value supersedes the ones before (prices, positions): the publisher keeps its own pace, and a receiver
 *     that falls further behind than the history holds loses messages (told by a loss event)
 * @param flowControlTimeout with flow control {@code min}: how long the publisher waits for a
 *     receiver's STATUS before it drops that receiver (with an event) and goes on at the pace of the
 *     others; default {@code 2s}, at least twice the heartbeat
 * @param lossPolicy what a receiver does after unrecoverable loss; default {@link LossPolicy#CONTINUE}
 * @param lateJoin where a late subscriber starts; default {@link LateJoinPolicy#NOW}
 * @param publisherTimeout how long a receiver waits without hearing from a publisher stream before
 *     declaring the publisher gone and closing the stream; default {@code 2s}, and at least twice
 *     the heartbeat (a publisher heartbeats at that interval, busy or idle)
 * @param lineTimeout with two lines: how long a receiver waits for one line to show a datagram the
 *     other line already delivered before it declares that line down for the stream (an event) and
 *     asks again (NAKs) for what the remaining line misses; default {@code 10ms}, positive and less
 *     than the publisher timeout. Shorter repairs sooner when a line dies, longer rides out a line
 *     that only lags. Refused on a topic of one line, where it would mean nothing
 * @param closeLinger how long a closed publication keeps answering NAKs after it sent everything
 *     and its end-of-stream marker, so receivers that missed its tail can still repair it; with flow
 *     control {@code min} it ends sooner, once every live receiver has confirmed the end. Default
 *     {@code 100ms}: many round trips on a LAN
 * @param deliveryQueue the queue's size per subscription that is polled (subscriptions choose in
 *     code whether they are polled or called on the receiving thread); default {@code 4m}, at least
 *     64 datagrams of the topic's transport and enough to carry {@code maxMessage} ({@link DeliveryQueueSize})
 * @param deliveryQueueTimeout for subscriptions that are polled, how long the topic's streams wait for a
 *     subscription whose queue is full and whose poller takes nothing (a slow poller that still takes
 *     messages is waited for): it is then overrun, missing what arrives until its queue is half empty
 *     again (told by a loss event with the exact messages), while the other subscriptions go on.
 *     Default {@code 100ms}, less than the default history lasts at full speed, so the others can
 *     repair what arrived while they waited; longer rides out a poller that stops for a while
 *     (holding its topic, and under flow control {@code min} its publishers, meanwhile)
 * @param maxPublishers the most publisher streams a receiver keeps on this topic at once; default
 *     {@value #DEFAULT_MAX_PUBLISHERS}. Datagrams of a further session are dropped and counted until
 *     a stream ends, so forged or runaway session ids cannot grow a receiver's memory without bound:
 *     each stream may hold up to a reorder window (logged at start)
 * @param allowedClasses the classes an object codec (JDK, FST, Kryo) may decode, as binary
 *     class names; default none. Decoding untrusted bytes is an attack surface: list exactly the
 *     message classes
 * @param offerBuffer each publication's hand-over from the application's thread to the sending
 *     thread; default {@code 2m}. An eighth of it is the largest message a publication takes (and at
 *     most half the history in fragments); more absorbs longer bursts of offers. At least {@code 4k}
 * @param maxMessage the largest message a receiver reassembles; a longer one is dropped with a loss
 *     event ({@code MESSAGE_TOO_LARGE}). Default {@code 1m}; it bounds the memory a forged run of
 *     fragments can take. The delivery queue must carry it
 * @param reorderWindow how many datagrams ahead of a gap a receiver holds while the gap is repaired,
 *     per publisher stream: a power of two, or 0 (the default) to size it from the transport, twice
 *     the datagrams its socket receive buffer holds (a repair queues behind everything already in
 *     that buffer, so a smaller window overflows while the repair is on its way)
 * @param linger how long a partly filled datagram waits for more messages once the application
 *     stops offering; default {@code 0}: it goes as soon as the offers run dry, the lowest latency.
 *     A few microseconds trade latency for fuller datagrams at low rates
 * @param record whether a recorder run with this config records the topic: every publisher stream
 *     of it to disk, in order and repaired, in the {@code recorder:} section's directory; default
 *     false. Its {@code max-message} must fit half a segment ({@link RecorderConfig#segmentLength()})
 */
public record TopicConfig(
    @RequiredKey @JsonProperty("name") String name,
    @RequiredKey @JsonProperty("id") int id,
    @JsonProperty("transports") @JsonAlias("transport")
    @JsonFormat(with = JsonFormat.Feature.ACCEPT_SINGLE_VALUE_AS_ARRAY) List<String> lines,
    @RequiredKey @JsonProperty("codec") String codec,
    @JsonProperty("history") ByteSize history,
    @JsonProperty("heartbeat") Duration heartbeat,
    @JsonProperty("flow-control") FlowControlMode flowControl,
    @JsonProperty("flow-control-timeout") Duration flowControlTimeout,
    @JsonProperty("loss-policy") LossPolicy lossPolicy,
    @JsonProperty("late-join") LateJoinPolicy lateJoin,
    @JsonProperty("publisher-timeout") Duration publisherTimeout,
    @JsonProperty("line-timeout") Duration lineTimeout,
    @JsonProperty("close-linger") Duration closeLinger,
    @JsonProperty("delivery-queue") ByteSize deliveryQueue,
    @JsonProperty("delivery-queue-timeout") Duration deliveryQueueTimeout,
    @JsonProperty("max-publishers") Integer maxPublishers,
    @JsonProperty("allowed-classes") List<String> allowedClasses,
    @JsonProperty("offer-buffer") ByteSize offerBuffer,
    @JsonProperty("max-message") ByteSize maxMessage,
    @JsonProperty("reorder-window") Integer reorderWindow,
    @JsonProperty("linger") Duration linger,
    @JsonProperty("record") Boolean record,
    @JsonProperty("recorders") List<Endpoint> recorders) {

    /** The default history per topic. */
    public static final ByteSize DEFAULT_HISTORY = ByteSize.parse("16m");
    /** The default heartbeat interval. */
    public static final Duration DEFAULT_HEARTBEAT = Duration.ofMillis(100);
    /** The default flow control: the publisher waits for its slowest live receiver, so nobody loses messages. */
    public static final FlowControlMode DEFAULT_FLOW_CONTROL = FlowControlMode.MIN;
    /** The default flow-control timeout. */
    public static final Duration DEFAULT_FLOW_CONTROL_TIMEOUT = Duration.ofSeconds(2);
    /** The default loss policy: report the loss and go on. */
    public static final LossPolicy DEFAULT_LOSS_POLICY = LossPolicy.CONTINUE;
    /** The default late-join policy: start at the live edge. */
    public static final LateJoinPolicy DEFAULT_LATE_JOIN = LateJoinPolicy.NOW;

    /** The default time a receiver waits for a lagging line before it declares that line down. */
    public static final Duration DEFAULT_LINE_TIMEOUT = Duration.ofMillis(10);
    /** The most lines a topic travels on: line A and line B. */
    public static final int MAX_LINES = 2;
    /** The most recorders a topic names: A and B. */
    public static final int MAX_RECORDERS = 2;

    /** The default publisher timeout. */
    public static final Duration DEFAULT_PUBLISHER_TIMEOUT = Duration.ofSeconds(2);
    /** The default time a closed publication answers NAKs after its end-of-stream marker. */
    public static final Duration DEFAULT_CLOSE_LINGER = Duration.ofMillis(100);

    /** The default delivery queue per subscription. */
    public static final ByteSize DEFAULT_DELIVERY_QUEUE = ByteSize.parse("4m");
    /** The default time a topic waits for a full delivery queue before that subscription is overrun. */
    public static final Duration DEFAULT_DELIVERY_QUEUE_TIMEOUT = Duration.ofMillis(100);
    /** The default number of publisher streams a receiver keeps per topic. */
    public static final int DEFAULT_MAX_PUBLISHERS = 64;
    /** The default offer buffer per publication. */
    public static final ByteSize DEFAULT_OFFER_BUFFER = ByteSize.parse("2m");
    /** The default largest message a receiver reassembles. */
    public static final ByteSize DEFAULT_MAX_MESSAGE = ByteSize.parse("1m");
    /** The default reorder window: 0, sized from the transport's socket receive buffer. */
    public static final int DEFAULT_REORDER_WINDOW = 0;
    /** The default linger: none. */
    public static final Duration DEFAULT_LINGER = Duration.ZERO;

    /** Applies the defaults for what is null and copies the lists. */
    public TopicConfig {
        lines = Lists.copyOf(lines);
        history = history == null ? DEFAULT_HISTORY : history;
        heartbeat = heartbeat == null ? DEFAULT_HEARTBEAT : heartbeat;
        flowControl = flowControl == null ? DEFAULT_FLOW_CONTROL : flowControl;
        flowControlTimeout = flowControlTimeout == null ? DEFAULT_FLOW_CONTROL_TIMEOUT : flowControlTimeout;
        lossPolicy = lossPolicy == null ? DEFAULT_LOSS_POLICY : lossPolicy;
        lateJoin = lateJoin == null ? DEFAULT_LATE_JOIN : lateJoin;
        publisherTimeout = publisherTimeout == null ? DEFAULT_PUBLISHER_TIMEOUT : publisherTimeout;
        lineTimeout = lineTimeout == null ? DEFAULT_LINE_TIMEOUT : lineTimeout;
        closeLinger = closeLinger == null ? DEFAULT_CLOSE_LINGER : closeLinger;
        deliveryQueue = deliveryQueue == null ? DEFAULT_DELIVERY_QUEUE : deliveryQueue;
        deliveryQueueTimeout = deliveryQueueTimeout == null ? DEFAULT_DELIVERY_QUEUE_TIMEOUT : deliveryQueueTimeout;
        maxPublishers = maxPublishers == null ? DEFAULT_MAX_PUBLISHERS : maxPublishers;
        allowedClasses = Lists.copyOf(allowedClasses);
        offerBuffer = offerBuffer == null ? DEFAULT_OFFER_BUFFER : offerBuffer;
        maxMessage = maxMessage == null ? DEFAULT_MAX_MESSAGE : maxMessage;
        reorderWindow = reorderWindow == null ? DEFAULT_REORDER_WINDOW : reorderWindow;
        linger = linger == null ? DEFAULT_LINGER : linger;
        record = record != null && record;
        recorders = Lists.copyOf(recorders);
    }

    /**
     * A topic with every optional setting at its default.
     *
     * @param name the topic's name
     * @param id the topic's id on the wire
     * @param transport the name of its transport
     * @param codec the name of its codec
     */
    public TopicConfig(String name, int id, String transport, String codec) {
        this(name, id, transport == null ? List.of() : List.of(transport), codec, null, null, null, null, null, null,
            null, null, null, null, null, null, null, null, null, null, null, null, null);
    }

    /** @return true if the topic travels on two lines */
    public boolean hasTwoLines() {
        return lines.size() == MAX_LINES;
    }

    /**
     * @param lineA the name of the transport of line A
     * @param lineB the name of the transport of line B
     * @return this topic on those two lines
     */
    public TopicConfig withLines(String lineA, String lineB) {
        return RecordKeys.with(this, "transports", List.of(lineA, lineB));
    }

    /** @return this topic with that codec */
    public TopicConfig withCodec(String codecName) {
        return RecordKeys.with(this, "codec", codecName);
    }

    /** @return this topic with that history */
    public TopicConfig withHistory(ByteSize size) {
        return RecordKeys.with(this, "history", size);
    }

    /** @return this topic with that heartbeat interval */
    public TopicConfig withHeartbeat(Duration interval) {
        return RecordKeys.with(this, "heartbeat", interval);
    }

    /** @return this topic with that flow control */
    public TopicConfig withFlowControl(FlowControlMode mode) {
        return RecordKeys.with(this, "flow-control", mode);
    }

    /** @return this topic with that flow-control timeout */
    public TopicConfig withFlowControlTimeout(Duration timeout) {
        return RecordKeys.with(this, "flow-control-timeout", timeout);
    }

    /** @return this topic with that loss policy */
    public TopicConfig withLossPolicy(LossPolicy policy) {
        return RecordKeys.with(this, "loss-policy", policy);
    }

    /** @return this topic with those recorders (A, then B) to recover from */
    public TopicConfig withRecorders(List<Endpoint> endpoints) {
        return RecordKeys.with(this, "recorders", endpoints);
    }

    /** @return this topic with that late-join policy */
    public TopicConfig withLateJoin(LateJoinPolicy policy) {
        return RecordKeys.with(this, "late-join", policy);
    }

    /** @return this topic with that publisher timeout */
    public TopicConfig withPublisherTimeout(Duration timeout) {
        return RecordKeys.with(this, "publisher-timeout", timeout);
    }

    /** @return this topic with that line timeout */
    public TopicConfig withLineTimeout(Duration timeout) {
        return RecordKeys.with(this, "line-timeout", timeout);
    }

    /** @return this topic with that close linger */
    public TopicConfig withCloseLinger(Duration closeLingerTime) {
        return RecordKeys.with(this, "close-linger", closeLingerTime);
    }

    /**
     * @param queue the delivery queue per subscription that is polled
     * @param queueTimeout how long the topic waits for a full queue whose poller takes nothing
     * @return this topic with that delivery queue
     */
    public TopicConfig withDeliveryQueue(ByteSize queue, Duration queueTimeout) {
        return RecordKeys.with(RecordKeys.with(this, "delivery-queue", queue), "delivery-queue-timeout", queueTimeout);
    }

    /** @return this topic with that allow-list of binary class names */
    public TopicConfig withAllowedClasses(List<String> classNames) {
        return RecordKeys.with(this, "allowed-classes", classNames);
    }

    /** @return this topic with that limit on publisher streams */
    public TopicConfig withMaxPublishers(int streams) {
        return RecordKeys.with(this, "max-publishers", streams);
    }

    /** @return this topic with that offer buffer */
    public TopicConfig withOfferBuffer(ByteSize size) {
        return RecordKeys.with(this, "offer-buffer", size);
    }

    /** @return this topic with that largest received message */
    public TopicConfig withMaxMessage(ByteSize size) {
        return RecordKeys.with(this, "max-message", size);
    }

    /** @return this topic with that reorder window, in datagrams (0: sized from the transport) */
    public TopicConfig withReorderWindow(int datagrams) {
        return RecordKeys.with(this, "reorder-window", datagrams);
    }

    /** @return this topic with that linger */
    public TopicConfig withLinger(Duration lingerTime) {
        return RecordKeys.with(this, "linger", lingerTime);
    }

    /** @return this topic, recorded by a recorder run with its config or not */
    public TopicConfig withRecord(boolean recorded) {
        return RecordKeys.with(this, "record", recorded);
    }
}
