package org.nakcast.transport.publish;

import java.util.ArrayList;
import java.util.List;

import org.agrona.CloseHelper;
import org.agrona.collections.Long2ObjectHashMap;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.nakcast.transport.PublisherEventListener;
import org.nakcast.transport.loss.LossGenerator;
import org.nakcast.transport.media.AgentTransports;
import org.nakcast.transport.media.ControlPollSchedule;
import org.nakcast.transport.loss.LossySink;
import org.nakcast.transport.media.DatagramSink;
import org.nakcast.transport.media.MulticastAddress;
import org.nakcast.transport.media.MulticastReceiver;
import org.nakcast.transport.media.MulticastSender;
import org.nakcast.transport.protocol.DatagramCheck;
import org.nakcast.transport.protocol.DatagramValidator;
import org.nakcast.transport.protocol.FrameType;
import org.nakcast.transport.protocol.HeaderFlyweight;
import org.nakcast.transport.protocol.NakFlyweight;
import org.nakcast.transport.protocol.StatusFlyweight;
import org.nakcast.transport.status.SystemCounter;
import org.nakcast.transport.status.SystemCounters;

/**
 * The sending side of a node: drives every publisher stream (pack, send, heartbeat) and answers
 * the NAKs heard on each transport's control port. New publications arrive through a bounded
 * command queue, so the application thread never touches the streams.
 */
public final class SenderAgent implements Agent {
    private static final int CONTROL_POLL_LIMIT = 64;

    private final NanoClock clock;
    private final SystemCounters counters;
    private final LossGenerator sendLoss;
    private final LossGenerator receiveLoss;
    private final List<OutboundStream> streams = new ArrayList<>();
    private final Long2ObjectHashMap<OutboundStream> streamsByKey = new Long2ObjectHashMap<>();
    private final AgentTransports<SendingTransport> transports = new AgentTransports<>(transport -> transport.address);
    private final NakFlyweight nak = new NakFlyweight();
    private final StatusFlyweight status = new StatusFlyweight();
    private final ControlPollSchedule controlPolls = new ControlPollSchedule();
    private final PublisherEventListener events;

    /**
     * @param clock the time source for every timer
     * @param counters the node's counters
     * @param sendLoss loss injected on datagrams this agent sends
     * @param receiveLoss loss injected on NAKs and STATUS this agent receives
     * @param events told when flow control drops a receiver
     */
    public SenderAgent(NanoClock clock, SystemCounters counters, LossGenerator sendLoss, LossGenerator receiveLoss,
        PublisherEventListener events) {
        this.events = events;
        this.clock = clock;
        this.counters = counters;
        this.sendLoss = sendLoss;
        this.receiveLoss = receiveLoss;
    }

    /**
     * Opens what a new publication needs and hands it to the sending thread. Sockets are opened
     * here, on the caller's thread, so that a port in use fails this call, not the agent.
     *
     * @param settings the stream's settings
     * @param offers what the application offers into
     * @throws org.nakcast.transport.TransportException if a socket cannot be opened
     */
    public void addPublication(PublicationSettings settings, OfferBuffer offers) {
        final SendingTransport transport = transports.open(settings.address(), SendingTransport::new);
        final DatagramHistory history = new DatagramHistory(settings.historyBytes(), settings.datagramLength());
        final SendRateLimiter limiter = settings.sendRateBytesPerSecond() == 0
            ? SendRateLimiter.unpaced()
            : new SendRateLimiter(settings.sendRateBytesPerSecond(), settings.burstBytes());
        final FlowControl flowControl = flowControl(settings, history);
        offers.connected(flowControl.hasReceivers());
        final OutboundStream stream = new OutboundStream(settings.sessionId(), settings.topicId(),
            settings.publisherId(), settings.timing(), offers, history, limiter,
            new RepairBudget(settings.repairRateBytesPerSecond(), settings.repairBurstBytes(),
                settings.repairPercentOfData()), flowControl, events,
            transport.dataSink, counters);
        stream.reportPosition(counters.streams(), settings.topicName());
        transports.enqueue(() -> {
            streams.add(stream);
            streamsByKey.put(streamKey(settings.sessionId(), settings.topicId()), stream);
        });
    }

    /**
     * The stream's flow control. With {@code min} it may run half its history ahead of the slowest
     * receiver: what that receiver still misses stays in history, with room to repair it.
     */
    private FlowControl flowControl(PublicationSettings settings, DatagramHistory history) {
        if (!settings.minFlowControl()) {
            return FlowControl.MAX;
        }
        return new MinFlowControl(settings.topicId(), settings.sessionId(), history.capacity() / 2,
            settings.flowControlTimeoutNs(), history.capacity(), events, counters.get(SystemCounter.RECEIVERS_DROPPED));
    }

    /** How many datagrams the history of a publication with these settings keeps. */
    public static int historyDatagrams(PublicationSettings settings) {
        return DatagramHistory.slotsFor(settings.historyBytes(), settings.datagramLength());
    }

    /** The most bytes one message may have on a publication with these settings. */
    public static int maxMessageLength(PublicationSettings settings) {
        final int slots = DatagramHistory.slotsFor(settings.historyBytes(), settings.datagramLength());
        return (slots / 2) * OutboundStream.maxFragmentLength(settings.datagramLength());
    }

    @Override
    public int doWork() {
        int work = transports.runCommands();
        final long nowNs = clock.nanoTime();
        // Control first: NAKs and STATUS that waited while this thread was off the CPU count before a
        // silent receiver is judged gone or new data takes the send budget.
        if (controlPolls.isDue(nowNs)) {
            boolean stoppedAtLimit = false;
            for (int i = 0, size = transports.size(); i < size; i++) {
                final int read = pollControl(transports.get(i).control, nowNs);
                stoppedAtLimit |= read >= CONTROL_POLL_LIMIT;
                work += read;
            }
            controlPolls.polled(nowNs, stoppedAtLimit);
        }
        for (int i = 0, size = streams.size(); i < size; i++) {
            work += streams.get(i).doWork(nowNs);
        }
        return work;
    }

    private int pollControl(MulticastReceiver control, long nowNs) {
        int work = 0;
        for (int i = 0; i < CONTROL_POLL_LIMIT; i++) {
            final int length = control.receive();
            if (length <= 0) {
                break;
            }
            work++;
            final UnsafeBuffer buffer = control.buffer();
            if (receiveLoss.shouldDrop(buffer, 0, length)) {
                counters.get(SystemCounter.LOSS_INJECTED).increment();
                continue;
            }
            final DatagramCheck check = DatagramValidator.check(buffer, 0, length);
            if (check != DatagramCheck.VALID) {
                counters.countMalformed(check);
                continue;
            }
            final int type = HeaderFlyweight.typeCodeAt(buffer, 0);
            if (type == FrameType.NAK.code()) {
                nak.wrap(buffer, 0);
                final OutboundStream stream = streamsByKey.get(streamKey(nak.sessionId(), nak.topicId()));
                if (stream != null) {
                    work += stream.onNak(nak, nowNs);
                }
            } else if (type == FrameType.STATUS.code()) {
                status.wrap(buffer, 0);
                final OutboundStream stream = streamsByKey.get(streamKey(status.sessionId(), status.topicId()));
                if (stream != null) {
                    stream.onStatus(status.receiverId(), status.sequence(), nowNs);
                }
            }
        }
        return work;
    }

    private static long streamKey(int sessionId, int topicId) {
        return ((long) sessionId << 32) | (topicId & 0xFFFF_FFFFL);
    }

    @Override
    public void onClose() {
        streams.forEach(OutboundStream::close);
        transports.forEachOpened(transport -> CloseHelper.closeAll(transport.control, transport.dataSender));
    }

    @Override
    public String roleName() {
        return "nakcast-sender";
    }

    /** The sockets one transport needs on the sending side. */
    private final class SendingTransport {
        private final MulticastAddress address;
        private final MulticastSender dataSender;
        private final DatagramSink dataSink;
        private final MulticastReceiver control;

        private SendingTransport(MulticastAddress address) {
            this.address = address;
            this.dataSender = new MulticastSender(address, address.dataPort(), counters);
            try {
                this.control = new MulticastReceiver(address, address.controlPort(), counters);
            } catch (RuntimeException ex) {
                dataSender.close();
                throw ex;
            }
            this.dataSink = sendLoss == LossGenerator.NONE
                ? dataSender
                : new LossySink(dataSender, sendLoss, counters.get(SystemCounter.LOSS_INJECTED));
        }
    }
}
