package org.nakcast.transport.receive;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.function.Function;

import org.agrona.CloseHelper;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.nakcast.transport.lossinjection.LossGenerator;
import org.nakcast.transport.lossinjection.LossySink;
import org.nakcast.transport.media.AgentTransports;
import org.nakcast.transport.media.ControlPollSchedule;
import org.nakcast.transport.media.DatagramReceiver;
import org.nakcast.transport.media.DatagramSender;
import org.nakcast.transport.media.DatagramSink;
import org.nakcast.transport.media.EveryLineSink;
import org.nakcast.transport.media.Line;
import org.nakcast.transport.media.Media;
import org.nakcast.transport.media.MulticastAddress;
import org.nakcast.transport.protocol.HeaderFlyweight;
import org.nakcast.transport.status.SystemCounter;
import org.nakcast.transport.status.SystemCounters;

/**
 * The receiving side of a node on a thread: owns each transport's data and control sockets and
 * the socket NAKs go out on, reads them into a {@link ReceiveDispatcher} and lets it poll. New
 * subscriptions arrive through a bounded command queue.
 *
 * <p>A subscription to a topic on two lines opens both lines' sockets (a transport shared with
 * other topics is opened once), tells the dispatcher which line each data datagram came in on, and
 * sends its streams' NAKs and STATUS on both lines through one {@link EveryLineSink}, so a dead
 * line does not take them.
 *
 * <p>The sockets come from the node's {@link Media}; NAKs and STATUS a media holds back to send
 * together go to the kernel at the end of each duty cycle.
 */
public final class ReceiverAgent implements Agent {
    private static final int POLL_LIMIT = 64;

    private final NanoClock clock;
    private final Media media;
    private final SystemCounters counters;
    private final LossGenerator sendLoss;
    private final Function<String, LossGenerator> receiveLoss;
    private final ReceiveDispatcher dispatcher;
    private final AgentTransports<ReceivingTransport> transports =
        new AgentTransports<>(transport -> transport.address);
    private final ControlPollSchedule controlPolls = new ControlPollSchedule();

    /**
     * @param clock the time source for every timer
     * @param media where the sockets come from
     * @param counters the node's counters
     * @param sendLoss loss injected on NAKs this agent sends
     * @param receiveLoss loss injected on datagrams this agent receives (data and control), by transport name
     * @param dispatcher the rules the datagrams read go to
     */
    public ReceiverAgent(NanoClock clock, Media media, SystemCounters counters, LossGenerator sendLoss,
        Function<String, LossGenerator> receiveLoss, ReceiveDispatcher dispatcher) {
        this.clock = clock;
        this.media = media;
        this.counters = counters;
        this.sendLoss = sendLoss;
        this.receiveLoss = receiveLoss;
        this.dispatcher = dispatcher;
    }

    /** This receiver's id, carried in its NAKs. */
    public int receiverId() {
        return dispatcher.receiverId();
    }

    /**
     * Opens what a subscription needs and hands it to the receiving thread. Sockets are opened
     * here, on the caller's thread, so that a port in use fails this call, not the agent.
     *
     * @param target where the subscription's messages and events go
     * @throws org.nakcast.transport.TransportException if a socket cannot be opened
     */
    public void addSubscription(SubscriptionSettings settings, DeliveryTarget target) {
        final List<ReceivingTransport> lines = settings.lines().stream()
            .map(line -> transports.open(line.address(), address -> new ReceivingTransport(line))).toList();
        final DatagramSink nakSink = EveryLineSink.of(lines.stream().map(line -> line.nakSink).toList());
        final UnsafeBuffer nakBuffer = lines.get(0).nakBuffer; // NAKs are written on the receiving thread alone
        transports.enqueue(() -> dispatcher.addSubscription(settings, target, nakSink, nakBuffer, clock.nanoTime()));
    }

    /** Ends the subscription {@code target}; its topic's streams go when the topic has none left. */
    public void removeSubscription(int topicId, DeliveryTarget target) {
        transports.enqueue(() -> dispatcher.removeSubscription(topicId, target));
    }

    @Override
    public int doWork() {
        int work = transports.runCommands();
        final long nowNs = clock.nanoTime();
        for (int i = 0, size = transports.size(); i < size; i++) {
            final ReceivingTransport transport = transports.get(i);
            work += pollData(transport, nowNs);
        }
        if (controlPolls.isDue(nowNs)) {
            boolean stoppedAtLimit = false;
            for (int i = 0, size = transports.size(); i < size; i++) {
                final int read = pollControl(transports.get(i), nowNs);
                stoppedAtLimit |= read >= POLL_LIMIT;
                work += read;
            }
            controlPolls.polled(nowNs, stoppedAtLimit);
        }
        work += dispatcher.poll(nowNs);
        for (int i = 0, size = transports.size(); i < size; i++) {
            transports.get(i).nakSender.flush();
        }
        return work;
    }

    private int pollData(ReceivingTransport transport, long nowNs) {
        final DatagramReceiver data = transport.data;
        int work = 0;
        for (int i = 0; i < POLL_LIMIT; i++) {
            final int length = data.receive();
            if (length <= 0) {
                break;
            }
            work++;
            if (!lostOnReceive(transport, data.buffer(), length)) {
                dispatcher.onDataDatagram(transport.address, data.source(), data.buffer(), 0, length, nowNs);
            }
        }
        return work;
    }

    private int pollControl(ReceivingTransport transport, long nowNs) {
        final DatagramReceiver control = transport.control;
        int work = 0;
        for (int i = 0; i < POLL_LIMIT; i++) {
            final int length = control.receive();
            if (length <= 0) {
                break;
            }
            work++;
            if (!lostOnReceive(transport, control.buffer(), length)) {
                dispatcher.onControlDatagram(control.buffer(), 0, length, nowNs);
            }
        }
        return work;
    }

    private boolean lostOnReceive(ReceivingTransport transport, UnsafeBuffer buffer, int length) {
        if (transport.receiveLoss.shouldDrop(buffer, 0, length)) {
            counters.get(SystemCounter.LOSS_INJECTED).increment();
            return true;
        }
        return false;
    }

    @Override
    public void onClose() {
        dispatcher.close();
        transports.forEachOpened(transport -> {
            transport.nakSender.flush();
            CloseHelper.closeAll(transport.data, transport.control, transport.nakSender);
        });
    }

    @Override
    public String roleName() {
        return "nakcast-receiver";
    }

    /** The sockets one transport needs on the receiving side. */
    private final class ReceivingTransport {
        private final MulticastAddress address;
        private final DatagramReceiver data;
        private final DatagramReceiver control;
        private final DatagramSender nakSender;
        private final DatagramSink nakSink;
        private final UnsafeBuffer nakBuffer;
        private final LossGenerator receiveLoss;

        private ReceivingTransport(Line line) {
            final MulticastAddress address = line.address();
            this.address = address;
            this.receiveLoss = ReceiverAgent.this.receiveLoss.apply(line.name());
            this.data = media.openReceiver(address, address.dataPort(), counters);
            DatagramReceiver openedControl = null;
            try {
                openedControl = media.openReceiver(address, address.controlPort(), counters);
                this.nakSender = media.openSender(address, address.controlPort(), counters);
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
