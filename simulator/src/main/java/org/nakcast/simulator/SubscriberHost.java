package org.nakcast.transport.sim;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import org.agrona.DirectBuffer;
import org.agrona.collections.Long2LongHashMap;
import org.agrona.concurrent.UnsafeBuffer;
import org.nakcast.transport.LineDown;
import org.nakcast.transport.LossEvent;
import org.nakcast.transport.PublisherGone;
import org.nakcast.transport.SettingsResolver;
import org.nakcast.transport.media.DatagramSink;
import org.nakcast.transport.media.MulticastAddress;
import org.nakcast.transport.protocol.DatagramCheck;
import org.nakcast.transport.protocol.DatagramValidator;
import org.nakcast.transport.protocol.FrameType;
import org.nakcast.transport.protocol.HeaderFlyweight;
import org.nakcast.transport.protocol.NakFlyweight;
import org.nakcast.transport.receive.DeliveryTarget;
import org.nakcast.transport.receive.QueuedDelivery;
import org.nakcast.transport.receive.ReceiveDispatcher;
import org.nakcast.transport.receive.ReceiverLog;
import org.nakcast.transport.receive.SubscriptionSettings;
import org.nakcast.transport.testing.TestCounters;

/**
 * A subscribing process: the real {@link ReceiveDispatcher} fed by the simulated network and clock,
 * with the process's subscriptions, each checked by a {@link SubscriptionProbe}. A queued
 * subscription is polled by the application in each round, except while its poller is stopped; a
 * handler that throws on the poller's thread reaches the application, which counts it and polls on.
 * A restart is a new receiver: new subscriptions, new probes, joining the streams as they are then.
 *
 * <p>What the receiver decides is checked when it decides it, through its {@link ReceiverLog}
 * (told of every loss and every stream end on the receiving thread, before any subscription hears
 * of them): an {@code UNRECOVERABLE} loss only of datagrams its publisher no longer holds (or of a
 * dead publisher), a stream ended as restarted only if its publisher died, or if another process
 * publishing under the same id began anew while this receiver had not heard the stream for two
 * heartbeats. Every stray datagram is checked too ({@link StrayCheck}).
 */
final class SubscriberHost extends SimHost {
    /** One subscription this process makes. */
    record Subscription(String topicName, int topicId, SubscriptionProbe.Kind kind, boolean throwing,
        long queueBytes, long pollStopFromNs, long pollStopUntilNs) {
    }

    private static final int POLL_LIMIT = 64;
    private static final int QUEUE_POLL_LIMIT = 256;

    private final SettingsResolver settings;
    private final List<Subscription> subscriptions;
    private final Map<Integer, PublishedSession> sessions;
    private final Violations violations;
    private final SubscriptionProbe.Tally tally;
    private final SplittableRandom random;
    private final String traced;
    private final List<SubscriptionProbe> probes = new ArrayList<>();
    private final List<Polled> polled = new ArrayList<>();
    private final UnsafeBuffer nakBuffer =
        new UnsafeBuffer(ByteBuffer.allocateDirect(HeaderFlyweight.MAX_DATAGRAM_LENGTH));
    private final TestCounters counters = new TestCounters();
    private final HeaderFlyweight traceHeader = new HeaderFlyweight();
    /** When this host last read a datagram of each session on its data port (any incarnation). */
    private final Long2LongHashMap lastReadNs = new Long2LongHashMap(Long.MIN_VALUE);
    final StrayCheck strays;
    /** The states the receiver reached, over its incarnations: see {@link StreamWatch}. */
    final StreamWatch.Reached reached = new StreamWatch.Reached();
    /** This incarnation's watch of each topic. */
    private final Map<Integer, StreamWatch> watches = new HashMap<>();
    private ReceiveDispatcher dispatcher;
    /** The addresses of the lines the topics travel on, as the receiver's data sockets name them. */
    private final MulticastAddress[] lineAddresses;
    /** Exceptions handlers threw on the receiving thread, as the receiver reported them. */
    long handlerErrors;
    /** Exceptions a queued subscription's handler threw at its poller. */
    long pollerErrors;
    long sendsRefused;
    /** Lines a stream of this host called down, over its incarnations. */
    long linesDown;
    private int incarnation;

    /** A queued subscription and when its application stops polling it. */
    private record Polled(QueuedDelivery queue, Subscription subscription) {
    }

    SubscriberHost(Scheduler scheduler, List<SimNetwork> lines, String name, HostShape shape, SettingsResolver settings,
        List<Subscription> subscriptions, Map<Integer, PublishedSession> sessions, Violations violations,
        SubscriptionProbe.Tally tally, SplittableRandom random, String traced) {
        super(scheduler, lines, name, shape.queueLimit(), shape.busyNs(), shape.maxIdleNs());
        this.settings = settings;
        this.subscriptions = subscriptions;
        this.sessions = sessions;
        this.violations = violations;
        this.tally = tally;
        this.random = random;
        this.lineAddresses = new MulticastAddress[lines.size()];
        this.traced = traced;
        this.strays = new StrayCheck(name, scheduler, violations, counters);
    }

    @Override
    boolean listens(SimNetwork.Port port) {
        return true;
    }

    @Override
    long strays() {
        return strays.strays;
    }

    @Override
    void onStart(long nowNs) {
        incarnation++;
        dispatcher = new ReceiveDispatcher(counters.counters(), random.nextInt(), random.nextLong(), new Decisions(),
            error -> handlerErrors++);
        polled.clear();
        watches.clear();
        final DatagramSink nakSink = (buffer, offset, length) -> {
            final int refused = refusingLines(random);
            sendsRefused += refused;
            if (refused == lines.size()) {
                return false;
            }
            traceSent(buffer, offset, length);
            sendOnTakingLines(SimNetwork.Port.CONTROL, buffer, offset, length);
            return true;
        };
        for (int i = 0; i < subscriptions.size(); i++) {
            final Subscription subscription = subscriptions.get(i);
            final String probeName = name + "#" + incarnation + "/" + i;
            final SubscriptionProbe probe = new SubscriptionProbe(probeName, subscription.topicId(),
                subscription.kind(), subscription.throwing(), scheduler, sessions, violations, tally,
                probeName.equals(traced) || "all".equals(traced) ? System.out::println : null);
            probes.add(probe);
            DeliveryTarget target;
            if (subscription.kind() == SubscriptionProbe.Kind.QUEUED) {
                final QueuedDelivery queue = new QueuedDelivery(subscription.queueBytes(), probe, probe);
                polled.add(new Polled(queue, subscription));
                target = queue;
            } else {
                target = DeliveryTarget.onReceivingThread(probe, probe);
            }
            if (!watches.containsKey(subscription.topicId())) {
                final StreamWatch watch = new StreamWatch(target, scheduler, sessions, reached);
                watches.put(subscription.topicId(), watch);
                target = watch;
            }
            final SubscriptionSettings topic = settings.subscription(subscription.topicName());
            for (int line = 0; line < lineAddresses.length; line++) {
                lineAddresses[line] = topic.lines().get(line).address();
            }
            dispatcher.addSubscription(topic, target, nakSink, nakBuffer, nowNs);
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
        int work = 0;
        for (int line = 0; line < lines.size(); line++) {
            final MulticastAddress address = lineAddresses[line];
            work += read(line, SimNetwork.Port.DATA, POLL_LIMIT, (buffer, length) -> {
                traceDatagram("data", buffer, length, nowNs);
                final boolean stray = strays.handOver(SimNetwork.Port.DATA, buffer, length, dispatcher::streamCount,
                    () -> dispatcher.onDataDatagram(address, buffer, 0, length, nowNs));
                if (!stray) {
                    noteRead(HeaderFlyweight.sessionIdAt(buffer, 0), nowNs);
                }
            });
        }
        for (int line = 0; line < lines.size(); line++) {
            work += read(line, SimNetwork.Port.CONTROL, POLL_LIMIT, (buffer, length) -> {
                traceDatagram("control", buffer, length, nowNs);
                strays.handOver(SimNetwork.Port.CONTROL, buffer, length, dispatcher::streamCount,
                    () -> dispatcher.onControlDatagram(buffer, 0, length, nowNs));
            });
        }
        work += dispatcher.poll(nowNs);
        for (int i = 0; i < polled.size(); i++) {
            final Polled queued = polled.get(i);
            final boolean stopped = nowNs >= queued.subscription().pollStopFromNs()
                && nowNs < queued.subscription().pollStopUntilNs();
            if (!stopped) {
                work += pollQueue(queued.queue());
            }
        }
        return work;
    }

    /** Notes that a datagram of {@code sessionId} was read from the data port. */
    private void noteRead(int sessionId, long nowNs) {
        lastReadNs.put(sessionId, nowNs);
        final PublishedSession session = sessions.get(sessionId);
        final StreamWatch watch = session == null ? null : watches.get(session.topicId);
        if (watch != null) {
            watch.onRead(sessionId, nowNs);
        }
        if (session != null) {
            for (int i = 0; i < probes.size(); i++) {
                if (probes.get(i).topicId == session.topicId) {
                    probes.get(i).heard(sessionId, nowNs);
                }
            }
        }
    }

    /**
     * What the application's poller does: polls, and when its handler throws, counts the failure and
     * polls again later (the message it failed on counts as delivered).
     */
    private int pollQueue(QueuedDelivery queue) {
        try {
            return queue.poll(QUEUE_POLL_LIMIT);
        } catch (SubscriptionProbe.HandlerFailure failure) {
            pollerErrors++;
            return 1;
        }
    }

    /** Checks each loss and each stream end when the receiver decides it. */
    private final class Decisions implements ReceiverLog {
        @Override
        public void onLoss(SubscriptionSettings topic, LossEvent event) {
            final StreamWatch watch = watches.get(event.topicId());
            if (watch != null) {
                watch.onLossDecided(event);
            }
            final PublishedSession session = sessions.get(event.sessionId());
            if (session == null || event.cause() == LossEvent.Cause.SUBSCRIPTION_OVERRUN || session.isGone()) {
                return;
            }
            final long oldest = session.oldestRetained();
            if (event.toSequence() >= oldest) {
                violations.add(scheduler.nowNs(), "%s gave up datagrams %d..%d of session %d while its publisher"
                    .formatted(name, event.fromSequence(), event.toSequence(), session.sessionId)
                    + " still holds %d on (%s)".formatted(oldest, event.cause()));
            }
        }

        @Override
        public void onLineDown(SubscriptionSettings topic, LineDown event) {
            linesDown++;
        }

        @Override
        public void onPublisherGone(SubscriptionSettings topic, PublisherGone event) {
            final PublishedSession session = sessions.get(event.sessionId());
            if (session == null || event.cause() != PublisherGone.Cause.RESTARTED || session.isDead()) {
                return;
            }
            final PublishedSession restarted = sessions.get(event.newSessionId());
            final long nowNs = scheduler.nowNs();
            if (restarted == null || restarted.publisherId != session.publisherId) {
                violations.add(nowNs, "%s ended session %d of a live publisher as restarted by session %d"
                    .formatted(name, session.sessionId, event.newSessionId()) + ", which is not of its publisher id");
            } else if (lastReadNs.get(session.sessionId) > nowNs - 2 * topic.heartbeatNs()) {
                violations.add(nowNs, ("%s ended session %d as restarted by session %d, which shares its publisher id,"
                    + " though it heard it %.3f ms ago: two live publishers sharing an id ended each other")
                    .formatted(name, session.sessionId, restarted.sessionId,
                        (nowNs - lastReadNs.get(session.sessionId)) / 1e6));
            }
        }
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
