package org.nakcast.transport.sim;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import org.agrona.concurrent.UnsafeBuffer;
import org.nakcast.transport.PublisherEventListener;
import org.nakcast.transport.SettingsResolver;
import org.nakcast.transport.media.DatagramSink;
import org.nakcast.transport.protocol.DataFlyweight;
import org.nakcast.transport.protocol.FrameType;
import org.nakcast.transport.protocol.HeaderFlyweight;
import org.nakcast.transport.protocol.MessageFrame;
import org.nakcast.transport.protocol.UnrecoverableFlyweight;
import org.nakcast.transport.publish.OfferBuffer;
import org.nakcast.transport.publish.PublicationSettings;
import org.nakcast.transport.publish.PublisherStreams;
import org.nakcast.transport.testing.TestCounters;

/**
 * A publishing process: the real {@link PublisherStreams} fed by the simulated network and clock,
 * and an application that offers numbered messages on each of its topics at its pace until it has
 * offered its quota, trying again later when the publication is back-pressured. A restart starts
 * new sessions under the same publisher ids; what the old ones sent is then gone for good.
 */
final class PublisherHost extends SimHost {
    /** How long a publication with nobody to send to counts as done offering. */
    private static final long NOBODY_THERE_NS = 50_000_000;

    /**
     * One topic this process publishes.
     *
     * @param closeWhenDone whether the publication is closed once it has offered its messages
     */
    record Topic(String name, int topicId, long publisherId, long messages, double messagesPerMs,
        boolean closeWhenDone) {
        /** This topic, closed once its messages are offered. */
        Topic closingWhenDone() {
            return new Topic(name, topicId, publisherId, messages, messagesPerMs, true);
        }
    }

    private static final int CONTROL_LIMIT = 64;
    /** DATA header and frame header: what a datagram spends on framing one fragment. */
    private static final int FRAMING = DataFlyweight.DATA_HEADER_LENGTH + MessageFrame.FRAME_HEADER_LENGTH;

    private final SettingsResolver settings;
    private final List<Topic> topics;
    private final Map<Integer, PublishedSession> sessions;
    private final SplittableRandom random;
    private final Violations violations;
    private final UnsafeBuffer message = new UnsafeBuffer(ByteBuffer.allocateDirect(1 << 16));
    private final List<Publication> publications = new ArrayList<>();
    private final TestCounters counters = new TestCounters();
    private final UnrecoverableFlyweight unrecoverable = new UnrecoverableFlyweight();
    private final UnsafeBuffer unrecoverableView = new UnsafeBuffer(new byte[0]);
    final StrayCheck strays;
    private PublisherStreams streams;
    long offersRefused;
    long sendsRefused;

    /** A session of a topic in this incarnation of the process. */
    private static final class Publication {
        final Topic topic;
        final PublishedSession session;
        final OfferBuffer offers;
        long disconnectedSinceNs = -1;

        Publication(Topic topic, PublishedSession session, OfferBuffer offers) {
            this.topic = topic;
            this.session = session;
            this.offers = offers;
        }
    }

    PublisherHost(Scheduler scheduler, List<SimNetwork> lines, String name, HostShape shape,
        SettingsResolver settings, List<Topic> topics, Map<Integer, PublishedSession> sessions,
        SplittableRandom random, Violations violations) {
        super(scheduler, lines, name, shape.queueLimit(), shape.busyNs(), shape.maxIdleNs());
        this.violations = violations;
        this.strays = new StrayCheck(name, scheduler, violations, counters);
        this.settings = settings;
        this.topics = topics;
        this.sessions = sessions;
        this.random = random;
    }

    @Override
    boolean listens(SimNetwork.Port port) {
        return port == SimNetwork.Port.CONTROL;
    }

    @Override
    long strays() {
        return strays.strays;
    }

    @Override
    void onStart(long nowNs) {
        streams = new PublisherStreams(counters.counters(), new PublisherEventListener() { });
        publications.clear();
        final DatagramSink sink = (buffer, offset, length) -> {
            final int refused = refusingLines(random);
            sendsRefused += refused;
            if (refused == lines.size()) {
                return false;
            }
            final PublishedSession session = sessions.get(HeaderFlyweight.sessionIdAt(buffer, offset));
            if (session != null) {
                final int type = HeaderFlyweight.typeCodeAt(buffer, offset);
                session.sent(type, length, HeaderFlyweight.sequenceAt(buffer, offset), scheduler.nowNs());
                if (type == FrameType.UNRECOVERABLE.code()) {
                    unrecoverableView.wrap(buffer, offset, length);
                    unrecoverable.wrap(unrecoverableView, 0);
                    session.unrecoverableAnswers.add(new long[] {unrecoverable.fromSequence(),
                        unrecoverable.toSequence(), session.highestDataSequence});
                }
                checkRepairBudget(session);
            }
            sendOnTakingLines(SimNetwork.Port.DATA, buffer, offset, length);
            return true;
        };
        for (Topic topic : topics) {
            int sessionId;
            do {
                sessionId = 1 + random.nextInt(Integer.MAX_VALUE - 1);
            } while (sessions.containsKey(sessionId));
            final PublicationSettings publication = settings.publication(topic.name(), sessionId, topic.publisherId());
            final int offerBufferBytes = (int) settings.topic(topic.name()).offerBuffer().bytes();
            final int maxLength = Math.min(PublisherStreams.maxMessageLength(publication), offerBufferBytes / 8);
            final OfferBuffer offers = new OfferBuffer(offerBufferBytes, maxLength, freed -> { });
            streams.add(publication, offers, sink);
            final PublishedSession session = new PublishedSession(sessionId, topic.topicId(), topic.publisherId(),
                this, nowNs, Math.min(maxLength, message.capacity()), publication.datagramLength() - FRAMING);
            session.repairRate = publication.repairRateBytesPerSecond();
            session.repairBurst = publication.repairBurstBytes();
            session.repairPercentOfData = publication.repairPercentOfData();
            session.datagramLength = publication.datagramLength();
            sessions.put(sessionId, session);
            publications.add(new Publication(topic, session, offers));
        }
    }

    /** Every session's repairs stay within its repair budget at every send: reported once per session. */
    private void checkRepairBudget(PublishedSession session) {
        if (!session.overBudget && session.repairBytes > session.repairAllowance()) {
            session.overBudget = true;
            violations.add(scheduler.nowNs(), "session %d has sent %d bytes of repairs, more than its budget (%d)"
                .formatted(session.sessionId, session.repairBytes, session.repairAllowance()));
        }
    }

    @Override
    void onCrash(long nowNs) {
        for (Publication publication : publications) {
            publication.session.deadSinceNs = nowNs;
        }
        streams.close();
    }

    @Override
    int round(long nowNs) {
        int work = 0;
        for (int line = 0; line < lines.size(); line++) {
            work += read(line, SimNetwork.Port.CONTROL, CONTROL_LIMIT, (buffer, length) -> strays.handOver(
                SimNetwork.Port.CONTROL, buffer, length, () -> 0,
                () -> streams.onControlDatagram(buffer, 0, length, nowNs)));
        }
        for (int i = 0; i < publications.size(); i++) {
            work += offer(publications.get(i), nowNs);
        }
        return work + streams.doWork(nowNs);
    }

    private int offer(Publication publication, long nowNs) {
        final PublishedSession session = publication.session;
        if (!publication.offers.isConnected()) {
            if (publication.disconnectedSinceNs < 0) {
                publication.disconnectedSinceNs = nowNs;
            }
            return 0;
        }
        publication.disconnectedSinceNs = -1;
        final long due = Math.min(publication.topic.messages(),
            1 + (long) ((nowNs - session.startNs) / 1e6 * publication.topic.messagesPerMs()));
        int offered = 0;
        while (session.published < due) {
            final long index = session.published;
            final int length = session.messageLength(index);
            MessageContent.write(message, 0, session.sessionId, index, length);
            if (!publication.offers.offer(message, 0, length)) {
                offersRefused++;
                break;
            }
            session.published++;
            session.lastPublishNs = nowNs;
            offered++;
        }
        if (offered > 0) {
            publication.offers.requestFlush();
        }
        if (publication.topic.closeWhenDone() && session.published == publication.topic.messages()
            && !publication.offers.isClosed()) {
            publication.offers.close();
            session.closedAtNs = nowNs;
        }
        return offered;
    }

    /** The oldest datagram a live session of this host can still resend. */
    long oldestRetained(int topicId, int sessionId) {
        return streams.oldestRetained(topicId, sessionId);
    }

    /**
     * Whether every topic has offered its quota in this incarnation, or has had nobody to send to for
     * a while (flow control {@code min} with no live receiver).
     */
    boolean doneOffering(long nowNs) {
        for (Publication publication : publications) {
            final boolean nobodyThere =
                publication.disconnectedSinceNs >= 0 && nowNs - publication.disconnectedSinceNs > NOBODY_THERE_NS;
            if (publication.session.published < publication.topic.messages() && !nobodyThere) {
                return false;
            }
        }
        return true;
    }

    TestCounters counters() {
        return counters;
    }

    /** Frees what the process holds at the end of a run. */
    void close() {
        if (!isCrashed()) {
            streams.close();
        }
    }
}
