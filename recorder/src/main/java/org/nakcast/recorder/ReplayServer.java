package org.nakcast.recorder;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.agrona.concurrent.UnsafeBuffer;
import org.nakcast.recorder.store.Catalog;
import org.nakcast.transport.replay.ReplayFrame;
import org.nakcast.transport.replay.ReplayRefusal;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A recorder's replay endpoint: a TCP port where clients ask for ranges of recorded sessions
 * ({@link org.nakcast.transport.replay.ReplayFrame}). Served from the recorder's own thread, in
 * its duty cycle, without blocking: each connection is a {@link ReplayConnection}. At most
 * {@code maxClients} are served at once; a further one is told so and closed.
 */
final class ReplayServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ReplayServer.class);

    private final ServerSocketChannel server;
    private final InetSocketAddress endpoint;
    private final Path dir;
    private final Catalog catalog;
    private final TurnedAwaySessions turnedAway;
    private final int maxClients;
    private final long requestLimit;
    private final RecorderCounters counters;
    private final List<ReplayConnection> connections = new ArrayList<>();

    private ReplayServer(ServerSocketChannel server, Path dir, Catalog catalog, TurnedAwaySessions turnedAway,
        int maxClients, long requestLimit, RecorderCounters counters) throws IOException {
        this.server = server;
        this.endpoint = (InetSocketAddress) server.getLocalAddress();
        this.dir = dir;
        this.catalog = catalog;
        this.turnedAway = turnedAway;
        this.maxClients = maxClients;
        this.requestLimit = requestLimit;
        this.counters = counters;
    }

    /**
     * Listens at {@code endpoint} (port 0: any free one).
     *
     * @param turnedAway the sessions the recorder's node turns away, refused as such
     * @throws IOException naming the endpoint, if it cannot be bound (in use, not this host's address)
     */
    static ReplayServer open(InetSocketAddress endpoint, Path dir, Catalog catalog, TurnedAwaySessions turnedAway,
        int maxClients, long requestLimit, RecorderCounters counters) throws IOException {
        final ServerSocketChannel server = ServerSocketChannel.open();
        try {
            server.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            server.bind(endpoint, maxClients);
            server.configureBlocking(false);
            return new ReplayServer(server, dir, catalog, turnedAway, maxClients, requestLimit, counters);
        } catch (IOException e) {
            server.close();
            throw new IOException("the replay endpoint " + endpoint + " cannot be bound (" + e.getMessage()
                + "): another process holds the port, or the address is not this host's; set recorder.replay-endpoint",
                e);
        }
    }

    /** Where it listens, its port as bound. */
    InetSocketAddress endpoint() {
        return endpoint;
    }

    /** Takes new connections and serves each one. */
    int doWork() {
        int work = acceptAll();
        for (int i = connections.size() - 1; i >= 0; i--) {
            final ReplayConnection connection = connections.get(i);
            try {
                work += connection.doWork();
                if (connection.isFinished()) {
                    drop(i, null);
                }
            } catch (IOException e) {
                drop(i, e);
            }
        }
        return work;
    }

    /** Connections being served. */
    int clients() {
        return connections.size();
    }

    @Override
    public void close() throws IOException {
        for (int i = connections.size() - 1; i >= 0; i--) {
            drop(i, null);
        }
        server.close();
    }

    private int acceptAll() {
        int accepted = 0;
        try {
            SocketChannel channel;
            while ((channel = server.accept()) != null) {
                accepted++;
                channel.configureBlocking(false);
                channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
                if (connections.size() >= maxClients) {
                    turnAway(channel);
                } else {
                    connections.add(new ReplayConnection(channel, dir, catalog, turnedAway, requestLimit, counters));
                }
            }
        } catch (IOException e) {
            LOG.warn("replay endpoint {}: a connection could not be taken: {}", endpoint, e.toString());
        }
        return accepted;
    }

    /** Tells a client over the limit why, as far as its socket takes it at once, and closes it. */
    private void turnAway(SocketChannel channel) throws IOException {
        counters.replayRefused();
        final String sentence = "this recorder serves " + maxClients + " replay clients at once"
            + " (recorder.replay-clients), and has that many: try later, or another recorder";
        final ByteBuffer bytes = ByteBuffer.allocate(ReplayFrame.refusedLength(sentence));
        ReplayFrame.writeRefused(new UnsafeBuffer(bytes), 0, 0, ReplayRefusal.TOO_MANY_CLIENTS, sentence);
        try (channel) {
            channel.write(bytes);
        }
    }

    private void drop(int index, IOException cause) {
        final ReplayConnection connection = connections.remove(index);
        if (cause != null && !(cause instanceof java.io.EOFException)) {
            LOG.info("replay endpoint {}: a connection ended: {}", endpoint, cause.toString());
        }
        try {
            connection.close();
        } catch (IOException e) {
            LOG.debug("replay endpoint {}: closing a connection: {}", endpoint, e.toString());
        }
    }
}
