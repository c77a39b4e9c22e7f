package org.nakcast.transport.replay;

import java.io.IOException;
import java.net.InetSocketAddress;

import org.nakcast.config.Endpoint;

/**
 * A recorder reached over TCP at its replay endpoint: each fetch opens a connection of its own
 * without blocking, asks once it is made, and hands the frames on as they come. A range longer
 * than {@link #MESSAGES_PER_REQUEST} is asked for in parts (the asker asks again from where the
 * answer ended). A connection that cannot be made or fails is answered as
 * {@link ReplayRefusal#UNREACHABLE}, with what went wrong.
 */
public final class RecorderSource implements RecoverySource {
    /** The most messages one request asks for, well under a recorder's default request limit. */
    public static final long MESSAGES_PER_REQUEST = 1_000_000;

    private final InetSocketAddress endpoint;
    private final String name;

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
        final long to = Math.min(toMessage, fromMessage + MESSAGES_PER_REQUEST - 1);
        return new TcpFetch(topicId, sessionId, fromMessage, to);
    }

    @Override
    public String toString() {
        return name;
    }

    /** One request on a connection of its own. */
    private final class TcpFetch implements Fetch {
        private final int topicId;
        private final int sessionId;
        private final long from;
        private final long to;
        private ReplayClient client;
        private String failure;
        private boolean asked;
        private boolean told;

        TcpFetch(int topicId, int sessionId, long from, long to) {
            this.topicId = topicId;
            this.sessionId = sessionId;
            this.from = from;
            this.to = to;
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
                client.request(topicId, sessionId, from, to);
                asked = true;
            }
            return client.poll(answers, limit);
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
