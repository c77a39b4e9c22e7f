package org.nakcast.transport.receive;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import org.agrona.CloseHelper;
import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.nakcast.config.LateJoinPolicy;
import org.nakcast.transport.MessageHandler;
import org.nakcast.transport.PublisherGone;
import org.nakcast.transport.StreamEventListener;
import org.nakcast.transport.loss.LossGenerator;
import org.nakcast.transport.loss.LossySink;
import org.nakcast.transport.media.AgentTransports;
import org.nakcast.transport.media.ControlPollSchedule;
import org.nakcast.transport.media.DatagramSink;
import org.nakcast.transport.media.MulticastAddress;
import org.nakcast.transport.media.MulticastReceiver;
import org.nakcast.transport.media.MulticastSender;
import org.nakcast.transport.protocol.DatagramCheck;
import org.nakcast.transport.protocol.DatagramValidator;
import org.nakcast.transport.protocol.FrameType;
import org.nakcast.transport.protocol.HeaderFlyweight;
import org.nakcast.transport.protocol.HeartbeatFlyweight;
import org.nakcast.transport.protocol.NakFlyweight;
import org.nakcast.transport.protocol.StatusFlyweight;
import org.nakcast.transport.protocol.UnrecoverableFlyweight;
import org.nakcast.transport.status.SystemCounter;
import org.nakcast.transport.status.SystemCounters;

/**
 * The receiving side of a node: reads each transport's data port, checks every datagram, hands
 * it to the stream of its (topic, publisher session), fires NAK timers, and listens on the control
 * port for other receivers' NAKs so as to keep quiet about ranges already asked for. A datagram
 * for a topic nobody on this node subscribed to is counted and dropped: such a topic costs no
 * buffers. New subscriptions arrive through a bounded command queue.
 */
public final class ReceiverAgent implements Agent {
    private static final int POLL_LIMIT = 64;
    /** How often silent streams are looked for: a millisecond. */
    private static final long SILENCE_CHECK_INTERVAL_NS = 1_000_000;

    private final NanoClock clock;
    private final SystemCounters counters;
    private final LossGenerator sendLoss;
    private final LossGenerator receiveLoss;
    private final int receiverId;
    private final SplittableRandom random;
    private final AgentTransports<ReceivingTransport> transports =
        new AgentTransports<>(transport -> transport.address);
    private final Int2ObjectHashMap<TopicReceiver> topics = new Int2ObjectHashMap<>();
    private final List<InboundStream> streams = new ArrayList<>();
    private final HeaderFlyweight header = new HeaderFlyweight();
    private final ControlPollSchedule controlPolls = new ControlPollSchedule();
    private long lastSilenceCheckNs = Long.MIN_VALUE;
    private final NakFlyweight nak = new NakFlyweight();
    private final StatusFlyweight status = new StatusFlyweight();
    private final UnrecoverableFlyweight unrecoverable = new UnrecoverableFlyweight();
    private final HeartbeatFlyweight heartbeat = new HeartbeatFlyweight();

    /**
     * @param clock the time source for every timer
     * @param counters the node's counters
     * @param sendLoss loss injected on NAKs this agent sends
     * @param receiveLoss loss injected on datagrams this agent receives (data and control)
     * @param seed seeds the receiver id and the NAK delays
     */
    public ReceiverAgent(
        NanoClock clock, SystemCounters counters, LossGenerator sendLoss, LossGenerator receiveLoss, long seed) {
        this.clock = clock;
        this.counters = counters;
        this.sendLoss = sendLoss;
        this.receiveLoss = receiveLoss;
        this.random = new SplittableRandom(seed);
        this.receiverId = random.nextInt();
    }

    /** This receiver's id, carried in its NAKs. */
    public int receiverId() {
        return receiverId;
    }

    /**
     * Opens what a subscription needs and hands it to the receiving thread. Sockets are opened
     * here, on the caller's thread, so that a port in use fails this call, not the agent.
     *
     * @param gate when the subscription can take messages; {@link DeliveryGate#OPEN} for delivery on
     *     the receiving thread
     * @throws org.nakcast.transport.TransportException if a socket cannot be opened
     */
    public void addSubscription(
        SubscriptionSettings settings, MessageHandler handler, StreamEventListener listener, DeliveryGate gate) {
        final ReceivingTransport transport = transports.open(settings.address(), ReceivingTransport::new);
        transports.enqueue(() -> {
            TopicReceiver topic = topics.get(settings.topicId());
            if (topic == null) {
                topic = new TopicReceiver(settings, transport);
                topics.put(settings.topicId(), topic);
            }
            topic.add(handler, listener, gate);
        });
    }

    /** Ends the subscription whose handler is {@code handler}; its streams go when the topic has none left. */
    public void removeSubscription(int topicId, MessageHandler handler) {
        transports.enqueue(() -> {
            final TopicReceiver topic = topics.get(topicId);
            if (topic != null && topic.remove(handler)) {
                topics.remove(topicId);
                streams.removeAll(topic.streams());
                topic.streams().forEach(InboundStream::close);
            }
        });
    }

    @Override
    public int doWork() {
        int work = transports.runCommands();
        final long nowNs = clock.nanoTime();
        for (int i = 0, size = transports.size(); i < size; i++) {
            work += pollData(transports.get(i), nowNs);
        }
        if (controlPolls.isDue(nowNs)) {
            boolean stoppedAtLimit = false;
            for (int i = 0, size = transports.size(); i < size; i++) {
                final int read = pollControl(transports.get(i).control, nowNs);
                stoppedAtLimit |= read >= POLL_LIMIT;
                work += read;
            }
            controlPolls.polled(nowNs, stoppedAtLimit);
        }
        for (int i = 0, size = streams.size(); i < size; i++) {
            work += streams.get(i).poll(nowNs);
        }
        return work + endSilentStreams(nowNs);
    }

    /**
     * Closes every stream not heard from for longer than its topic's publisher timeout. Looks at
     * most once per {@link #SILENCE_CHECK_INTERVAL_NS}: timeouts are counted in seconds, and a
     * round that waits for a datagram should not walk every stream.
     */
    private int endSilentStreams(long nowNs) {
        if (lastSilenceCheckNs != Long.MIN_VALUE && nowNs - lastSilenceCheckNs < SILENCE_CHECK_INTERVAL_NS) {
            return 0;
        }
        lastSilenceCheckNs = nowNs;
        int ended = 0;
        for (int i = streams.size() - 1; i >= 0; i--) {
            final InboundStream stream = streams.get(i);
            final TopicReceiver topic = topics.get(stream.topicId());
            final long silentNs = nowNs - stream.lastHeardNs();
            if (silentNs > topic.settings().publisherTimeoutNs()) {
                end(i, topic, PublisherGone.Cause.SILENT, silentNs, 0);
                ended++;
            }
        }
        return ended;
    }

    /**
     * Learns a stream's publisher id from its heartbeat. Another session of the same topic with the
     * same publisher id that has been silent for longer than a heartbeat interval is that publisher
     * before a restart, and ends. One still talking is not: a restarted publisher's old session
     * falls silent, and a heartbeat alone (forged, or two publishers sharing a name) cannot end a
     * live stream.
     */
    private void identify(TopicReceiver topic, InboundStream stream, long publisherId, long nowNs) {
        stream.identify(publisherId);
        endEarlierSessions(topic, publisherId, stream.sessionId(), nowNs);
    }

    /**
     * Ends the streams of {@code publisherId} on the topic, other than {@code newSessionId}, that have
     * been silent for more than a heartbeat: that publisher restarted as the new session.
     */
    private void endEarlierSessions(TopicReceiver topic, long publisherId, int newSessionId, long nowNs) {
        final long heartbeatNs = topic.settings().heartbeatNs();
        for (int i = streams.size() - 1; i >= 0; i--) {
            final InboundStream other = streams.get(i);
            if (other.sessionId() != newSessionId && other.topicId() == topic.settings().topicId()
                && other.isIdentified() && other.publisherId() == publisherId
                && nowNs - other.lastHeardNs() > heartbeatNs) {
                end(i, topic, PublisherGone.Cause.RESTARTED, nowNs - other.lastHeardNs(), newSessionId);
            }
        }
    }

    private void end(int index, TopicReceiver topic, PublisherGone.Cause cause, long silentNs, int newSessionId) {
        final InboundStream stream = streams.remove(index);
        topic.removeStream(stream.sessionId());
        stream.close();
        topic.onPublisherGone(new PublisherGone(stream.topicId(), stream.sessionId(), cause, silentNs, newSessionId));
    }

    private int pollData(ReceivingTransport transport, long nowNs) {
        int work = 0;
        for (int i = 0; i < POLL_LIMIT; i++) {
            final int length = transport.data.receive();
            if (length <= 0) {
                break;
            }
            work++;
            final UnsafeBuffer buffer = transport.data.buffer();
            if (accepted(buffer, length)) {
                dispatchData(buffer, length, nowNs);
            }
        }
        return work;
    }

    private boolean accepted(UnsafeBuffer buffer, int length) {
        if (receiveLoss.shouldDrop(buffer, 0, length)) {
            counters.get(SystemCounter.LOSS_INJECTED).increment();
            return false;
        }
        final DatagramCheck check = DatagramValidator.check(buffer, 0, length);
        if (check != DatagramCheck.VALID) {
            counters.countMalformed(check);
            return false;
        }
        return true;
    }

    private void dispatchData(UnsafeBuffer buffer, int length, long nowNs) {
        header.wrap(buffer, 0);
        final TopicReceiver topic = topics.get(header.topicId());
        if (topic == null) {
            counters.get(SystemCounter.NOT_SUBSCRIBED).increment();
            return;
        }
        final int type = header.typeCode();
        if (type == FrameType.UNRECOVERABLE.code()) {
            final InboundStream stream = topic.stream(header.sessionId());
            if (stream != null) {
                unrecoverable.wrap(buffer, 0);
                stream.onUnrecoverable(unrecoverable.fromSequence(), unrecoverable.toSequence(),
                    unrecoverable.firstMessageAfter(), nowNs);
            }
            return;
        }
        InboundStream stream = topic.stream(header.sessionId());
        if (stream == null) {
            if (topic.isFull() && type == FrameType.HEARTBEAT.code()) {
                heartbeat.wrap(buffer, 0);
                endEarlierSessions(topic, heartbeat.publisherId(), header.sessionId(), nowNs);
            }
            if (topic.isFull()) {
                counters.get(SystemCounter.PUBLISHER_STREAMS_REFUSED).increment();
                topic.onSessionRefused(header.sessionId());
                return;
            }
            stream = join(topic, type, buffer, nowNs);
            if (stream == null) {
                return;
            }
        }
        if (type == FrameType.HEARTBEAT.code()) {
            stream.onHeartbeat(header.sequence(), nowNs);
            heartbeat.wrap(buffer, 0);
            identify(topic, stream, heartbeat.publisherId(), nowNs);
        } else if (type == FrameType.DATA.code() || type == FrameType.RETRANSMIT.code()) {
            stream.onData(buffer, 0, length, type == FrameType.RETRANSMIT.code(), nowNs);
        }
    }

    /**
     * A publisher stream heard for the first time. Late join {@code now}: it starts with the
     * datagram in hand. Late join {@code oldest}: it waits for the publisher's heartbeat (at most a
     * heartbeat interval) and starts an eighth of the way into the history the heartbeat reports,
     * so the replay it NAKs for is not overtaken by the history moving on while it is repaired.
     *
     * @return the new stream, or null while an {@code oldest} joiner waits for a heartbeat
     */
    private InboundStream join(TopicReceiver topic, int type, UnsafeBuffer buffer, long nowNs) {
        final SubscriptionSettings settings = topic.settings();
        final boolean replay = settings.lateJoin() == LateJoinPolicy.OLDEST;
        if (replay && type != FrameType.HEARTBEAT.code()) {
            return null;
        }
        final ReceivingTransport transport = topic.transport();
        final int sessionId = header.sessionId();
        final InboundStream stream = new InboundStream(settings.topicId(), sessionId, receiverId,
            settings.streamSettings(), random.split(), topic, topic, transport.nakSink, transport.nakBuffer, counters);
        topic.addStream(sessionId, stream);
        streams.add(stream);
        stream.deliverWhen(topic);
        stream.reportPositions(
            new ReceiverPositionCounters(counters.streams(), settings.topicName(), settings.topicId(), sessionId));
        if (settings.statusKeepAliveNs() > 0) {
            stream.reportStatus(settings.statusKeepAliveNs());
        }
        if (replay) {
            heartbeat.wrap(buffer, 0);
            final long liveEdge = heartbeat.sequence() + 1;
            final long replayFrom = heartbeat.oldestSequence() + (liveEdge - heartbeat.oldestSequence()) / 8;
            if (replayFrom < liveEdge) {
                stream.startAt(replayFrom, nowNs);
            }
        }
        return stream;
    }

    private int pollControl(MulticastReceiver control, long nowNs) {
        int work = 0;
        for (int i = 0; i < POLL_LIMIT; i++) {
            final int length = control.receive();
            if (length <= 0) {
                break;
            }
            work++;
            final UnsafeBuffer buffer = control.buffer();
            final int type = HeaderFlyweight.typeCodeAt(buffer, 0);
            if (!accepted(buffer, length) || type != FrameType.NAK.code() && type != FrameType.STATUS.code()) {
                continue;
            }
            nak.wrap(buffer, 0);
            status.wrap(buffer, 0);
            final int sender = type == FrameType.STATUS.code() ? status.receiverId() : nak.receiverId();
            if (sender == receiverId) {
                continue;
            }
            final TopicReceiver topic = topics.get(nak.topicId());
            final InboundStream stream = topic == null ? null : topic.stream(nak.sessionId());
            if (stream != null && type == FrameType.STATUS.code()) {
                stream.onStatusHeard(sender, nowNs);
            } else if (stream != null) {
                stream.onNakHeard(nak, nowNs);
            }
        }
        return work;
    }

    @Override
    public void onClose() {
        streams.forEach(InboundStream::close);
        transports.forEachOpened(
            transport -> CloseHelper.closeAll(transport.data, transport.control, transport.nakSender));
    }

    @Override
    public String roleName() {
        return "nakcast-receiver";
    }

    /** The sockets one transport needs on the receiving side. */
    final class ReceivingTransport {
        private final MulticastAddress address;
        private final MulticastReceiver data;
        private final MulticastReceiver control;
        private final MulticastSender nakSender;
        private final DatagramSink nakSink;
        private final UnsafeBuffer nakBuffer;

        private ReceivingTransport(MulticastAddress address) {
            this.address = address;
            this.data = new MulticastReceiver(address, address.dataPort(), counters);
            MulticastReceiver openedControl = null;
            try {
                openedControl = new MulticastReceiver(address, address.controlPort(), counters);
                this.nakSender = new MulticastSender(address, address.controlPort(), counters);
            } catch (RuntimeException ex) {
                CloseHelper.closeAll(data, openedControl);
                throw ex;
            }
            this.control = openedControl;
            this.nakSink = sendLoss == LossGenerator.NONE
                ? nakSender
                : new LossySink(nakSender, sendLoss, counters.get(SystemCounter.LOSS_INJECTED));
            this.nakBuffer = new UnsafeBuffer(ByteBuffer.allocateDirect(HeaderFlyweight.MAX_DATAGRAM_LENGTH));
        }
    }
}
