package org.nakcast.transport.replay;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

import org.agrona.concurrent.UnsafeBuffer;

/**
 * A connection to a recorder's replay endpoint: sends requests for ranges of a recorded session
 * and hands the answers on, in order, as {@link #poll} finds them. Polled, never blocking once
 * connected, so one thread can replay while it does other work; one request at a time.
 *
 * <pre>{@code
 * try (ReplayClient client = ReplayClient.connect(new InetSocketAddress("10.0.0.7", 40480), 2_000)) {
 *     client.request(topicId, sessionId, 1_000, ReplayFrame.TO_WHAT_IS_HELD);
 *     while (!done) {
 *         idle.idle(client.poll(handler, 256));
 *     }
 * }
 * }</pre>
 */
public final class ReplayClient implements AutoCloseable {
    private static final int INITIAL_READ_BUFFER = 256 * 1024;

    private final SocketChannel channel;
    private final ReplayFrameReader reader = new ReplayFrameReader(INITIAL_READ_BUFFER);
    private final ByteBuffer requestBytes = ByteBuffer.allocateDirect(ReplayFrame.REQUEST_LENGTH);
    private final UnsafeBuffer request = new UnsafeBuffer(requestBytes);
    private long nextRequestId = 1;
    private ReplayHandler handler;

    private boolean connected;

    private ReplayClient(SocketChannel channel, boolean connected) {
        this.channel = channel;
        this.connected = connected;
    }

    /**
     * Connects to a recorder, waiting at most {@code timeoutMs}.
     *
     * @throws IOException naming the endpoint, if it cannot be reached
     */
    public static ReplayClient connect(InetSocketAddress recorder, int timeoutMs) throws IOException {
        final SocketChannel channel = SocketChannel.open();
        try {
            final Socket socket = channel.socket();
            socket.connect(recorder, timeoutMs);
            channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            channel.configureBlocking(false);
            return new ReplayClient(channel, true);
        } catch (IOException e) {
            channel.close();
            throw new IOException("cannot reach the recorder at " + recorder + ": " + e.getMessage(), e);
        }
    }

    /**
     * Begins to connect to a recorder without waiting: for a thread that must not block, which then
     * calls {@link #finishConnect} until it answers true before it asks.
     *
     * @throws IOException naming the endpoint, if the connection cannot even begin
     */
    public static ReplayClient connectLater(InetSocketAddress recorder) throws IOException {
        final SocketChannel channel = SocketChannel.open();
        try {
            channel.configureBlocking(false);
            channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            return new ReplayClient(channel, channel.connect(recorder));
        } catch (IOException e) {
            channel.close();
            throw new IOException("cannot reach the recorder at " + recorder + ": " + e.getMessage(), e);
        }
    }

    /**
     * Whether the connection {@linkplain #connectLater begun} is made; never blocks.
     *
     * @throws IOException if it failed (refused, unreachable)
     */
    public boolean finishConnect() throws IOException {
        if (!connected) {
            connected = channel.finishConnect();
        }
        return connected;
    }

    /**
     * Asks for messages {@code from} to {@code to} (inclusive; {@link ReplayFrame#TO_WHAT_IS_HELD}
     * for everything the recording holds from {@code from} when the recorder takes the request) of a
     * session of a topic.
     *
     * @return the request's id, which the answers carry
     * @throws IOException if the connection failed
     */
    public long request(int topicId, int sessionId, long from, long to) throws IOException {
        final long requestId = nextRequestId++;
        ReplayFrame.writeRequest(request, 0, requestId, topicId, sessionId, from, to);
        requestBytes.clear();
        while (requestBytes.hasRemaining()) {
            if (channel.write(requestBytes) == 0) {
                Thread.onSpinWait();
            }
        }
        return requestId;
    }

    /**
     * Hands on up to {@code limit} frames the recorder has sent.
     *
     * @return frames handed on; 0 when nothing has come
     * @throws java.io.EOFException if the recorder closed the connection
     * @throws ReplayProtocolException if it sent what is not a frame
     */
    public int poll(ReplayHandler answers, int limit) throws IOException {
        this.handler = answers;
        return reader.poll(channel, this::dispatch, limit);
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }

    private void dispatch(ReplayFrame frame) throws ReplayProtocolException {
        switch (frame.type()) {
            case ReplayFrame.ACCEPTED -> handler.onAccepted(frame.requestId(), frame.from(), frame.to());
            case ReplayFrame.MESSAGE -> handler.onMessage(frame.messageIndex(), frame.buffer(),
                frame.messageOffset(), frame.messageLength(), frame.recordedAtNs());
            case ReplayFrame.HOLE -> handler.onHole(frame.from(), frame.count(), frame.holeCause());
            case ReplayFrame.DONE -> handler.onDone(frame.requestId(), frame.messageIndex());
            case ReplayFrame.REFUSED -> handler.onRefused(frame.requestId(), frame.refusal(), frame.sentence());
            default -> throw new ReplayProtocolException("the recorder sent a frame of type " + frame.type()
                + ", which only a client sends");
        }
    }
}
