package org.nakcast.transport.publish;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import org.agrona.CloseHelper;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.nakcast.transport.PublisherEventListener;
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
import org.nakcast.transport.status.SystemCounter;
import org.nakcast.transport.status.SystemCounters;

/**
 * The sending side of a node on a thread: owns each transport's data and control sockets, reads
 * the control sockets into {@link PublisherStreams} and lets it send. New publications arrive
 * through a bounded command queue, so the application thread never touches the streams.
 *
 * <p>A publication on two lines sends every datagram on both lines' data ports through one
 * {@link EveryLineSink}, and hears NAKs and STATUS on both lines' control ports (a receiver sends
 * them on both): one session, one history, one sequence space.
 *
 * <p>The sockets come from the node's {@link Media}; what a media holds back to send together goes
 * to the kernel at the end of each duty cycle.
 */
public final class SenderAgent implements Agent {
    private static final int CONTROL_POLL_LIMIT = 64;

    private final NanoClock clock;
    private final Media media;
    private final SystemCounters counters;
    private final LossGenerator sendLoss;
    private final Function<String, LossGenerator> receiveLoss;
    private final PublisherStreams streams;
    private final AgentTransports<SendingTransport> transports = new AgentTransports<>(transport -> transport.address);
    private final ControlPollSchedule controlPolls = new ControlPollSchedule();

    /**
     * @param clock the time source for every timer
     * @param media where the sockets come from
     * @param counters the node's counters
     * @param sendLoss loss injected on datagrams this agent sends
     * @param receiveLoss loss injected on NAKs and STATUS this agent receives, by transport name
     * @param events told when flow control drops a receiver
     */
    public SenderAgent(NanoClock clock, Media media, SystemCounters counters, LossGenerator sendLoss,
        Function<String, LossGenerator> receiveLoss, PublisherEventListener events) {
        this.clock = clock;
        this.media = media;
        this.counters = counters;
        this.sendLoss = sendLoss;
        this.receiveLoss = receiveLoss;
        this.streams = new PublisherStreams(counters, events);
    }

    /**
     * Opens what a new publication needs and hands it to the sending thread. Sockets are opened and
     * the history allocated here, on the caller's thread, so that a port in use fails this call, not
     * the agent.
     *
     * @param settings the stream's settings
     * @param offers what the application offers into
     * @throws org.nakcast.transport.TransportException if a socket cannot be opened
     */
    public void addPublication(PublicationSettings settings, OfferBuffer offers) {
        final List<DatagramSink> lines = new ArrayList<>();
        for (Line line : settings.lines()) {
            lines.add(transports.open(line.address(), address -> new SendingTransport(line)).dataSink);
        }
        final OutboundStream stream = streams.create(settings, offers, EveryLineSink.of(lines));
        transports.enqueue(() -> streams.attach(stream));
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
                final int read = pollControl(transports.get(i), nowNs);
                stoppedAtLimit |= read >= CONTROL_POLL_LIMIT;
                work += read;
            }
            controlPolls.polled(nowNs, stoppedAtLimit);
        }
        work += streams.doWork(nowNs);
        for (int i = 0, size = transports.size(); i < size; i++) {
            transports.get(i).dataSender.flush();
        }
        return work;
    }

    private int pollControl(SendingTransport transport, long nowNs) {
        final DatagramReceiver control = transport.control;
        int work = 0;
        for (int i = 0; i < CONTROL_POLL_LIMIT; i++) {
            final int length = control.receive();
            if (length <= 0) {
                break;
            }
            work++;
            final UnsafeBuffer buffer = control.buffer();
            if (transport.receiveLoss.shouldDrop(buffer, 0, length)) {
                counters.get(SystemCounter.LOSS_INJECTED).increment();
                continue;
            }
            work += streams.onControlDatagram(transport.address, control.source(), buffer, 0, length, nowNs);
        }
        return work;
    }

    @Override
    public void onClose() {
        streams.close();
        transports.forEachOpened(transport -> {
            transport.dataSender.flush();
            CloseHelper.closeAll(transport.control, transport.dataSender);
        });
    }

    @Override
    public String roleName() {
        return "nakcast-sender";
    }

    /** The sockets one transport needs on the sending side. */
    private final class SendingTransport {
        private final MulticastAddress address;
        private final DatagramSender dataSender;
        private final DatagramSink dataSink;
        private final DatagramReceiver control;
        private final LossGenerator receiveLoss;

        private SendingTransport(Line line) {
            final MulticastAddress address = line.address();
            this.address = address;
            this.receiveLoss = SenderAgent.this.receiveLoss.apply(line.name());
            this.dataSender = media.openSender(address, address.dataPort(), counters);
            try {
                this.control = media.openReceiver(address, address.controlPort(), counters);
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
