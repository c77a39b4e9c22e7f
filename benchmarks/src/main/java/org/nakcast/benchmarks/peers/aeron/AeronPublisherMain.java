package org.nakcast.benchmarks.peers.aeron;

import io.aeron.Aeron;
import io.aeron.ExclusivePublication;
import io.aeron.Publication;
import io.aeron.driver.MediaDriver;
import io.aeron.logbuffer.BufferClaim;
import org.nakcast.benchmarks.child.ChildProtocol;
import org.nakcast.benchmarks.child.Figures;
import org.nakcast.benchmarks.throughput.CheckedPublisher;
import org.nakcast.benchmarks.throughput.RunSettings;
import org.nakcast.benchmarks.throughput.SequencedPublisher;
import org.nakcast.transport.OfferResult;

/**
 * The Aeron publisher JVM of a throughput run: an embedded media driver ({@link AeronPeer}), an
 * exclusive publication on the multicast channel, and once the subscriber is connected, messages
 * numbered 0, 1, 2, ... claimed and written in place ({@code tryClaim}) for the run's seconds
 * ({@link CheckedPublisher}). The driver goes on answering NAKs until STOP; then it reports and
 * exits.
 */
public final class AeronPublisherMain {
    private static final long CONNECT_POLL_MS = 1;

    private AeronPublisherMain() {
    }

    /**
     * @param args the run, as the orchestrator writes it
     * @throws Exception if the driver or the client fails, or the orchestrator goes away
     */
    public static void main(String[] args) throws Exception {
        final RunSettings run = RunSettings.fromArgs(args);
        try (MediaDriver driver = AeronPeer.launchDriver("publisher", run.datagramSize().toIntExact());
            Aeron aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(driver.aeronDirectoryName()));
            ExclusivePublication publication = aeron.addExclusivePublication(AeronPeer.CHANNEL, AeronPeer.STREAM_ID)) {
            while (!publication.isConnected()) {
                Thread.sleep(CONNECT_POLL_MS);
            }
            final ClaimingPublisher publisher = new ClaimingPublisher(publication, run.messageLength());
            final Figures figures = CheckedPublisher.offerUntilStop(run, publisher)
                .put("backPressure", publisher.backPressure);
            ChildProtocol.say(ChildProtocol.RESULT, figures.toLine());
        }
    }

    /** Claims room for message n in the term buffer, writes its number and commits. Allocates nothing. */
    private static final class ClaimingPublisher implements SequencedPublisher {
        private final ExclusivePublication publication;
        private final int length;
        private final BufferClaim claim = new BufferClaim();
        private long backPressure;

        ClaimingPublisher(ExclusivePublication publication, int length) {
            this.publication = publication;
            this.length = length;
        }

        @Override
        public long offer(long sequence) {
            final long result = publication.tryClaim(length, claim);
            if (result > 0) {
                claim.buffer().putLong(claim.offset(), sequence);
                claim.commit();
                return sequence + 1;
            }
            if (result == Publication.BACK_PRESSURED || result == Publication.ADMIN_ACTION) {
                backPressure++;
                return OfferResult.BACK_PRESSURED;
            }
            return result == Publication.NOT_CONNECTED ? OfferResult.NOT_CONNECTED : result;
        }
    }
}
