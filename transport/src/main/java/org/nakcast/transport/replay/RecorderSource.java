package org.nakcast.transport.replay;

import java.io.IOException;
import java.net.InetSocketAddress;

import org.agrona.DirectBuffer;
import org.nakcast.config.Endpoint;

/**
 * A recorder reached over TCP at its replay endpoint: each fetch opens a connection of its own
 * without blocking, asks once it is made, and hands the frames on as they come. A range longer
 * than {@link #MESSAGES_PER_REQUEST} is asked for in parts (the asker asks again from where the
 * answer ended); a recorder that refuses a request as {@link ReplayRefusal#TOO_LONG} (its
 * {@code replay-request-limit} is lower) is asked at once, on the same connection, for half as
 * many, and every later fetch asks for no more than it took. A connection that cannot be made or
 * fails is answered as {@link ReplayRefusal#UNREACHABLE}, with what went wrong.
 */
public final class RecorderSource implements RecoverySource {
    /** The most messages one request asks for, well under a recorder's default request limit. */
    public static final long MESSAGES_PER_REQUEST = 1_000_000;

    private final InetSocketAddress endpoint;
    private final String name;
    /** The most messages a request asks for: halved at each TOO_LONG. */
    private long requestLimit = MESSAGES_PER_REQUEST;

    /** A recorder whose replay endpoint is {@code endpoint}. */
    public RecorderSource(Endpoint endpoint) {
        this.endpoint = endpoint.socketAddress();
        this.name = endpoint.toString();
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public Fetch fetch(int topicId, int sessionId, long fromMessage, long toMessage, long nowNs) {
        return new TcpFetch(topicId, sessionId, fromMessage, toMessage);
    }

    @Override
    public String toString() {
        return name;
    }

    /** One request on a connection of its own (asked again for less if it was too long). */
    private final class TcpFetch implements Fetch, ReplayHandler {
        private final int topicId;
        private final int sessionId;
        private final long from;
        private final long toWanted;
        private long to;
        private ReplayClient client;
        private ReplayHandler asker;
        private String failure;
        private boolean asked;
        private boolean told;

        TcpFetch(int topicId, int sessionId, long from, long toWanted) {
            this.topicId = topicId;
            this.sessionId = sessionId;
            this.from = from;
            this.toWanted = toWanted;
            try {
                client = ReplayClient.connectLater(endpoint);
            } catch (IOException e) {
                failure = e.getMessage();
            }
        }

        @Override
        public int poll(ReplayHandler answers, int limit, long nowNs) {
            if (failure == null) {
                try {
                    return pollConnection(answers, limit);
                } catch (IOException e) {
                    failure = name + ": " + e;
                    closeClient();
                }
            }
            if (told) {
                return 0;
            }
            told = true;
            answers.onRefused(0, ReplayRefusal.UNREACHABLE, failure);
            return 1;
        }

        private int pollConnection(ReplayHandler answers, int limit) throws IOException {
            if (!asked) {
                if (!client.finishConnect()) {
                    return 0;
                }
                to = Math.min(toWanted, from + requestLimit - 1);
                client.request(topicId, sessionId, from, to);
                asked = true;
            }
            asker = answers;
            return client.poll(this, limit);
        }

        @Override
        public void onAccepted(long requestId, long first, long last) {
            asker.onAccepted(requestId, first, last);
        }

        @Override
        public void onMessage(long messageIndex, DirectBuffer buffer, int offset, int length, long recordedAtNs) {
            asker.onMessage(messageIndex, buffer, offset, length, recordedAtNs);
        }

        @Override
        public void onHole(long firstMessage, long count, HoleCause cause) {
            asker.onHole(firstMessage, count, cause);
        }

        @Override
        public void onDone(long requestId, long nextMessageIndex) {
            asker.onDone(requestId, nextMessageIndex);
        }

        @Override
        public void onRefused(long requestId, ReplayRefusal refusal, String sentence) {
            if (refusal == ReplayRefusal.TOO_LONG && to > from) {
                requestLimit = Math.max(1, (to - from + 1) / 2);
                asked = false;
            } else {
                asker.onRefused(requestId, refusal, sentence);
            }
        }

        @Override
        public void close() {
            closeClient();
        }

        private void closeClient() {
            if (client != null) {
                try {
                    client.close();
                } catch (IOException ignored) {
                    // closing a connection given up on: nothing more to learn from it
                }
                client = null;
            }
        }
    }
}
