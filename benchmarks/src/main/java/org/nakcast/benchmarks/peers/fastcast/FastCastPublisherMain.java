package org.nakcast.benchmarks.peers.fastcast;

import org.agrona.concurrent.UnsafeBuffer;
import org.nakcast.benchmarks.child.ChildProtocol;
import org.nakcast.benchmarks.child.Figures;
import org.nakcast.benchmarks.throughput.CheckedPublisher;
import org.nakcast.benchmarks.throughput.RunSettings;
import org.nakcast.benchmarks.throughput.SequencedPublisher;
import org.nakcast.transport.OfferResult;
import org.nustaq.fastcast.api.FCPublisher;
import org.nustaq.fastcast.config.PublisherConf;

/**
 * The fast-cast publisher JVM of a throughput run: a publisher on the topic ({@link FastCastPeer}),
 * messages numbered 0, 1, 2, ... offered as raw bytes, batched into datagrams, for the run's
 * seconds ({@link CheckedPublisher}). fast-cast goes on answering retransmission requests until
 * STOP; then it reports and ends the JVM, whose fast-cast threads would otherwise keep it alive.
 */
public final class FastCastPublisherMain {
    /** Time for the subscriber to hear the publisher's first heartbeat before the first message. */
    private static final long START_DELAY_MS = 1000;

    private FastCastPublisherMain() {
    }

    /**
     * @param args the run, as the orchestrator writes it
     * @throws Exception if fast-cast fails, or the orchestrator goes away
     */
    public static void main(String[] args) throws Exception {
        final RunSettings run = RunSettings.fromArgs(args);
        final int datagramSize = run.datagramSize().toIntExact();
        final FCPublisher publication = FastCastPeer.transport("pub", datagramSize).publish(
            new PublisherConf(FastCastPeer.TOPIC)
                .numPacketHistory(FastCastPeer.packets(FastCastPeer.HISTORY_BYTES, datagramSize)));
        Thread.sleep(START_DELAY_MS);
        final BytesPublisher publisher = new BytesPublisher(publication, run.messageLength());
        final Figures figures = CheckedPublisher.offerUntilStop(run, publisher)
            .put("backPressure", publisher.backPressure);
        ChildProtocol.say(ChildProtocol.RESULT, figures.toLine());
        // fast-cast's threads are not daemons and it has no shutdown: the JVM ends here.
        System.exit(0);
    }

    /** Writes the number into one pre-allocated array and offers it, to every subscriber. Allocates nothing. */
    private static final class BytesPublisher implements SequencedPublisher {
        private final FCPublisher publication;
        private final byte[] message;
        private final UnsafeBuffer writer;
        private long backPressure;

        BytesPublisher(FCPublisher publication, int length) {
            this.publication = publication;
            this.message = new byte[length];
            this.writer = new UnsafeBuffer(message);
        }

        @Override
        public long offer(long sequence) {
            writer.putLong(0, sequence);
            if (publication.offer(null, message, 0, message.length, false)) {
                return sequence + 1;
            }
            backPressure++;
            return OfferResult.BACK_PRESSURED;
        }
    }
}
