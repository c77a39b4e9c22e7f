package org.nakcast.transport.sim;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.nakcast.transport.SettingsResolver;
import org.nakcast.transport.media.DatagramSink;
import org.nakcast.transport.protocol.DatagramCheck;
import org.nakcast.transport.protocol.DatagramValidator;
import org.nakcast.transport.protocol.FrameType;
import org.nakcast.transport.protocol.HeaderFlyweight;
import org.nakcast.transport.protocol.NakFlyweight;
import org.nakcast.transport.receive.DeliveryTarget;
import org.nakcast.transport.receive.QueuedDelivery;
import org.nakcast.transport.receive.ReceiveDispatcher;
import org.nakcast.transport.receive.ReceiverLog;
import org.nakcast.transport.testing.TestCounters;

/**
 * A subscribing process: the real {@link ReceiveDispatcher} fed by the simulated network and clock,
 * with the process's subscriptions, each checked by a {@link SubscriptionProbe}. A queued
 * subscription is polled by the application in each round, except while its poller is stopped.
 * A restart is a new receiver: new subscriptions, new probes, joining the streams as they are then.
 */
final class SubscriberHost extends SimHost {
    /** One subscription this process makes. */
    record Subscription(String topicName, int topicId, SubscriptionProbe.Kind kind, long queueBytes,
        long pollStopFromNs, long pollStopUntilNs) {
    }

    private static final int POLL_LIMIT = 64;
    private static final int QUEUE_POLL_LIMIT = 256;

    private final SettingsResolver settings;
    private final List<Subscription> subscriptions;
    private final Map<Integer, PublishedSession> sessions;
    private final Violations violations;
    private final SubscriptionProbe.Tally tally;
    private final SplittableRandom random;
    private final double sendRefusal;
    private final String traced;
    private final List<SubscriptionProbe> probes = new ArrayList<>();
    private final List<Polled> polled = new ArrayList<>();
    private final UnsafeBuffer nakBuffer =
        new UnsafeBuffer(ByteBuffer.allocateDirect(HeaderFlyweight.MAX_DATAGRAM_LENGTH));
    private final TestCounters counters = new TestCounters();
    private final HeaderFlyweight traceHeader = new HeaderFlyweight();
    private ReceiveDispatcher dispatcher;
    long handlerErrors;
    private int incarnation;

    /** A queued subscription and when its application stops polling it. */
    private record Polled(QueuedDelivery queue, Subscription subscription) {
    }

    SubscriberHost(Scheduler scheduler, SimNetwork network, String name, HostShape shape, SettingsResolver settings,
        List<Subscription> subscriptions, Map<Integer, PublishedSession> sessions, Violations violations,
        SubscriptionProbe.Tally tally, SplittableRandom random, double sendRefusal, String traced) {
        super(scheduler, network, name, shape.queueLimit(), shape.busyNs(), shape.maxIdleNs());
        this.settings = settings;
        this.subscriptions = subscriptions;
        this.sessions = sessions;
        this.violations = violations;
        this.tally = tally;
        this.random = random;
        this.sendRefusal = sendRefusal;
        this.traced = traced;
    }

    @Override
    boolean listens(SimNetwork.Port port) {
        return true;
    }

    @Override
    void onStart(long nowNs) {
        incarnation++;
        dispatcher = new ReceiveDispatcher(counters.counters(), random.nextInt(), random.nextLong(), ReceiverLog.NONE,
            error -> handlerErrors++);
        polled.clear();
        final DatagramSink nakSink = (buffer, offset, length) -> {
            if (network.faults().active(scheduler.nowNs()) && sendRefusal > 0 && random.nextDouble() < sendRefusal) {
                return false;
            }
            traceSent(buffer, offset, length);
            network.send(id, SimNetwork.Port.CONTROL, buffer, offset, length);
            return true;
        };
        for (int i = 0; i < subscriptions.size(); i++) {
            final Subscription subscription = subscriptions.get(i);
            final String probeName = name + "#" + incarnation + "/" + i;
            final SubscriptionProbe probe = new SubscriptionProbe(probeName, subscription.topicId(),
                subscription.kind(), scheduler, sessions, violations, tally,
                probeName.equals(traced) || "all".equals(traced) ? System.out::println : null);
            probes.add(probe);
            if (subscription.kind() == SubscriptionProbe.Kind.QUEUED) {
                final QueuedDelivery queue = new QueuedDelivery(subscription.queueBytes(), probe, probe);
                polled.add(new Polled(queue, subscription));
                dispatcher.addSubscription(settings.subscription(subscription.topicName()), queue, nakSink, nakBuffer,
                    nowNs);
            } else {
                dispatcher.addSubscription(settings.subscription(subscription.topicName()),
                    DeliveryTarget.onReceivingThread(probe, probe), nakSink, nakBuffer, nowNs);
            }
        }
    }

    @Override
    void onCrash(long nowNs) {
        if (dispatcher != null) {
            dispatcher.close();
        }
        probes.removeIf(probe -> true);
    }

    @Override
    int round(long nowNs) {
        int work = read(SimNetwork.Port.DATA, POLL_LIMIT, (buffer, length) -> {
            traceDatagram("data", buffer, length, nowNs);
            dispatcher.onDataDatagram(buffer, 0, length, nowNs);
        });
        work += read(SimNetwork.Port.CONTROL, POLL_LIMIT, (buffer, length) -> {
            traceDatagram("control", buffer, length, nowNs);
            dispatcher.onControlDatagram(buffer, 0, length, nowNs);
        });
        work += dispatcher.poll(nowNs);
        for (int i = 0; i < polled.size(); i++) {
            final Polled queued = polled.get(i);
            final boolean stopped = nowNs >= queued.subscription().pollStopFromNs()
                && nowNs < queued.subscription().pollStopUntilNs();
            if (!stopped) {
                work += queued.queue().poll(QUEUE_POLL_LIMIT);
            }
        }
        return work;
    }

    /** Prints a NAK this host sends, when it is traced. */
    private void traceSent(DirectBuffer buffer, int offset, int length) {
        if (traced != null && (traced.equals("all") || traced.startsWith(name + "#"))
            && HeaderFlyweight.typeCodeAt(buffer, offset) == FrameType.NAK.code()) {
            final NakFlyweight nak = new NakFlyweight();
            final UnsafeBuffer copy = new UnsafeBuffer(new byte[length]);
            copy.putBytes(0, buffer, offset, length);
            nak.wrap(copy, 0);
            final StringBuilder ranges = new StringBuilder();
            for (int i = 0; i < nak.rangeCount(); i++) {
                ranges.append(' ').append(nak.rangeFrom(i)).append("..").append(nak.rangeTo(i));
            }
            System.out.println("%.6f %s sends NAK session %d:%s".formatted(
                scheduler.nowNs() / 1e9, name, nak.sessionId(), ranges));
        }
    }

    /** Prints a datagram this host reads, when it is traced. */
    private void traceDatagram(String port, UnsafeBuffer buffer, int length, long nowNs) {
        if (traced != null && (traced.equals("all") || traced.startsWith(name + "#"))
            && DatagramValidator.check(buffer, 0, length) == DatagramCheck.VALID) {
            traceHeader.wrap(buffer, 0);
            System.out.println("%.6f %s reads on its %s port: %s session %d topic %d sequence %d flags %d, %d bytes"
                .formatted(nowNs / 1e9, name, port, FrameType.fromCode(traceHeader.typeCode()),
                    traceHeader.sessionId(), traceHeader.topicId(), traceHeader.sequence(), traceHeader.flags(),
                    length));
        }
    }

    /** How many publisher streams the receiver keeps now; 0 when not running. */
    int streamCount() {
        return dispatcher == null || isCrashed() ? 0 : dispatcher.streamCount();
    }

    /** The probes of this incarnation; empty once crashed. */
    List<SubscriptionProbe> probes() {
        return probes;
    }

    TestCounters counters() {
        return counters;
    }

    /** Frees what the process holds at the end of a run. */
    void close() {
        if (!isCrashed() && dispatcher != null) {
            dispatcher.close();
        }
    }
}
