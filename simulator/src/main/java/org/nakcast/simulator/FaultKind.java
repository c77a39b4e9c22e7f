package org.nakcast.simulator;

import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

/** Each kind of fault a simulation can inject; a seed draws its own mix of the kinds allowed. */
enum FaultKind {
    /** Each receiver copy of a datagram lost at random. */
    LOSS,
    /** Runs of consecutive data datagrams lost on one link. */
    BURST,
    /** A data datagram lost before it fans out: every receiver misses it. */
    SHARED_LOSS,
    /** A copy delivered twice. */
    DUPLICATION,
    /** Random delays that reorder datagrams. */
    REORDER,
    /** Socket queues too small, or receivers too slow, for the traffic: the kernel drops. */
    OVERFLOW,
    /** One link, or every link into a host, cut for a while. */
    PARTITION,
    /** A host's incoming link holding everything for a while, then letting it through at once. */
    STALL,
    /** The network refusing a send now and then. */
    SEND_REFUSAL,
    /**
     * A publishing process stopped for a while, then going on: from half the publisher timeout to
     * three times the longest timeout of its topics (publisher, flow control, delivery queue).
     */
    PUBLISHER_PAUSE,
    /** A subscribing process stopped for as long as a publisher pause can last, then going on. */
    SUBSCRIBER_PAUSE,
    /** A publishing process killed and started again: new sessions, same publisher ids. */
    PUBLISHER_RESTART,
    /** A subscribing process killed and started again. */
    SUBSCRIBER_RESTART,
    /** Subscribers that start after the publishers. */
    LATE_JOIN,
    /** A queued subscription whose application stops polling for a while. */
    STOPPED_POLLING,
    /** Subscriptions whose handler throws on some messages, on the receiving thread or the poller's. */
    THROWING_HANDLER,
    /**
     * A stranger forging NAKs, STATUS, sessions and garbage, and sending each type to the port where
     * it does not belong.
     */
    STRANGER,
    /** Two publishing processes that publish a topic under one publisher id, both alive. */
    SHARED_PUBLISHER_ID,
    /**
     * Publications closed once they have offered everything: each sends what is left, marks its end,
     * answers repairs for its close-linger and frees its stream, whatever the network does meanwhile.
     */
    PUBLICATION_CLOSE,
    /**
     * Topics on two lines, each its own segment with its own faults and delays: in a third of such
     * seeds both lines fail independently, in a third each also has an outage (every link of it cut
     * for a while), and in a third line B stays healthy throughout while line A has network faults
     * alone (no process faults, no stranger): then no subscriber may send a single NAK.
     */
    REDUNDANT_LINES,
    /** Subscriptions their application closes along the way: nothing is delivered to them after. */
    SUBSCRIPTION_CLOSE,
    /**
     * Processes whose application closes their node along the way (a publisher's publications end
     * as a closed publication's do), then exits; some start again later with a new node.
     */
    NODE_CLOSE,
    /**
     * A recorder process ({@code org.nakcast.recorder.Recorder} on a node of its own) recording every
     * topic into a directory of its own, an ordinary receiver to the publishers; paused, started
     * late, and killed and started again (recovering its directory) as the seed's subscriber faults
     * say. Its recordings are checked at the end of the run ({@link Invariant#RECORDING}).
     */
    RECORDER,
    /**
     * A recorder's disk that is full for a while (it refuses every segment the recorder would make
     * then: what comes meanwhile becomes a hole of messages not stored) and slow (making a segment
     * stalls the recording thread, up to twice the longest timeout, while its node goes on receiving
     * and its delivery queue fills). Drawn only with a recorder, from the recorder's stream.
     */
    DISK,
    /**
     * Every transport of the seed with a key file ({@code auth-key-file}): each datagram signed, and
     * each one read checked before anything else sees it. A stranger, if the seed has one, has no key:
     * what it forges is dropped at the socket, counted by cause, and so is each signed datagram it
     * replays to a socket that took it before ({@link Invariant#AUTHENTICATED}). Drawn from a stream
     * of its own.
     */
    AUTHENTICATION,
    /**
     * Whole UDP GRO trains lost at a receiver: a run of up to 64 consecutive data datagrams of one
     * link, as many as the kernel coalesces into one train, dropped at once as a full socket queue
     * drops a train (line A only). Drawn from a stream of its own.
     */
    TRAIN_LOSS;

    /** The kind's name on the command line: {@code shared-loss}. */
    String label() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /**
     * Parses a comma-separated list of labels, or {@code all}.
     *
     * @throws IllegalArgumentException naming an unknown kind and the known ones
     */
    static Set<FaultKind> parse(String list) {
        if (list.equals("all")) {
            return EnumSet.allOf(FaultKind.class);
        }
        final Set<FaultKind> kinds = EnumSet.noneOf(FaultKind.class);
        for (String label : list.split(",")) {
            final String trimmed = label.trim();
            if (trimmed.isEmpty()) {
                continue;
            }
            kinds.add(fromLabel(trimmed));
        }
        return kinds;
    }

    /** The kinds as {@link #parse} reads them: {@code all}, or their labels separated by commas. */
    static String labels(Set<FaultKind> kinds) {
        if (kinds.equals(EnumSet.allOf(FaultKind.class))) {
            return "all";
        }
        final StringBuilder labels = new StringBuilder();
        for (FaultKind kind : kinds) {
            labels.append(labels.length() == 0 ? "" : ",").append(kind.label());
        }
        return labels.toString();
    }

    private static FaultKind fromLabel(String label) {
        for (FaultKind kind : values()) {
            if (kind.label().equals(label)) {
                return kind;
            }
        }
        final StringBuilder known = new StringBuilder();
        for (FaultKind kind : values()) {
            known.append(known.length() == 0 ? "" : ", ").append(kind.label());
        }
        throw new IllegalArgumentException("unknown fault kind '" + label + "'; known: all, " + known);
    }
}
