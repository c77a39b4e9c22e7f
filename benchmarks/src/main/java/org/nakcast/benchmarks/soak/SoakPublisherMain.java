package org.nakcast.benchmarks.soak;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;
import org.nakcast.benchmarks.child.ChildProtocol;
import org.nakcast.benchmarks.child.Figures;
import org.nakcast.config.NodeConfig;
import org.nakcast.transport.Node;
import org.nakcast.transport.BytePublication;
import org.nakcast.transport.status.SystemCounter;
import org.nakcast.transport.status.SystemCounters;

/**
 * The publisher of a soak run, on one simulated host: says READY, then publishes messages numbered
 * 0, 1, 2, ... (the number in the first eight bytes) at a steady rate until told STOP; then keeps
 * its node up for {@value #REPAIR_SECONDS} s so late NAKs are answered, and reports its session,
 * how many it sent and its counters in one RESULT line. Arguments: the config file, the topic, the
 * rate in messages per second, the message length.
 */
public final class SoakPublisherMain {
    /** How long the node stays up after the last message, answering NAKs. */
    static final int REPAIR_SECONDS = 3;

    private SoakPublisherMain() {
    }

    /**
     * @param args the config file, the topic, messages per second, bytes per message
     * @throws Exception if the node fails or the orchestrator goes away
     */
    public static void main(String[] args) throws Exception {
        final NodeConfig config = NodeConfig.load(Path.of(args[0]));
        final long ratePerSecond = Long.parseLong(args[2]);
        final int length = Integer.parseInt(args[3]);
        final StopSignal stop = new StopSignal();
        final Figures figures = new Figures();
        try (Node node = Node.launch(config)) {
            final BytePublication publication = node.newBytePublication(args[1]);
            ChildProtocol.say(ChildProtocol.READY);
            stop.start();
            final long sent = publishUntil(stop, publication, ratePerSecond, length);
            publication.flush();
            TimeUnit.SECONDS.sleep(REPAIR_SECONDS);
            figures.put("session", publication.sessionId()).put("sent", sent);
            putCounters(figures, node.counters());
        }
        ChildProtocol.say(ChildProtocol.RESULT, figures.toLine());
    }

    /** Offers numbered messages, each when its time at the rate has come, until stopped. */
    private static long publishUntil(StopSignal stop, BytePublication publication, long ratePerSecond, int length) {
        final UnsafeBuffer message = new UnsafeBuffer(ByteBuffer.allocateDirect(length));
        final IdleStrategy idle = new BackoffIdleStrategy();
        final long startNs = System.nanoTime();
        final double nsPerMessage = 1e9 / ratePerSecond;
        long sent = 0;
        while (!stop.requested()) {
            if (System.nanoTime() - startNs < (long) (sent * nsPerMessage)) {
                idle.idle();
                continue;
            }
            message.putLong(0, sent);
            if (publication.offer(message, 0, length) >= 0) {
                sent++;
                idle.reset();
            } else {
                idle.idle();
            }
        }
        return sent;
    }

    private static void putCounters(Figures figures, SystemCounters counters) {
        figures.put("datagramsSent", counters.get(SystemCounter.DATAGRAMS_SENT).get())
            .put("naksReceived", counters.get(SystemCounter.NAKS_RECEIVED).get())
            .put("retransmitsSent", counters.get(SystemCounter.RETRANSMITS_SENT).get())
            .put("unrecoverableSent", counters.get(SystemCounter.UNRECOVERABLE_SENT).get())
            .put("backPressure", counters.get(SystemCounter.BACK_PRESSURE).get())
            .put("errors", counters.get(SystemCounter.ERRORS).get());
    }

    /** Waits on standard input for STOP on a thread of its own. */
    private static final class StopSignal extends Thread {
        private volatile boolean requested;

        StopSignal() {
            super("soak-stop-signal");
            setDaemon(true);
        }

        @Override
        public void run() {
            try {
                ChildProtocol.await(new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)),
                    ChildProtocol.STOP);
            } catch (IOException ex) {
                throw new UncheckedIOException("the soak run went away", ex);
            } finally {
                requested = true;
            }
        }

        boolean requested() {
            return requested;
        }
    }
}
