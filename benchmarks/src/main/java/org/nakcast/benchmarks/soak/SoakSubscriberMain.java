package org.nakcast.benchmarks.soak;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import org.agrona.DirectBuffer;
import org.agrona.collections.Int2ObjectHashMap;
import org.nakcast.benchmarks.child.ChildProtocol;
import org.nakcast.benchmarks.child.Figures;
import org.nakcast.config.NodeConfig;
import org.nakcast.transport.Delivery;
import org.nakcast.transport.LossEvent;
import org.nakcast.transport.MessageHandler;
import org.nakcast.transport.MessageHeader;
import org.nakcast.transport.Node;
import org.nakcast.transport.PublisherGone;
import org.nakcast.transport.StreamEventListener;
import org.nakcast.transport.status.SystemCounter;
import org.nakcast.transport.status.SystemCounters;

/**
 * A subscriber of a soak run, on one simulated host: subscribes to the soak topic, says READY, and
 * tallies every publisher session it hears ({@link SessionTally}) until told STOP; then closes its
 * node and reports each session's tally and its counters in one RESULT line. Arguments: the config
 * file, the topic.
 */
public final class SoakSubscriberMain implements MessageHandler<DirectBuffer>, StreamEventListener {
    private final Int2ObjectHashMap<SessionTally> sessions = new Int2ObjectHashMap<>();
    private long publishersGone;
    private long publisherRestarts;
    private long publisherEnds;

    private SoakSubscriberMain() {
    }

    /**
     * @param args the config file and the topic
     * @throws Exception if the node fails or the orchestrator goes away
     */
    public static void main(String[] args) throws Exception {
        final NodeConfig config = NodeConfig.load(Path.of(args[0]));
        final SoakSubscriberMain subscriber = new SoakSubscriberMain();
        final BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        final Node node = Node.launch(config);
        try {
            node.newByteSubscription(args[1], subscriber, subscriber, Delivery.ON_RECEIVING_THREAD);
            ChildProtocol.say(ChildProtocol.READY);
            ChildProtocol.await(in, ChildProtocol.STOP);
        } finally {
            node.close();
        }
        // The node's threads have stopped: its tallies and counters hold still to be read.
        final Figures figures = new Figures();
        putCounters(figures, node.counters());
        subscriber.sessions.forEach((session, tally) -> tally.putInto(figures, SoakFigures.sessionPrefix(session)));
        figures.put("publishersGone", subscriber.publishersGone).put("publisherEnds", subscriber.publisherEnds)
            .put("publisherRestarts", subscriber.publisherRestarts);
        ChildProtocol.say(ChildProtocol.RESULT, figures.toLine());
    }

    @Override
    public void onMessage(DirectBuffer message, MessageHeader header) {
        tally(header.sessionId()).onMessage(message.getLong(0));
    }

    @Override
    public void onLoss(LossEvent event) {
        tally(event.sessionId()).onLoss(event.lostMessages());
    }

    @Override
    public void onPublisherGone(PublisherGone event) {
        publishersGone++;
        if (event.cause() == PublisherGone.Cause.RESTARTED) {
            publisherRestarts++;
        } else if (event.cause() == PublisherGone.Cause.ENDED) {
            publisherEnds++;
        }
    }

    private SessionTally tally(int sessionId) {
        SessionTally tally = sessions.get(sessionId);
        if (tally == null) {
            tally = new SessionTally();
            sessions.put(sessionId, tally);
        }
        return tally;
    }

    private static void putCounters(Figures figures, SystemCounters counters) {
        figures.put("naksSent", counters.get(SystemCounter.NAKS_SENT).get())
            .put("gaps", counters.get(SystemCounter.GAPS).get())
            .put("duplicateDatagrams", counters.get(SystemCounter.DUPLICATES).get())
            .put("unrecoverableRanges", counters.get(SystemCounter.UNRECOVERABLE_RANGES).get())
            .put("malformed", counters.get(SystemCounter.MALFORMED).get())
            .put("errors", counters.get(SystemCounter.ERRORS).get());
    }
}
