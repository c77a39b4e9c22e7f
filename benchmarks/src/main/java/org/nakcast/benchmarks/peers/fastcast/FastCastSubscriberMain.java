package org.nakcast.benchmarks.peers.fastcast;

import org.nakcast.benchmarks.child.ChildProtocol;
import org.nakcast.benchmarks.child.Figures;
import org.nakcast.benchmarks.throughput.CheckedSubscriber;
import org.nakcast.benchmarks.throughput.DeliveryChecker;
import org.nakcast.benchmarks.throughput.RunSettings;
import org.nustaq.fastcast.api.FCSubscriber;
import org.nustaq.fastcast.config.SubscriberConf;
import org.nustaq.offheap.bytez.Bytez;

/**
 * The fast-cast subscriber JVM of a throughput run: a subscriber on the topic ({@link FastCastPeer})
 * whose messages are checked on fast-cast's receiving thread
 * ({@link DeliveryChecker#onPeerMessage}), and the protocol of {@link CheckedSubscriber}. When
 * fast-cast cannot repair a gap it calls {@link FCSubscriber#dropped()}: counted, and the
 * subscriber asks to resynchronize; the messages it skipped show as skipped and unaccounted.
 */
public final class FastCastSubscriberMain {
    private FastCastSubscriberMain() {
    }

    /**
     * @param args the run, as the orchestrator writes it
     * @throws Exception if fast-cast fails, or the orchestrator goes away
     */
    public static void main(String[] args) throws Exception {
        final RunSettings run = RunSettings.fromArgs(args);
        final CheckedSubscriber subscriber = new CheckedSubscriber(run);
        final Receiver receiver = new Receiver(subscriber.checker(), run.messageLength());
        final int datagramSize = run.datagramSize().toIntExact();
        FastCastPeer.transport("sub", datagramSize).subscribe(new SubscriberConf(FastCastPeer.TOPIC)
            .receiveBufferPackets(FastCastPeer.packets(FastCastPeer.RECEIVE_BUFFER_BYTES, datagramSize)), receiver);
        final Figures figures = subscriber.awaitDelivery()
            .put("dropEvents", receiver.dropEvents)
            .put("senderTerminated", receiver.senderTerminated);
        ChildProtocol.say(ChildProtocol.RESULT, figures.toLine());
        // fast-cast's threads are not daemons and it has no shutdown: the JVM ends here.
        System.exit(0);
    }

    /** Reads the number from the first eight bytes; a message of another length is not intact. */
    private static final class Receiver implements FCSubscriber {
        private final DeliveryChecker checker;
        private final int length;
        private volatile long dropEvents;
        private volatile long senderTerminated;

        Receiver(DeliveryChecker checker, int length) {
            this.checker = checker;
            this.length = length;
        }

        @Override
        public void messageReceived(String sender, long sequence, Bytez bytes, long offset, int messageLength) {
            checker.onPeerMessage(bytes.getLong(offset), messageLength == length);
        }

        @Override
        public boolean dropped() {
            dropEvents++;
            return true;
        }

        @Override
        public void senderTerminated(String sender) {
            senderTerminated++;
        }

        @Override
        public void senderBootstrapped(String sender, long sequence) {
            // the first message's number tells where it started
        }
    }
}
