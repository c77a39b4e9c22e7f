package org.nakcast.benchmarks.peers.aeron;

import java.net.Inet6Address;
import java.net.InetAddress;

import io.aeron.Aeron;
import io.aeron.ExclusivePublication;
import io.aeron.FragmentAssembler;
import io.aeron.Publication;
import io.aeron.Subscription;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import io.aeron.logbuffer.FragmentHandler;
import io.aeron.logbuffer.Header;
import org.agrona.BitUtil;
import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.AgentInvoker;
import org.nakcast.config.TransportConfig;
import org.nakcast.rtt.LinkSetup;
import org.nakcast.rtt.RttLink;

/**
 * One side's Aeron link for the latency-rtt tool, as Aeron's own ping-pong sample does it: an
 * {@link ExclusivePublication} out, a {@link Subscription} in, through a media driver embedded in
 * this process ({@link AeronPeer#driverContext}, one per side), and the client's conductor invoked
 * by the side's thread in {@link #poll()}. With {@link ThreadingMode#INVOKER} the same poll runs the
 * driver too, so the side is one thread.
 *
 * <p>Channels follow the run's config, as the raw-udp baseline's sockets do: multicast to the group
 * of the topic's transport, on its interface and TTL, at the transport's port plus the path's own
 * offset (nakcast uses the port and port + 1, raw-udp port + 2, {@code aeron} port + 3, {@code
 * aeron-shared} port + 4); the stream id is the topic's id. Aeron sends data to an odd group and
 * control (status messages, NAKs) to the next address up, so each group must be odd. Terms are
 * {@value #MIN_TERM_LENGTH} bytes, or larger as the message size needs (Aeron's largest message is
 * an eighth of a term): the whole log is written, and so paged in, during the warm-up. Name
 * re-resolution is off (every address is a literal): its check, once a second, iterates a list and
 * would be the driver's one allocation on the side's thread. Tasks the driver would hand to an
 * executor thread of its own run on its conductor. Messages that fit one frame (up to the MTU less
 * the frame header) are handed over as they arrive; larger ones are put back together by a {@link
 * FragmentAssembler}.
 *
 * <p>{@link #send} and {@link #poll} allocate nothing.
 */
final class AeronLink implements RttLink, FragmentHandler {
    /** The smallest term Aeron takes. */
    static final int MIN_TERM_LENGTH = 64 * 1024;
    private static final int MESSAGES_PER_TERM = 8;
    private static final int FRAGMENT_LIMIT = 10;

    private final String label;
    private final Receiver receiver;
    private final MediaDriver driver;
    private final AgentInvoker driverInvoker;
    private final Aeron aeron;
    private final AgentInvoker clientInvoker;
    private final ExclusivePublication publication;
    private final Subscription subscription;
    private final FragmentHandler handler;

    /**
     * Launches the driver, connects the client, adds the publication and the subscription.
     *
     * @param label the path's label, for messages
     * @param threadingMode {@link ThreadingMode#INVOKER} (this side's thread runs the driver) or
     *     {@link ThreadingMode#SHARED} (a thread of the driver's own, idling as {@code --idle} says)
     * @param portOffset how far above each transport's port the channels are
     * @param setup the side, config, topics, size and idle strategy
     * @param receiver gets the messages of the receive topic's stream
     * @throws IllegalArgumentException if a group is even, or the driver or client cannot start
     */
    AeronLink(String label, ThreadingMode threadingMode, int portOffset, LinkSetup setup, Receiver receiver) {
        this.label = label;
        this.receiver = receiver;
        final String sendChannel = channel(label, setup.sendTransport(), portOffset);
        final String receiveChannel = channel(label, setup.receiveTransport(), portOffset);
        final MediaDriver.Context driverContext = AeronPeer.driverContext("rtt-" + setup.side())
            .threadingMode(threadingMode)
            .asyncExecutorEnabled(false)
            .reResolutionCheckIntervalNs(0)
            .publicationTermBufferLength(termLength(setup.messageSize()));
        if (threadingMode != ThreadingMode.INVOKER) {
            driverContext.sharedIdleStrategy(setup.newIdleStrategy());
        }
        MediaDriver launched = null;
        Aeron connected = null;
        ExclusivePublication added = null;
        try {
            launched = MediaDriver.launch(driverContext);
            connected = Aeron.connect(new Aeron.Context()
                .aeronDirectoryName(launched.aeronDirectoryName())
                .useConductorAgentInvoker(true)
                .driverAgentInvoker(launched.sharedAgentInvoker()));
            added = connected.addExclusivePublication(sendChannel, setup.sendTopicConfig().id());
            this.subscription = connected.addSubscription(receiveChannel, setup.receiveTopicConfig().id());
        } catch (RuntimeException ex) {
            CloseHelper.quietCloseAll(added, connected, launched);
            throw new IllegalArgumentException(label + ": cannot start Aeron on " + sendChannel + " and "
                + receiveChannel + ": " + ex.getMessage(), ex);
        }
        this.driver = launched;
        this.driverInvoker = launched.sharedAgentInvoker();
        this.aeron = connected;
        this.clientInvoker = connected.conductorAgentInvoker();
        this.publication = added;
        this.handler = setup.messageSize() > added.maxPayloadLength() ? new FragmentAssembler(this) : this;
    }

    @Override
    public boolean send(DirectBuffer buffer, int length) {
        final long result = publication.offer(buffer, 0, length);
        if (result > 0) {
            return true;
        }
        if (result == Publication.BACK_PRESSURED || result == Publication.NOT_CONNECTED
            || result == Publication.ADMIN_ACTION) {
            return false;
        }
        throw new IllegalStateException(label + ": the publication refused a message of " + length + " bytes: "
            + Publication.errorString(result));
    }

    @Override
    public int poll() {
        int work = clientInvoker.invoke();
        if (driverInvoker != null) {
            work += driverInvoker.invoke();
        }
        return work + subscription.poll(handler, FRAGMENT_LIMIT);
    }

    @Override
    public void onFragment(DirectBuffer buffer, int offset, int length, Header header) {
        receiver.onMessage(buffer, offset, length);
    }

    @Override
    public void close() {
        CloseHelper.closeAll(subscription, publication, aeron, driver);
    }

    /** The smallest term of at least {@value #MIN_TERM_LENGTH} bytes that holds eight messages of {@code size}. */
    static int termLength(int size) {
        return Math.max(MIN_TERM_LENGTH, BitUtil.findNextPositivePowerOfTwo(size * MESSAGES_PER_TERM));
    }

    /**
     * The multicast channel of a transport: its group at port + {@code portOffset}, its
     * interface's address, its TTL.
     *
     * @throws IllegalArgumentException if the group is even
     */
    static String channel(String label, TransportConfig transport, int portOffset) {
        final byte[] group = transport.group().getAddress();
        if ((group[group.length - 1] & 1) == 0) {
            throw new IllegalArgumentException(label + ": transport '" + transport.name() + "' has the group "
                + transport.group().getHostAddress() + ", and Aeron sends data to an odd group (control to the next "
                + "address up): give it an odd group");
        }
        return "aeron:udp?endpoint=" + literal(transport.group()) + ":" + (transport.port() + portOffset)
            + "|interface=" + literal(transport.networkInterface().address()) + "|ttl=" + transport.ttl();
    }

    private static String literal(InetAddress address) {
        return address instanceof Inet6Address ? "[" + address.getHostAddress() + "]" : address.getHostAddress();
    }
}
