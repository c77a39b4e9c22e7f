package org.nakcast.simulator;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.UnaryOperator;

import org.agrona.DirectBuffer;
import org.nakcast.config.TopicConfig;
import org.nakcast.transport.OfferResult;
import org.nakcast.transport.PublisherEventListener;
import org.nakcast.transport.ReceiverDropped;
import org.nakcast.transport.TypedPublication;
import org.nakcast.transport.node.SettingsResolver;
import org.nakcast.transport.protocol.DataFlyweight;
import org.nakcast.transport.protocol.FrameType;
import org.nakcast.transport.protocol.HeaderFlyweight;
import org.nakcast.transport.protocol.MessageFrame;
import org.nakcast.transport.protocol.NakFlyweight;
import org.nakcast.transport.protocol.StatusFlyweight;
import org.nakcast.transport.publish.PublicationSettings;
import org.nakcast.transport.status.SystemCounter;

/**
 * A publishing process: a real node and an application that offers numbered messages on each of
 * its topics at its pace, through typed publications, until it has offered its quota, trying again
 * later when an offer is refused. A restart starts new sessions under the same node name, so the
 * same publisher ids; what the old ones sent is then gone for good. A process asked to close
 * closes its publications, drives its node until each has finished (sent everything, lingered for
 * repairs), then closes the node and exits.
 *
 * <p>It watches its own offers for the liveness invariant: once the network has healed and every
 * process runs, an offer may be refused ({@code BACK_PRESSURED}, {@code NOT_CONNECTED}) for at most
 * {@link Liveness#longestRefusalNs} in a row, unless the publication has no live receiver to wait
 * for ({@link Liveness#excused}).
 */
final class PublisherHost extends NodeHost {
    /** How long a publication with nobody to send to, and excused for it, counts as done offering. */
    private static final long NOBODY_THERE_NS = 50_000_000;
    /** DATA header and frame header: what a datagram spends on framing one fragment. */
    private static final int FRAMING = DataFlyweight.DATA_HEADER_LENGTH + MessageFrame.FRAME_HEADER_LENGTH;

    /**
     * One topic this process publishes.
     *
     * @param messages its quota
     * @param closeWhenDone whether the publication is closed once it has offered its messages
     */
    record Topic(String name, int topicId, long messages, double messagesPerMs, boolean closeWhenDone) {
        /** This topic, closed once its messages are offered. */
        Topic closingWhenDone() {
            return new Topic(name, topicId, messages, messagesPerMs, true);
        }
    }

    /** What the run says of a topic's receivers, for judging refused offers. */
    interface Liveness {
        /** Whether the publication of {@code session} may be refused for long: it has no live receiver to wait for. */
        boolean excused(PublishedSession session);

        /** The longest run of refused offers allowed once everything runs again. */
        long longestRefusalNs();

        /** When the network has healed and every process runs. */
        long healedAtNs();

        /**
         * Whether the publisher of {@code session} is at the limit the stranger's made-up receiver at
         * a standstill sets it (its position plus the flow-control window), every real receiver's
         * last STATUS read beyond that position: the stranger alone holds it.
         */
        boolean heldByStranger(PublishedSession session);
    }

    private final SettingsResolver settings;
    private final List<Topic> topics;
    private final Map<Integer, PublishedSession> sessions;
    private final NakFlyweight nak = new NakFlyweight();
    private final StatusFlyweight status = new StatusFlyweight();
    private final long retransmitHoldOffNs;
    private final Liveness liveness;
    /** The NAK ranges its node read in this round, settled after it: {@link #settleAsks}. */
    private final List<Ask> asksInRound = new ArrayList<>();
    private long sharesRefusedBeforeRound;
    private final List<Offering> offerings = new ArrayList<>();
    private boolean closeRequested;
    long offersRefused;
    /**
     * Datagrams asked for by the stranger's copies of signed NAKs its node took (its socket had not
     * had them): each may be resent once more.
     */
    long askedByCopies;

    /** A session of a topic in this incarnation of the process. */
    private static final class Offering {
        final Topic topic;
        final TypedPublication<SimMessage> publication;
        final PublishedSession session;
        /** When the offers began to be refused, -1 while they are taken. */
        long refusedSinceNs = -1;
        boolean refusedTooLong;
        /** Since when the stranger alone holds the offers back, -1 while it does not. */
        long strangerHoldSinceNs = -1;
        /** How long the stranger alone held the offers back since healing, in spells that ended. */
        long strangerHeldNs;
        boolean strangerHeldTooLong;

        Offering(Topic topic, TypedPublication<SimMessage> publication, PublishedSession session) {
            this.topic = topic;
            this.publication = publication;
            this.session = session;
        }
    }

    PublisherHost(Scheduler scheduler, List<SimNetwork> lines, String name, Scenario scenario,
        Scenario.PublisherPlan plan, Map<Integer, PublishedSession> sessions, SplittableRandom random,
        Violations violations, Liveness liveness) {
        super(scheduler, lines, name, plan.shape(), scenario, plan.nodeName(), random, violations,
            UnaryOperator.identity());
        this.settings = new SettingsResolver(config, scenario.harness());
        this.topics = plan.topics();
        this.sessions = sessions;
        this.liveness = liveness;
        this.retransmitHoldOffNs = scenario.harness().retransmitHoldOffNs();
    }

    @Override
    void started(long nowNs) {
        offerings.clear();
        closeRequested = false;
        for (Topic topic : topics) {
            final TypedPublication<SimMessage> publication = node.newTypedPublication(topic.name(), SimMessage.class);
            final int sessionId = publication.bytePublication().sessionId();
            if (sessions.containsKey(sessionId)) {
                throw new IllegalStateException("session id " + sessionId + " drawn twice in one run");
            }
            final TopicConfig topicConfig = settings.topic(topic.name());
            final PublicationSettings resolved = settings.publication(topic.name(), sessionId, 0);
            final int datagramLength = resolved.datagramLength();
            final int maxLength =
                (int) Math.min(publication.bytePublication().maxMessageLength(), topicConfig.maxMessage().bytes());
            final PublishedSession session = new PublishedSession(sessionId, topic.topicId(), this, nowNs,
                topic.messages(), maxLength, datagramLength - FRAMING,
                historyDatagrams(topicConfig.history().bytes(), datagramLength));
            session.repairRate = resolved.repairRateBytesPerSecond();
            session.repairBurst = resolved.repairBurstBytes();
            session.repairPercentOfData = resolved.repairPercentOfData();
            session.datagramLength = datagramLength;
            session.sweep = new RepairSweep(retransmitHoldOffNs);
            sessions.put(sessionId, session);
            offerings.add(new Offering(topic, publication, session));
        }
    }

    /**
     * The datagrams a history of {@code bytes} keeps, as the configuration reference says: the
     * bytes over the datagram size, rounded down to a power of two, at least 16.
     */
    static int historyDatagrams(long bytes, int datagramLength) {
        return Integer.highestOneBit((int) Math.min(1 << 24, Math.max(16, bytes / datagramLength)));
    }

    /** From {@code atNs}, once it runs, the process closes its publications, then its node, and exits. */
    void closeAt(long atNs) {
        scheduler.at(atNs, () -> closeRequested = !isDown());
    }

    @Override
    int work(long nowNs) {
        settleAsks(nowNs);
        if (closeRequested) {
            return closing(nowNs);
        }
        int work = 0;
        for (int i = 0; i < offerings.size(); i++) {
            work += offer(offerings.get(i), nowNs);
        }
        return work;
    }

    /** Closes every publication, then, once each has finished, the node. */
    private int closing(long nowNs) {
        boolean finished = true;
        for (Offering offering : offerings) {
            if (!offering.session.isClosed()) {
                offering.publication.close();
                offering.session.closedAtNs = nowNs;
            }
            finished &= offering.publication.bytePublication().isFinished();
        }
        if (finished) {
            closeRequested = false;
            closeNode();
        }
        return 0;
    }

    private int offer(Offering offering, long nowNs) {
        final PublishedSession session = offering.session;
        if (session.isClosed()) {
            return 0;
        }
        final long due = Math.min(session.quota,
            1 + (long) ((nowNs - session.startNs) / 1e6 * offering.topic.messagesPerMs()));
        int offered = 0;
        while (session.published < due) {
            final long index = session.published;
            final long result = offering.publication.offer(
                new SimMessage(session.sessionId, index, session.messageLength(index), true));
            if (!OfferResult.isTaken(result)) {
                refused(offering, result, nowNs);
                break;
            }
            offering.refusedSinceNs = -1;
            strangerHolds(offering, false, nowNs);
            session.published++;
            session.lastPublishNs = nowNs;
            offered++;
        }
        if (offering.topic.closeWhenDone() && session.published == session.quota) {
            offering.publication.close();
            session.closedAtNs = nowNs;
        }
        return offered;
    }

    /** An offer was refused: fine for a while, a violation once everything runs and it goes on too long. */
    private void refused(Offering offering, long result, long nowNs) {
        offersRefused++;
        strangerHolds(offering, result == OfferResult.BACK_PRESSURED && liveness.heldByStranger(offering.session),
            nowNs);
        if (result != OfferResult.BACK_PRESSURED && result != OfferResult.NOT_CONNECTED) {
            violations.add(nowNs, Invariant.LIVENESS, "%s: session %d refused message %d: %s".formatted(name,
                offering.session.sessionId, offering.session.published, OfferResult.describe(result)));
            return;
        }
        if (offering.refusedSinceNs < 0) {
            offering.refusedSinceNs = nowNs;
        }
        final long sinceNs = Math.max(offering.refusedSinceNs, liveness.healedAtNs());
        if (!offering.refusedTooLong && nowNs - sinceNs > liveness.longestRefusalNs()
            && !liveness.excused(offering.session)) {
            offering.refusedTooLong = true;
            violations.add(nowNs, Invariant.LIVENESS, ("%s: session %d has had its offers refused (%s) for %.3f ms"
                + " since everything runs again, more than %.3f ms, with %d of %d messages published").formatted(name,
                offering.session.sessionId, OfferResult.describe(result), (nowNs - sinceNs) / 1e6,
                liveness.longestRefusalNs() / 1e6, offering.session.published, offering.session.quota));
        }
    }

    /**
     * Notes whether the stranger alone holds {@code offering} back now; once everything runs again, it
     * may do so for one flow-control timeout in all (a stuck receiver is dropped, its host benched), a
     * violation of liveness past the longest refusal allowed.
     */
    private void strangerHolds(Offering offering, boolean held, long nowNs) {
        final boolean counted = held && nowNs >= liveness.healedAtNs();
        if (counted && offering.strangerHoldSinceNs < 0) {
            offering.strangerHoldSinceNs = nowNs;
        } else if (!counted && offering.strangerHoldSinceNs >= 0) {
            offering.strangerHeldNs += nowNs - offering.strangerHoldSinceNs;
            offering.strangerHoldSinceNs = -1;
        }
        final long heldNs = offering.strangerHeldNs
            + (offering.strangerHoldSinceNs < 0 ? 0 : nowNs - offering.strangerHoldSinceNs);
        if (!offering.strangerHeldTooLong && heldNs > liveness.longestRefusalNs()) {
            offering.strangerHeldTooLong = true;
            violations.add(nowNs, Invariant.LIVENESS, ("%s: session %d has been held back by the stranger's made-up"
                + " receiver at a standstill for %.3f ms in all since everything runs again, more than %.3f ms")
                .formatted(name, offering.session.sessionId, heldNs / 1e6, liveness.longestRefusalNs() / 1e6));
        }
    }

    /**
     * A NAK this node reads for a session of its own: what it surely holds of it is to be resent. A
     * STATUS its flow control believes: when the receiver was last heard, to judge a drop by.
     */
    @Override
    void reading(int line, FrameType.Port port, HeaderFlyweight header, int length, Origin origin) {
        if (port != FrameType.Port.CONTROL) {
            return;
        }
        final PublishedSession session = sessions.get(header.sessionId());
        if (session == null || session.host != this) {
            return;
        }
        if (header.typeCode() == FrameType.STATUS.code()) {
            // Flow control believes a STATUS at most at what was sent (a stranger's may claim more).
            if (header.sequence() <= session.highestHandedData + 1) {
                status.wrap(header.buffer(), header.offset());
                session.statusReadNs.put(status.receiverId(), scheduler.nowNs());
                if (session.statusPosition.put(status.receiverId(), status.sequence()) != status.sequence()) {
                    session.statusMovedNs.put(status.receiverId(), scheduler.nowNs());
                }
                if (!session.firstStatusReadNs.containsKey(status.receiverId())) {
                    session.firstStatusReadNs.put(status.receiverId(), scheduler.nowNs());
                }
            }
            return;
        }
        if (header.typeCode() != FrameType.NAK.code()) {
            return;
        }
        nak.wrap(header.buffer(), header.offset());
        if (asksInRound.isEmpty()) {
            sharesRefusedBeforeRound = counter(SystemCounter.REPAIRS_OVER_SOURCE_SHARE);
        }
        final long heldFrom = session.surelyHeldNowFrom();
        for (int i = 0; i < nak.rangeCount(); i++) {
            asksInRound.add(new Ask(session, nak.rangeFrom(i), nak.rangeTo(i), heldFrom, session.highestHandedData));
            askedByCopies += origin == Origin.REPLAYED ? nak.rangeTo(i) - nak.rangeFrom(i) + 1 : 0;
        }
    }

    /**
     * Flow control {@code min} may drop a receiver only once none of its STATUS reached this node for
     * the topic's flow-control timeout, or, as stuck, once for that long none moved its position and
     * it did not have all that was sent ({@link PublishedSession#keptUpAtNs}); a receiver so dropped
     * may lose what is sent past it.
     */
    @Override
    PublisherEventListener publisherEvents() {
        return new PublisherEventListener() {
            @Override
            public void onReceiverDropped(ReceiverDropped event) {
                final PublishedSession session = sessions.get(event.sessionId());
                if (session == null) {
                    return;
                }
                final long nowNs = scheduler.nowNs();
                final boolean stuck = event.cause() == ReceiverDropped.Cause.STUCK;
                final long readNs = stuck ? session.keptUpAtNs(event.receiverId())
                    : session.statusReadNs.get(event.receiverId());
                final long timeoutNs = config.topics().stream().filter(topic -> topic.id() == event.topicId())
                    .findFirst().orElseThrow().flowControlTimeout().toNanos();
                if (readNs == Long.MAX_VALUE) {
                    violations.add(nowNs, Invariant.AVOIDABLE_LOSS, ("%s: session %d dropped receiver %d from flow"
                        + " control as stuck, though by the last STATUS it read the receiver had all that was sent")
                        .formatted(name, session.sessionId, event.receiverId()));
                } else if (readNs != Long.MIN_VALUE && nowNs - readNs <= timeoutNs) {
                    violations.add(nowNs, Invariant.AVOIDABLE_LOSS, ("%s: session %d dropped receiver %d from flow"
                        + " control (%s) %.3f ms after %s, within the flow-control timeout (%.3f ms)")
                        .formatted(name, session.sessionId, event.receiverId(), event.cause(), (nowNs - readNs) / 1e6,
                            stuck ? "its position last moved or it last had all that was sent"
                                : "it read a STATUS of it", timeoutNs / 1e6));
                }
                session.droppedReceivers.add(event.receiverId());
            }
        };
    }

    /**
     * The NAK ranges its node read in the round just run are what its sweep must resend, unless its
     * node held a NAK host to its repair share in that round: then what it queued of them is unknown
     * to the model, which takes none of them (their receivers ask again).
     */
    private void settleAsks(long nowNs) {
        if (asksInRound.isEmpty()) {
            return;
        }
        if (counter(SystemCounter.REPAIRS_OVER_SOURCE_SHARE) == sharesRefusedBeforeRound) {
            for (Ask ask : asksInRound) {
                ask.session.sweep.asked(ask.from, ask.to, ask.heldFrom, ask.sentUpTo, nowNs);
            }
        }
        asksInRound.clear();
    }

    /** A NAK's range as its node read it, with what the session surely held then. */
    private record Ask(PublishedSession session, long from, long to, long heldFrom, long sentUpTo) {
    }

    /** Its DATA tells what its history holds; its RETRANSMITs must not pass over what it was asked for. */
    @Override
    void handedToMedia(FrameType.Port port, DirectBuffer buffer, int offset, int length) {
        final int type = HeaderFlyweight.typeCodeAt(buffer, offset);
        final PublishedSession session = sessions.get(HeaderFlyweight.sessionIdAt(buffer, offset));
        if (port != FrameType.Port.DATA || session == null || session.host != this) {
            return;
        }
        final long sequence = HeaderFlyweight.sequenceAt(buffer, offset);
        if (type == FrameType.DATA.code()) {
            session.handedData(sequence, scheduler.nowNs());
        } else if (type == FrameType.RETRANSMIT.code()) {
            final long nowNs = scheduler.nowNs();
            final long passedOver = session.sweep.resent(sequence, session.surelyHeldNowFrom(), nowNs);
            if (passedOver >= 0 && !session.sweepReported) {
                session.sweepReported = true;
                violations.add(nowNs, Invariant.REPAIR_SWEEP, ("session %d resent %d in a sweep that passed over %d,"
                    + " which a NAK it read asked for, which it holds and did not resend within the hold-off")
                    .formatted(session.sessionId, sequence, passedOver));
            }
        }
    }

    @Override
    void onCrash(long nowNs) {
        for (Offering offering : offerings) {
            offering.session.deadSinceNs = nowNs;
        }
        super.onCrash(nowNs);
    }

    /**
     * Whether every session of this incarnation has offered its quota or was closed, or, excused,
     * has had nobody to send to for a while.
     */
    boolean doneOffering(long nowNs) {
        if (closeRequested) {
            return false;
        }
        for (Offering offering : offerings) {
            final PublishedSession session = offering.session;
            final boolean nobodyThere = offering.refusedSinceNs >= 0
                && nowNs - offering.refusedSinceNs > NOBODY_THERE_NS && liveness.excused(offering.session);
            if (session.published < session.quota && !session.isClosed() && !nobodyThere) {
                return false;
            }
        }
        return true;
    }

    /** The sessions of this incarnation that did not publish their quota, though nothing excuses them. */
    List<PublishedSession> shortOfQuota() {
        final List<PublishedSession> shortOfQuota = new ArrayList<>();
        for (Offering offering : offerings) {
            final PublishedSession session = offering.session;
            if (!isDown() && session.published < session.quota && !session.isClosed()
                && !liveness.excused(offering.session)) {
                shortOfQuota.add(session);
            }
        }
        return shortOfQuota;
    }
}
