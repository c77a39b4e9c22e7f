package org.nakcast.benchmarks.peers.aeron;

import io.aeron.Aeron;
import io.aeron.Subscription;
import io.aeron.driver.MediaDriver;
import io.aeron.logbuffer.FragmentHandler;
import io.aeron.logbuffer.Header;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.nakcast.benchmarks.child.ChildProtocol;
import org.nakcast.benchmarks.child.Figures;
import org.nakcast.benchmarks.throughput.CheckedSubscriber;
import org.nakcast.benchmarks.throughput.DeliveryChecker;
import org.nakcast.benchmarks.throughput.RunSettings;

/**
 * The Aeron subscriber JVM of a throughput run: an embedded media driver ({@link AeronPeer}), a
 * subscription on the multicast channel polled by one agent thread with a back-off idle strategy,
 * each message's number checked ({@link DeliveryChecker#onPeerMessage}), and the protocol of
 * {@link CheckedSubscriber}. Aeron reports no loss: what it did not deliver is unaccounted.
 */
public final class AeronSubscriberMain {
    private AeronSubscriberMain() {
    }

    /**
     * @param args the run, as the orchestrator writes it
     * @throws Exception if the driver or the client fails, or the orchestrator goes away
     */
    public static void main(String[] args) throws Exception {
        final RunSettings run = RunSettings.fromArgs(args);
        final CheckedSubscriber subscriber = new CheckedSubscriber(run);
        try (MediaDriver driver = AeronPeer.launchDriver("subscriber", run.datagramSize().toIntExact());
            Aeron aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(driver.aeronDirectoryName()));
            Subscription subscription = aeron.addSubscription(AeronPeer.CHANNEL, AeronPeer.STREAM_ID);
            AgentRunner poller = new AgentRunner(new BackoffIdleStrategy(), Throwable::printStackTrace, null,
                new Poller(subscription, new Handler(subscriber.checker(), run.messageLength())))) {
            AgentRunner.startOnThread(poller);
            final Figures figures = subscriber.awaitDelivery();
            ChildProtocol.say(ChildProtocol.RESULT, figures.toLine());
        }
    }

    /** Polls the subscription. */
    private static final class Poller implements Agent {
        private static final int FRAGMENT_LIMIT = 256;
        private final Subscription subscription;
        private final FragmentHandler handler;

        Poller(Subscription subscription, FragmentHandler handler) {
            this.subscription = subscription;
            this.handler = handler;
        }

        @Override
        public int doWork() {
            return subscription.poll(handler, FRAGMENT_LIMIT);
        }

        @Override
        public String roleName() {
            return "aeron-poller";
        }
    }

    /** Reads the number from the first eight bytes; a message of another length is not intact. */
    private static final class Handler implements FragmentHandler {
        private final DeliveryChecker checker;
        private final int length;

        Handler(DeliveryChecker checker, int length) {
            this.checker = checker;
            this.length = length;
        }

        @Override
        public void onFragment(DirectBuffer buffer, int offset, int fragmentLength, Header header) {
            checker.onPeerMessage(buffer.getLong(offset), fragmentLength == length);
        }
    }
}
