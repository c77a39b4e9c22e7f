package org.nakcast.benchmarks.soak;

import java.util.LinkedHashMap;
import java.util.Map;

import org.nakcast.benchmarks.child.Figures;

/** How a soak subscriber's report names its per-session figures: {@code s<session>.<figure>}. */
final class SoakFigures {
    private static final String SESSION_MARK = "s";

    private SoakFigures() {
    }

    /** The prefix of one session's figures. */
    static String sessionPrefix(int sessionId) {
        return SESSION_MARK + sessionId + ".";
    }

    /** Every session's tally in a subscriber's report, by session id, in report order. */
    static Map<Integer, SessionTally> sessions(Figures report) {
        final Map<Integer, SessionTally> sessions = new LinkedHashMap<>();
        for (String name : report.asMap().keySet()) {
            if (name.startsWith(SESSION_MARK) && name.endsWith(".first")) {
                final int sessionId = Integer.parseInt(name.substring(SESSION_MARK.length(), name.indexOf('.')));
                sessions.put(sessionId, SessionTally.from(report, sessionPrefix(sessionId)));
            }
        }
        return sessions;
    }
}
