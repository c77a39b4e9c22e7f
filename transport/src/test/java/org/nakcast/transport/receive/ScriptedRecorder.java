package org.nakcast.transport.receive;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

import org.agrona.concurrent.UnsafeBuffer;
import org.nakcast.transport.replay.HoleCause;
import org.nakcast.transport.replay.RecoverySource;
import org.nakcast.transport.replay.ReplayHandler;
import org.nakcast.transport.replay.ReplayRefusal;

/**
 * A recorder for tests: holds the messages and holes it is given, answers fetches from them as a
 * recorder would (a message or hole per answer, then done), refuses every fetch while
 * {@link #refusing} is set, or answers nothing while {@link #silent}. Remembers every range asked.
 */
final class ScriptedRecorder implements RecoverySource {
    private final String name;
    private final TreeMap<Long, String> messages = new TreeMap<>();
    private final TreeMap<Long, Long> holes = new TreeMap<>();
    final List<long[]> asked = new ArrayList<>();
    ReplayRefusal refusing;
    /** Whether it answers nothing at all: a recorder stopped, its connection open. */
    boolean silent;
    int openFetches;

    ScriptedRecorder(String name) {
        this.name = name;
    }

    /** Holds these messages, from {@code first} on. */
    ScriptedRecorder holds(long first, String... texts) {
        for (int i = 0; i < texts.length; i++) {
            messages.put(first + i, texts[i]);
        }
        return this;
    }

    /** Holds messages {@code first..first+count-1} as a hole. */
    ScriptedRecorder holdsHole(long first, long count) {
        holes.put(first, count);
        return this;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public Fetch fetch(int topicId, int sessionId, long fromMessage, long toMessage, long nowNs) {
        asked.add(new long[] {fromMessage, toMessage});
        openFetches++;
        return new Fetch() {
            private long next = fromMessage;
            private boolean finished;

            @Override
            public int poll(ReplayHandler answers, int limit, long now) {
                int handed = 0;
                while (!finished && !silent && handed < limit) {
                    handed++;
                    if (refusing != null) {
                        finished = true;
                        answers.onRefused(1, refusing, "scripted");
                    } else if (holes.containsKey(next) && next <= toMessage) {
                        final long count = holes.get(next);
                        final long first = next;
                        next += count;
                        answers.onHole(first, count, HoleCause.RECORDER_DOWN);
                    } else if (messages.containsKey(next) && next <= toMessage) {
                        final byte[] bytes = messages.get(next).getBytes(StandardCharsets.US_ASCII);
                        answers.onMessage(next++, new UnsafeBuffer(bytes), 0, bytes.length, now);
                    } else {
                        finished = true;
                        answers.onDone(1, next);
                    }
                }
                return handed;
            }

            @Override
            public void close() {
                finished = true;
                openFetches--;
            }
        };
    }
}
