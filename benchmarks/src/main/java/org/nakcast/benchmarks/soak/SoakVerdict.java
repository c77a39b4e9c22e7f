package org.nakcast.benchmarks.soak;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Judges a soak run: what each subscriber host's last subscriber received of every publisher
 * session against what that session sent. A subscriber that ran the whole time must have every
 * message of every session exactly once and in order, none reported lost. A subscriber killed
 * and restarted joins live ("late join now"): of a session already running when it came back it
 * owes only the messages from its first one on, and the ones before are its declared gap; of a
 * session started after it came back it owes everything. Duplicates, silent jumps and reported
 * loss are failures everywhere: the lossy host must have had every gap repaired.
 */
final class SoakVerdict {
    private SoakVerdict() {
    }

    /** What one publisher session sent. */
    record PublisherSession(int sessionId, long sent) {
    }

    /**
     * The surviving subscriber of one host.
     *
     * @param host the simulated host
     * @param restarted whether it is a restart of a subscriber killed during the run
     * @param sessions its tally of each session it heard
     */
    record HostSubscriber(int host, boolean restarted, Map<Integer, SessionTally> sessions) {
    }

    /**
     * One host's outcome, summed over the publisher sessions.
     *
     * @param sent messages the sessions sent
     * @param received messages the host's subscriber received, each once
     * @param declaredGap messages before a restarted subscriber's first of a session
     * @param missing messages owed but not received; must be 0
     * @param duplicates messages received twice; must be 0
     * @param skippedSilently messages jumped over with no loss event; must be 0
     * @param lost messages loss events reported; must be 0 (every gap is repairable here)
     * @param foreignSessions sessions heard that no publisher reported; must be 0
     */
    record HostOutcome(int host, boolean restarted, long sent, long received, long declaredGap, long missing,
        long duplicates, long skippedSilently, long lost, long foreignSessions) {
        /** Whether the host's subscriber got what it owed, and nothing broke. */
        boolean ok() {
            return missing == 0 && duplicates == 0 && skippedSilently == 0 && lost == 0 && foreignSessions == 0;
        }
    }

    /** The outcome of each host, in the order given. */
    static List<HostOutcome> judge(List<PublisherSession> publishers, List<HostSubscriber> subscribers) {
        final List<HostOutcome> outcomes = new ArrayList<>();
        for (HostSubscriber subscriber : subscribers) {
            long sent = 0;
            long received = 0;
            long declaredGap = 0;
            long duplicates = 0;
            long skipped = 0;
            long lost = 0;
            for (PublisherSession publisher : publishers) {
                sent += publisher.sent();
                final SessionTally tally = subscriber.sessions().get(publisher.sessionId());
                if (tally == null || tally.first() == SessionTally.NOTHING_YET) {
                    continue;
                }
                received += tally.received();
                declaredGap += subscriber.restarted() ? tally.first() : 0;
                duplicates += tally.duplicates();
                skipped += tally.skippedSilently();
                lost += tally.lost();
            }
            final long foreign = subscriber.sessions().keySet().stream()
                .filter(session -> publishers.stream().noneMatch(publisher -> publisher.sessionId() == session))
                .count();
            outcomes.add(new HostOutcome(subscriber.host(), subscriber.restarted(), sent, received, declaredGap,
                sent - declaredGap - received, duplicates, skipped, lost, foreign));
        }
        return outcomes;
    }
}
