package org.nakcast.simulator;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;

import org.nakcast.config.ByteSize;
import org.nakcast.config.Endpoint;
import org.nakcast.config.FlowControlMode;
import org.nakcast.config.LateJoinPolicy;
import org.nakcast.config.LossPolicy;
import org.nakcast.config.NodeConfig;
import org.nakcast.config.NodeSettings;
import org.nakcast.config.TopicConfig;
import org.nakcast.config.TransportConfig;
import org.nakcast.transport.node.NodeHarness;

/**
 * Draws a {@link Scenario} from a seed, swarm style: each seed picks its own fault kinds (among those
 * allowed) and its own rates, sizes and timings, so that runs over many seeds cover both mild and
 * savage mixes, and the same seed always draws the same scenario.
 *
 * <p>What the swarm came to vary after the first seeds were kept as regression tests (a shared
 * publisher id, which throwing handlers are queued) is drawn from a second stream of the seed, so
 * that every earlier seed still draws the network, processes and timings it was kept for; whether
 * topics travel on two lines, and line B's faults, from a third; subscriptions and nodes closed
 * along the way from a fourth; a recorder and what happens to it from a sixth (a seed that draws
 * one runs differently from then on: one more receiver on the segment); whether its transports
 * authenticate their datagrams from a seventh (a seed that does runs differently too: a trailer in
 * every datagram, and the stranger, without the key, forging and replaying otherwise).
 */
final class Swarm {
    private static final long MS = 1_000_000;
    /** Salts the seed's second stream. */
    private static final long LATER_DRAWS = 0x1A7E_D4A3_5EEDL;
    /** Salts the seed's third stream: whether and how its topics travel on two lines. */
    private static final long LINE_DRAWS = 0x2B1D_11E5_5EEDL;
    /** Salts the seed's fourth stream: subscriptions and nodes closed along the way. */
    private static final long CLOSE_DRAWS = 0x3C10_5ED5_5EEDL;
    /** Salts the seed's fifth stream: whether it is a big group losing shared datagrams alone. */
    private static final long GROUP_DRAWS = 0x4D06_A55E_5EEDL;
    /**
     * What a recovering topic's {@code recorders:} key names in a seed: the endpoints only say how many
     * (the nodes fetch from {@link SimRecorderSource}s, which read the seed's recorder).
     */
    private static final List<Endpoint> SIM_RECORDERS =
        List.of(Endpoint.parse("127.0.0.1:40480"), Endpoint.parse("127.0.0.1:40481"));
    /** Salts the seed's sixth stream: whether it runs a recorder, and what happens to it. */
    private static final long RECORDER_DRAWS = 0x5E0C_04DE_5EEDL;
    /** Salts the seed's seventh stream: whether its transports authenticate their datagrams. */
    private static final long AUTHENTICATION_DRAWS = 0x6A07_4E71_5EEDL;
    /** Salts the seed's eighth stream: whether its receivers lose whole GRO trains, and how often. */
    private static final long TRAIN_DRAWS = 0x7C0A_1105_5EEDL;
    /** The most datagrams one lost train takes: a UDP GRO train, as many as the kernel coalesces. */
    private static final int TRAIN_DATAGRAMS = 64;
    /** The share of seeds (allowed authentication) whose transports authenticate their datagrams. */
    private static final int AUTHENTICATED_PERCENT = 30;
    /**
     * The share of seeds (allowed shared loss) that are a big group of subscribers losing datagrams
     * before they fan out, and nothing else: where NAK suppression shows, or its absence.
     */
    private static final int SHARED_LOSS_GROUP_PERCENT = 5;
    /** Fault kinds drawn from the fourth stream. */
    private static final Set<FaultKind> CLOSES = EnumSet.of(FaultKind.SUBSCRIPTION_CLOSE, FaultKind.NODE_CLOSE);
    /** What a seed with one line healthy keeps of its fault kinds: network faults, on line A. */
    private static final Set<FaultKind> BESIDE_A_HEALTHY_LINE = EnumSet.of(FaultKind.LOSS, FaultKind.BURST,
        FaultKind.SHARED_LOSS, FaultKind.DUPLICATION, FaultKind.REORDER, FaultKind.PARTITION, FaultKind.STALL);
    /** Fault kinds added after seeds were kept: whether a seed uses one is drawn from the second stream. */
    private static final Set<FaultKind> ADDED_LATER =
        EnumSet.of(FaultKind.SHARED_PUBLISHER_ID, FaultKind.PUBLICATION_CLOSE);
    private static final int[] DATAGRAM_SIZES = {128, 256, 512, 1408};
    /** Each topic's offer buffer. */
    private static final int OFFER_BUFFER = 64 << 10;
    /** The largest message a topic takes: an eighth of the offer buffer, as the publishers offer. */
    static final int MAX_MESSAGE = OFFER_BUFFER / 8;
    /** The smallest delivery queue drawn: one that carries the largest message beside a datagram. */
    private static final long MIN_DELIVERY_QUEUE = 4L * MAX_MESSAGE;
    private static final NodeSettings NODE = NodeConfig.embeddedDefault().node();

    private Swarm() {
    }

    /** The scenario of {@code seed}, using only the fault kinds in {@code allowed}. */
    static Scenario draw(long seed, Set<FaultKind> allowed) {
        final SplittableRandom random = new SplittableRandom(seed);
        final SplittableRandom later = new SplittableRandom(seed ^ LATER_DRAWS);
        final SplittableRandom closes = new SplittableRandom(seed ^ CLOSE_DRAWS);
        final Set<FaultKind> kinds = EnumSet.noneOf(FaultKind.class);
        for (FaultKind kind : allowed) {
            final SplittableRandom draws = CLOSES.contains(kind) ? closes : ADDED_LATER.contains(kind) ? later : random;
            if (kind != FaultKind.REDUNDANT_LINES && kind != FaultKind.RECORDER && kind != FaultKind.DISK
                && kind != FaultKind.AUTHENTICATION && kind != FaultKind.TRAIN_LOSS && draws.nextInt(100) < 35) {
                kinds.add(kind);
            }
        }
        final boolean sharedLossGroup = allowed.contains(FaultKind.SHARED_LOSS)
            && new SplittableRandom(seed ^ GROUP_DRAWS).nextInt(100) < SHARED_LOSS_GROUP_PERCENT;
        if (sharedLossGroup) {
            kinds.clear();
            kinds.add(FaultKind.SHARED_LOSS);
        }
        final SplittableRandom lineDraws = new SplittableRandom(seed ^ LINE_DRAWS);
        final boolean twoLines = !sharedLossGroup && allowed.contains(FaultKind.REDUNDANT_LINES)
            && lineDraws.nextInt(100) < 35;
        final int lineMode = twoLines ? lineDraws.nextInt(3) : -1;
        final boolean healthyLineB = lineMode == 0;
        if (healthyLineB) {
            kinds.retainAll(BESIDE_A_HEALTHY_LINE);
        }
        if (twoLines) {
            kinds.add(FaultKind.REDUNDANT_LINES);
        }
        final boolean authenticated = !sharedLossGroup && allowed.contains(FaultKind.AUTHENTICATION)
            && new SplittableRandom(seed ^ AUTHENTICATION_DRAWS).nextInt(100) < AUTHENTICATED_PERCENT;
        if (authenticated) {
            kinds.add(FaultKind.AUTHENTICATION);
        }
        final SplittableRandom trainDraws = new SplittableRandom(seed ^ TRAIN_DRAWS);
        final boolean trainsLost = !sharedLossGroup && !healthyLineB && allowed.contains(FaultKind.TRAIN_LOSS)
            && trainDraws.nextInt(100) < 35;
        if (trainsLost) {
            kinds.add(FaultKind.TRAIN_LOSS);
        }
        final String keyFile = authenticated ? SimKeyFile.path() : null;
        final int datagramSize = DATAGRAM_SIZES[random.nextInt(DATAGRAM_SIZES.length)];
        final int historyDatagrams = 16 << random.nextInt(6);
        final long heartbeatNs = (1 + random.nextInt(10)) * MS;
        final long publisherTimeoutNs = heartbeatNs * (2 + random.nextInt(4));
        final long faultPhaseNs = (40 + random.nextInt(110)) * MS;
        final int topicCount = 1 + random.nextInt(3);

        final TransportConfig transport = new TransportConfig("sim", "lo", "239.255.77.9", 40100)
            .withDatagramSize(new ByteSize(datagramSize))
            .withSendRate(random.nextInt(10) < 7 ? ByteSize.ZERO : new ByteSize((5L + random.nextInt(95)) << 20))
            .withAuthKeyFile(keyFile);
        final List<TransportConfig> transports = new ArrayList<>(List.of(transport));
        final long lineTimeoutNs = twoLines
            ? MS * (1 + lineDraws.nextInt((int) Math.min(10, publisherTimeoutNs / MS - 1))) : 0;
        if (twoLines) {
            transports.add(new TransportConfig("sim-b", "lo", "239.255.77.11", 40102)
                .withDatagramSize(transport.datagramSize()).withSendRate(transport.sendRate())
                .withAuthKeyFile(keyFile));
        }
        final List<TopicConfig> topics = new ArrayList<>();
        for (int t = 1; t <= topicCount; t++) {
            TopicConfig topic = new TopicConfig("t" + t, t, "sim", SimMessageCodec.NAME)
                .withHistory(new ByteSize((long) historyDatagrams * datagramSize))
                .withHeartbeat(Duration.ofNanos(heartbeatNs))
                .withPublisherTimeout(Duration.ofNanos(publisherTimeoutNs))
                .withFlowControl(random.nextBoolean() ? FlowControlMode.MIN : FlowControlMode.MAX)
                .withFlowControlTimeout(Duration.ofNanos(heartbeatNs * (2 + random.nextInt(4))))
                .withLateJoin(random.nextInt(4) == 0 ? LateJoinPolicy.OLDEST : LateJoinPolicy.NOW)
                .withLossPolicy(random.nextInt(5) == 0 ? LossPolicy.DROP : LossPolicy.CONTINUE)
                .withMaxPublishers(random.nextInt(5) == 0 ? 1 + random.nextInt(3) : TopicConfig.DEFAULT_MAX_PUBLISHERS)
                .withDeliveryQueue(
                    new ByteSize(Math.max(MIN_DELIVERY_QUEUE, (long) datagramSize * (64 << random.nextInt(4)))),
                    Duration.ofNanos(heartbeatNs * (1 + random.nextInt(4))))
                .withOfferBuffer(new ByteSize(OFFER_BUFFER))
                .withMaxMessage(new ByteSize(MAX_MESSAGE));
            if (twoLines) {
                topic = topic.withLines("sim", "sim-b").withLineTimeout(Duration.ofNanos(lineTimeoutNs));
            }
            topics.add(topic);
        }
        if (kinds.contains(FaultKind.PUBLICATION_CLOSE)) {
            topics.replaceAll(topic -> topic.withCloseLinger(Duration.ofNanos(heartbeatNs * later.nextInt(8))));
        }
        final int reorderWindow = 64 << random.nextInt(5);
        topics.replaceAll(topic -> topic.withReorderWindow(reorderWindow));
        NodeConfig config = new NodeConfig(NODE, transports, topics)
            .conclude();
        final Timing timing =
            new Timing(faultPhaseNs, heartbeatNs, publisherTimeoutNs, Scenario.longestTimeoutNs(config.topics()));
        final NodeHarness harness = new NodeHarness();

        final List<Scenario.PublisherPlan> publishers = drawPublishers(random, kinds, topicCount, timing);
        if (kinds.contains(FaultKind.SHARED_PUBLISHER_ID)) {
            sharePublisherId(later, publishers);
        }
        if (kinds.contains(FaultKind.PUBLICATION_CLOSE)) {
            closeSomePublications(later, publishers);
        }
        final List<Scenario.SubscriberPlan> subscribers =
            drawSubscribers(random, later, kinds, topics, timing, sharedLossGroup);
        if (kinds.contains(FaultKind.SUBSCRIPTION_CLOSE)) {
            closeSomeSubscriptions(closes, subscribers, faultPhaseNs);
        }
        if (kinds.contains(FaultKind.NODE_CLOSE)) {
            closeSomeNodes(closes, publishers, subscribers, timing);
        }
        final NetworkFaults faults = drawFaults(random, kinds, publishers.size(), subscribers.size(), faultPhaseNs,
            publisherTimeoutNs);
        if (trainsLost) {
            faults.trainStart = 0.0005 + trainDraws.nextDouble() * 0.005;
            faults.trainDatagrams = TRAIN_DATAGRAMS;
        }
        final long strangerIntervalNs = kinds.contains(FaultKind.STRANGER) ? 20_000 + random.nextInt(1_000_000) : 0;
        faults.sendRefusal = kinds.contains(FaultKind.SEND_REFUSAL) ? 0.001 + random.nextDouble() * 0.05 : 0;
        final Scenario.SecondLine secondLine;
        if (!twoLines) {
            secondLine = null;
        } else if (healthyLineB) {
            final NetworkFaults healthy = new NetworkFaults();
            healthy.healAtNs = faultPhaseNs;
            healthy.baseDelayNs = 5_000 + lineDraws.nextInt(30_000);
            secondLine = new Scenario.SecondLine(healthy, true);
        } else {
            final NetworkFaults lineB = drawFaults(lineDraws, kinds, publishers.size(), subscribers.size(),
                faultPhaseNs, publisherTimeoutNs);
            lineB.sendRefusal = kinds.contains(FaultKind.SEND_REFUSAL) ? 0.001 + lineDraws.nextDouble() * 0.05 : 0;
            if (lineMode == 2) {
                cutLine(lineDraws, faults, publishers.size(), subscribers.size(), faultPhaseNs, lineTimeoutNs);
                cutLine(lineDraws, lineB, publishers.size(), subscribers.size(), faultPhaseNs, lineTimeoutNs);
            }
            secondLine = new Scenario.SecondLine(lineB, false);
        }
        final long settleNs = Math.max(4 * harness.nakTiming().retryMaxNs(), 4 * publisherTimeoutNs);
        final SplittableRandom recorderDraws = new SplittableRandom(seed ^ RECORDER_DRAWS);
        final List<Scenario.SubscriberPlan> recorders = new ArrayList<>();
        if (allowed.contains(FaultKind.RECORDER) && !sharedLossGroup && !healthyLineB
            && recorderDraws.nextInt(100) < 35) {
            kinds.add(FaultKind.RECORDER);
            recorders.add(recorder(recorderDraws, kinds, timing));
        }
        Scenario.RecoveryFaults recovery = null;
        if (!recorders.isEmpty() && recorderDraws.nextInt(100) < 70) {
            recovery = recoveryFaults(recorderDraws, heartbeatNs, publisherTimeoutNs);
            if (recovery.sources() == 2) {
                recorders.add(recorder(recorderDraws, kinds, timing));
            }
            config = new NodeConfig(config.node(), config.transports(),
                recoveringTopics(recorderDraws, config.topics(), recovery.sources())).conclude();
        }
        // drawn last of the recorder's stream, so that what was drawn before stays as it was
        final boolean diskFaults = !recorders.isEmpty() && allowed.contains(FaultKind.DISK)
            && recorderDraws.nextInt(100) < 50;
        if (diskFaults) {
            kinds.add(FaultKind.DISK);
        }
        final List<Scenario.RecorderPlan> recorderPlans = new ArrayList<>();
        for (Scenario.SubscriberPlan process : recorders) {
            recorderPlans.add(new Scenario.RecorderPlan(process,
                diskFaults ? disk(recorderDraws, timing) : Scenario.Disk.HEALTHY));
        }
        return new Scenario(seed, kinds, config, harness, publishers, subscribers, recorderPlans, faults,
            strangerIntervalNs, secondLine, faultPhaseNs, settleNs, recovery);
    }

    /**
     * A recorder's disk: in two seeds of three full once, from a time in the fault phase for up to
     * half of it; in one of two slow, each segment's making stalling the recording thread, by a
     * chance of one in four to one in one, for up to twice the longest timeout.
     */
    private static Scenario.Disk disk(SplittableRandom draws, Timing timing) {
        final long fullFromNs = draws.nextInt(3) > 0 ? draws.nextLong(timing.faultPhaseNs()) : Long.MAX_VALUE;
        final long fullForNs = draws.nextLong(1, timing.faultPhaseNs() / 2 + 2);
        final int slowPercent = draws.nextBoolean() ? 25 * (1 + draws.nextInt(4)) : 0;
        final long slowMaxNs = draws.nextLong(1, 2 * timing.longestTimeoutNs() + 2);
        return new Scenario.Disk(fullFromNs, fullFromNs == Long.MAX_VALUE ? Long.MAX_VALUE : fullFromNs + fullForNs,
            slowPercent, slowMaxNs, draws.nextLong());
    }

    /**
     * How the seed's recorders answer fetches: A alone, or A and B (a second recorder); slow, late,
     * refusing. An answer comes at most a heartbeat late, and at most a quarter of the patience (the
     * publisher timeout), so that a recorder that holds the messages, asked again after a lagging
     * "not yet" (a heartbeat at most) and a pause, answers within the one patience a recovery gives
     * it: the recovery guarantee is owed by recorders that answer in time (seed 1166433 drew answers
     * a heartbeat late against a patience of two heartbeats, and its recovery gave up with the second
     * answer still on its way).
     */
    private static Scenario.RecoveryFaults recoveryFaults(SplittableRandom draws, long heartbeatNs,
        long publisherTimeoutNs) {
        final long lateAtMostNs = Math.min(heartbeatNs, publisherTimeoutNs / 4);
        return new Scenario.RecoveryFaults(1 + draws.nextInt(2),
            draws.nextInt(3) == 0 ? draws.nextDouble() * 0.3 : 0,
            draws.nextBoolean() ? draws.nextLong(1, lateAtMostNs) : 0,
            draws.nextInt(3) == 0 ? 1 + draws.nextInt(8) : 256,
            draws.nextInt(3) == 0 ? draws.nextLong(1, heartbeatNs) : 0,
            lateAtMostNs);
    }

    /**
     * The topics of a seed with a recorder its subscribers recover from: three in four name it (as A,
     * or as A and B), and one in three of any wants each session whole ({@code late-join: session-start},
     * with or without a recorder to fetch from).
     */
    private static List<TopicConfig> recoveringTopics(SplittableRandom draws, List<TopicConfig> topics, int sources) {
        final List<Endpoint> named = SIM_RECORDERS.subList(0, sources);
        final List<TopicConfig> recovering = new ArrayList<>();
        for (TopicConfig topic : topics) {
            TopicConfig drawn = draws.nextInt(4) > 0 ? topic.withRecorders(named) : topic;
            if (draws.nextInt(3) == 0) {
                drawn = drawn.withLateJoin(LateJoinPolicy.SESSION_START);
            }
            recovering.add(drawn);
        }
        return recovering;
    }

    /**
     * A recorder's process: started late, paused, and killed and started again as the seed's subscriber
     * faults say, from the recorder's stream; always started again after a crash.
     */
    private static Scenario.SubscriberPlan recorder(SplittableRandom draws, Set<FaultKind> kinds, Timing timing) {
        final long joinAt = kinds.contains(FaultKind.LATE_JOIN) && draws.nextBoolean()
            ? draws.nextLong(timing.faultPhaseNs()) : 0;
        final List<Scenario.Pause> pauses = new ArrayList<>();
        if (kinds.contains(FaultKind.SUBSCRIBER_PAUSE) && draws.nextBoolean()) {
            pauses.add(pause(draws, timing));
        }
        Scenario.Stop stop = Scenario.Stop.NEVER;
        if (kinds.contains(FaultKind.SUBSCRIBER_RESTART) && draws.nextBoolean()) {
            final long crashAt = draws.nextLong(timing.faultPhaseNs() / 2, timing.faultPhaseNs());
            stop = new Scenario.Stop(crashAt, false, crashAt + draws.nextLong(1, 3 * timing.heartbeatNs()));
        }
        return new Scenario.SubscriberPlan(shape(draws, kinds, true), List.of(), joinAt, pauses, stop);
    }

    /**
     * An outage of a whole line: every link into every subscriber cut, from a time in the fault phase
     * for one to ten line timeouts.
     */
    private static void cutLine(SplittableRandom lineDraws, NetworkFaults line, int publishers, int subscribers,
        long faultPhaseNs, long lineTimeoutNs) {
        final long start = lineDraws.nextLong(faultPhaseNs);
        final long end = start + lineTimeoutNs * (1 + lineDraws.nextInt(10));
        for (int host = publishers; host < publishers + subscribers; host++) {
            line.partitions.add(new NetworkFaults.Partition(-1, host, start, end));
        }
    }

    /**
     * A seed's timings.
     *
     * @param longestTimeoutNs the longest of the publisher timeout and every topic's flow-control and
     *     delivery-queue timeouts: pauses reach three times past it
     */
    private record Timing(long faultPhaseNs, long heartbeatNs, long publisherTimeoutNs, long longestTimeoutNs) {
    }

    private static List<Scenario.PublisherPlan> drawPublishers(SplittableRandom random, Set<FaultKind> kinds,
        int topicCount, Timing timing) {
        final long faultPhaseNs = timing.faultPhaseNs();
        final long heartbeatNs = timing.heartbeatNs();
        final int count = 1 + random.nextInt(3);
        final List<Scenario.PublisherPlan> plans = new ArrayList<>();
        for (int p = 0; p < count; p++) {
            final List<PublisherHost.Topic> topics = new ArrayList<>();
            for (int t = 1; t <= topicCount; t++) {
                if (random.nextInt(3) > 0 || t == 1 + p % topicCount) {
                    topics.add(new PublisherHost.Topic("t" + t, t, 50 + random.nextInt(1500), 5 + random.nextInt(200),
                        false));
                }
            }
            final List<Scenario.Pause> pauses = new ArrayList<>();
            if (kinds.contains(FaultKind.PUBLISHER_PAUSE) && random.nextBoolean()) {
                pauses.add(pause(random, timing));
            }
            Scenario.Stop stop = Scenario.Stop.NEVER;
            if (kinds.contains(FaultKind.PUBLISHER_RESTART) && random.nextBoolean()) {
                final long crashAt = random.nextLong(faultPhaseNs / 2, faultPhaseNs);
                stop = new Scenario.Stop(crashAt, false, crashAt + random.nextLong(1, 3 * heartbeatNs));
            }
            plans.add(new Scenario.PublisherPlan(shape(random, kinds, false), "pub" + p, topics, pauses, stop));
        }
        return plans;
    }

    /** Makes about half the topics of each publishing process close once they have offered everything. */
    private static void closeSomePublications(SplittableRandom later, List<Scenario.PublisherPlan> publishers) {
        for (Scenario.PublisherPlan plan : publishers) {
            plan.topics().replaceAll(topic -> later.nextBoolean() ? topic.closingWhenDone() : topic);
        }
    }

    /**
     * Gives a second publishing process the node name of a first, if two publish one topic: their
     * publications of it share a publisher id, and neither may end the other's stream while both talk.
     */
    private static void sharePublisherId(SplittableRandom later, List<Scenario.PublisherPlan> publishers) {
        final int start = later.nextInt(publishers.size());
        for (int i = 0; i < publishers.size(); i++) {
            final Scenario.PublisherPlan first = publishers.get((start + i) % publishers.size());
            for (int j = i + 1; j < publishers.size(); j++) {
                final int secondIndex = (start + j) % publishers.size();
                final Scenario.PublisherPlan second = publishers.get(secondIndex);
                final boolean shareATopic = first.topics().stream().anyMatch(topic -> second.topics().stream()
                    .anyMatch(other -> other.topicId() == topic.topicId()));
                if (shareATopic) {
                    publishers.set(secondIndex, new Scenario.PublisherPlan(second.shape(), first.nodeName(),
                        second.topics(), second.pauses(), second.stop()));
                    return;
                }
            }
        }
    }

    /** Has the application close about half the subscriptions at a time in the fault phase. */
    private static void closeSomeSubscriptions(SplittableRandom closes, List<Scenario.SubscriberPlan> subscribers,
        long faultPhaseNs) {
        for (Scenario.SubscriberPlan plan : subscribers) {
            plan.subscriptions().replaceAll(subscription -> closes.nextBoolean() ? subscription
                : new SubscriberHost.SubscriptionPlan(subscription.topicName(), subscription.topicId(),
                    subscription.kind(), subscription.throwing(), subscription.pollStopFromNs(),
                    subscription.pollStopUntilNs(), closes.nextLong(faultPhaseNs)));
        }
    }

    /**
     * Has the application of about a third of the processes that neither crash nor restart close its
     * node at a time in the fault phase; half of them start again a while later with a new node.
     */
    private static void closeSomeNodes(SplittableRandom closes, List<Scenario.PublisherPlan> publishers,
        List<Scenario.SubscriberPlan> subscribers, Timing timing) {
        publishers.replaceAll(plan -> plan.stop().happens() || closes.nextInt(3) > 0 ? plan
            : new Scenario.PublisherPlan(plan.shape(), plan.nodeName(), plan.topics(), plan.pauses(),
                nodeClose(closes, timing)));
        subscribers.replaceAll(plan -> plan.stop().happens() || closes.nextInt(3) > 0 ? plan
            : new Scenario.SubscriberPlan(plan.shape(), plan.subscriptions(), plan.joinAtNs(), plan.pauses(),
                nodeClose(closes, timing)));
    }

    private static Scenario.Stop nodeClose(SplittableRandom closes, Timing timing) {
        final long closeAt = closes.nextLong(timing.faultPhaseNs());
        return new Scenario.Stop(closeAt, true,
            closes.nextBoolean() ? closeAt + closes.nextLong(1, 3 * timing.publisherTimeoutNs()) : -1);
    }

    /** @param bigGroup whether there are 8 to 32 subscribers rather than 1 to 5 */
    private static List<Scenario.SubscriberPlan> drawSubscribers(SplittableRandom random, SplittableRandom later,
        Set<FaultKind> kinds, List<TopicConfig> topics, Timing timing, boolean bigGroup) {
        final long faultPhaseNs = timing.faultPhaseNs();
        final int count = bigGroup || kinds.contains(FaultKind.SHARED_LOSS) && random.nextInt(4) == 0
            ? 8 + random.nextInt(25) : 1 + random.nextInt(5);
        final List<Scenario.SubscriberPlan> plans = new ArrayList<>();
        for (int s = 0; s < count; s++) {
            final List<SubscriberHost.SubscriptionPlan> subscriptions = new ArrayList<>();
            for (TopicConfig topic : topics) {
                if (random.nextInt(10) < 3 && topic.id() != 1 + s % topics.size()) {
                    continue;
                }
                final int perTopic = 1 + (random.nextInt(4) == 0 ? 1 : 0);
                for (int k = 0; k < perTopic; k++) {
                    subscriptions.add(subscription(random, later, kinds, topic, timing));
                }
            }
            final long joinAt = kinds.contains(FaultKind.LATE_JOIN) && random.nextBoolean()
                ? random.nextLong(faultPhaseNs) : 0;
            final List<Scenario.Pause> pauses = new ArrayList<>();
            if (kinds.contains(FaultKind.SUBSCRIBER_PAUSE) && random.nextBoolean()) {
                pauses.add(pause(random, timing));
            }
            Scenario.Stop stop = Scenario.Stop.NEVER;
            if (kinds.contains(FaultKind.SUBSCRIBER_RESTART) && random.nextInt(3) == 0) {
                final long crashAt = random.nextLong(faultPhaseNs / 2, faultPhaseNs);
                stop = new Scenario.Stop(crashAt, false, crashAt + random.nextLong(1, 3 * timing.heartbeatNs()));
            }
            plans.add(new Scenario.SubscriberPlan(shape(random, kinds, true), subscriptions, joinAt, pauses, stop));
        }
        return plans;
    }

    /**
     * One subscription: on the receiving thread or queued, its handler throwing or not, its poller
     * stopping for a while or not. Whether a throwing handler is queued, and whether a queued one's
     * poller stops, come from the second stream.
     */
    private static SubscriberHost.SubscriptionPlan subscription(SplittableRandom random, SplittableRandom later,
        Set<FaultKind> kinds, TopicConfig topic, Timing timing) {
        final int draw = random.nextInt(10);
        final boolean throwing = kinds.contains(FaultKind.THROWING_HANDLER) && draw < 3;
        final SubscriptionProbe.Kind kind;
        if (throwing) {
            kind = later.nextBoolean() ? SubscriptionProbe.Kind.QUEUED : SubscriptionProbe.Kind.CALLBACK;
        } else if (draw < 6 || kinds.contains(FaultKind.STOPPED_POLLING) && draw < 8) {
            kind = SubscriptionProbe.Kind.QUEUED;
        } else {
            kind = SubscriptionProbe.Kind.CALLBACK;
        }
        long stopFrom = Long.MAX_VALUE;
        long stopUntil = Long.MAX_VALUE;
        final SplittableRandom stopDraws = throwing ? later : random;
        if (kind == SubscriptionProbe.Kind.QUEUED && kinds.contains(FaultKind.STOPPED_POLLING)
            && stopDraws.nextBoolean()) {
            stopFrom = stopDraws.nextLong(timing.faultPhaseNs());
            stopUntil = Math.min(timing.faultPhaseNs(),
                stopFrom + stopDraws.nextLong(1, 3 * timing.publisherTimeoutNs()));
        }
        return new SubscriberHost.SubscriptionPlan(topic.name(), topic.id(), kind, throwing, stopFrom, stopUntil,
            Long.MAX_VALUE);
    }

    private static NetworkFaults drawFaults(SplittableRandom random, Set<FaultKind> kinds, int publishers,
        int subscribers, long faultPhaseNs, long publisherTimeoutNs) {
        final NetworkFaults faults = new NetworkFaults();
        faults.healAtNs = faultPhaseNs;
        faults.baseDelayNs = 5_000 + random.nextInt(30_000);
        if (kinds.contains(FaultKind.LOSS)) {
            faults.dataLoss = random.nextDouble() * 0.2;
            faults.controlLoss = random.nextDouble() * 0.2;
        }
        if (kinds.contains(FaultKind.BURST)) {
            faults.burstStart = 0.001 + random.nextDouble() * 0.01;
            faults.burstLength = 2 + random.nextInt(50);
        }
        if (kinds.contains(FaultKind.SHARED_LOSS)) {
            faults.sharedDataLoss = 0.001 + random.nextDouble() * 0.05;
        }
        if (kinds.contains(FaultKind.DUPLICATION)) {
            faults.duplicate = 0.001 + random.nextDouble() * 0.05;
        }
        if (kinds.contains(FaultKind.REORDER)) {
            faults.jitterMeanNs = 1_000 + random.nextInt(200_000);
        }
        final int hosts = publishers + subscribers;
        if (kinds.contains(FaultKind.PARTITION)) {
            for (int i = 0, n = 1 + random.nextInt(2); i < n; i++) {
                final long start = random.nextLong(faultPhaseNs);
                final long end = start + random.nextLong(1, 2 * publisherTimeoutNs + 1);
                final int to = random.nextInt(hosts);
                final int from = random.nextBoolean() ? -1 : random.nextInt(hosts);
                faults.partitions.add(new NetworkFaults.Partition(from, to, start, end));
            }
        }
        if (kinds.contains(FaultKind.STALL)) {
            final long start = random.nextLong(faultPhaseNs);
            faults.stalls.add(new NetworkFaults.Stall(publishers + random.nextInt(subscribers), start,
                start + random.nextLong(1, 2 * publisherTimeoutNs + 1)));
        }
        return faults;
    }

    /**
     * A pause in the fault phase, from half the publisher timeout to three times the longest timeout:
     * most pauses outlast every timeout (publisher, flow control, delivery queue), some only part.
     */
    private static Scenario.Pause pause(SplittableRandom random, Timing timing) {
        final long from = random.nextLong(timing.faultPhaseNs());
        return new Scenario.Pause(from,
            from + random.nextLong(timing.publisherTimeoutNs() / 2, 3 * timing.longestTimeoutNs()));
    }

    private static HostShape shape(SplittableRandom random, Set<FaultKind> kinds, boolean subscriber) {
        final boolean overflow = kinds.contains(FaultKind.OVERFLOW) && random.nextBoolean();
        final int queueLimit = overflow ? 8 + random.nextInt(56) : 256 + random.nextInt(4096);
        final long busyNs = overflow && subscriber ? 10_000 + random.nextInt(90_000) : 1_000 + random.nextInt(4_000);
        final long maxIdleNs = 20_000 + random.nextInt(980_000);
        return new HostShape(queueLimit, busyNs, maxIdleNs);
    }
}
