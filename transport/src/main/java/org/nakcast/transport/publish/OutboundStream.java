package org.nakcast.transport.publish;

import java.nio.ByteBuffer;

import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.ControlledMessageHandler;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.RingBuffer;
import org.agrona.concurrent.status.AtomicCounter;
import org.nakcast.transport.media.DatagramSink;
import org.nakcast.transport.media.DatagramSource;
import org.nakcast.transport.media.MulticastAddress;
import org.nakcast.transport.PublisherEventListener;
import org.nakcast.transport.protocol.DataFlyweight;
import org.nakcast.transport.protocol.FrameType;
import org.nakcast.transport.protocol.HeaderFlyweight;
import org.nakcast.transport.protocol.HeartbeatFlyweight;
import org.nakcast.transport.protocol.MessageFrame;
import org.nakcast.transport.protocol.NakFlyweight;
import org.nakcast.transport.protocol.UnrecoverableFlyweight;
import org.nakcast.transport.status.StreamCounters;
import org.nakcast.transport.status.SystemCounter;
import org.nakcast.transport.status.SystemCounters;

/**
 * One publisher stream (session x topic) on the sending thread: takes the messages the application
 * offered, packs them into datagrams built in place in the {@link DatagramHistory}, sends them,
 * answers NAKs from history, and sends heartbeats while idle.
 *
 * <pre>
 *   application thread          sending thread (this class)
 *   offer/claim -> ring buffer -> pack into open datagram -> seal -> send -> kept in history
 *                                                                      NAK -> RETRANSMIT / UNRECOVERABLE
 * </pre>
 *
 * <p>Repairs go first while the repair budget lasts: each {@link #doWork} resends queued NAKed
 * datagrams before it sends new ones. Repairs (RETRANSMIT and UNRECOVERABLE) draw on a repair
 * budget of their own and on the send rate that everything shares, so a publisher at its rate
 * limit still repairs, NAKs (however many, whoever sends them) never take more than the repair
 * budget from new data, and new data goes on whenever the budget is spent.
 *
 * <pre>
 *   RETRANSMIT, UNRECOVERABLE -> repair budget -+
 *                                               +-> send rate -> socket
 *   DATA, HEARTBEAT ----------------------------+
 * </pre>
 *
 * <p>A datagram is resent only while it is both sent and still in history, checked on its slot
 * when it goes: the RETRANSMIT type is written over a sent datagram only, never over one that
 * waits to be sent or is still open.
 *
 * <p>Heartbeats: the first datagram of a stream is one; a busy stream sends one every heartbeat
 * interval; and once the stream falls quiet (at its start, and after each burst of data) it sends
 * them at short, doubling intervals from {@link #QUICK_HEARTBEAT_NS} up to the heartbeat interval
 * (at most {@link #QUICK_HEARTBEATS_PER_INTERVAL} per interval), so that a receiver that lost the
 * start or the tail learns of it within about a round trip instead of a heartbeat interval, for a
 * handful of small datagrams per quiet spell. A stream that falls quiet more often than that
 * (a request and its answer, again and again) spends the ten early in each interval; from then on
 * a spell still gets its first quick heartbeat once it has lasted twice as long as the stream's
 * usual long spell (a moving mean of the spells that reached {@link #QUICK_HEARTBEAT_NS}): a
 * silence that is unusual for this stream is announced, one that is its steady pace (a stream
 * paced at one datagram every 200 us) costs nothing more.
 *
 * <pre>
 *   data ... data | quiet: 100 us  300 us  700 us ... (budget: ten per interval)
 *                 | budget spent:  2 x usual long spell (one, whatever the budget)
 * </pre>
 *
 * <p>Each heartbeat carries the session's age, and each DATA datagram its age class, so receivers
 * can tell whether they were there when the session began.
 *
 * <p>Closing: once its publication is closed, the stream sends what is left in the ring, then
 * marks its heartbeats end-of-stream (the first at once, then the quick ones) and keeps answering
 * NAKs for the topic's {@code close-linger}, or, under flow control {@code min}, until every live
 * receiver has confirmed the last datagram (after at least {@link #END_HEARTBEATS} end-of-stream
 * heartbeats). Then it is {@linkplain #isFinished finished}: its owner frees it.
 *
 * <pre>
 *   publication closed -> drain the ring, send all -> END heartbeats, repairs -> finished: freed
 * </pre>
 *
 * <p>Sequences: {@code sentUpTo} &lt;= {@code nextSequence}. Datagrams below {@code sentUpTo} are
 * sent; those in [sentUpTo, nextSequence) are sealed and wait for the rate limiter or the socket;
 * {@code nextSequence} is the open datagram while {@code openLength > 0}. A slot is reused only
 * after its datagram was sent, so the ring buffer backs up (and the application sees
 * back-pressure) rather than anything unsent being overwritten.
 *
 * <p>Not thread-safe: one sending thread owns it. Allocation-free after construction, but for
 * the {@link org.nakcast.transport.ReceiverOutrun} event it raises at most once a second.
 */
final class OutboundStream implements ControlledMessageHandler {
    private static final int DRAIN_LIMIT = 256;
    private static final int RETRANSMIT_QUEUE_RANGES = 256;
    private static final int MAX_SEALED_AHEAD = 32;
    /** The first wait for a heartbeat once the stream falls quiet; each next one doubles. */
    static final long QUICK_HEARTBEAT_NS = 100_000;
    /**
     * The most quick heartbeats per heartbeat interval: a stream that falls quiet often (one datagram
     * now and then) sends a few small datagrams more per interval, never one per datagram.
     */
    static final int QUICK_HEARTBEATS_PER_INTERVAL = 10;
    /**
     * The end-of-stream heartbeats a closing stream sends before it may finish early (flow control
     * {@code min}, every receiver confirmed): a receiver that lost one still hears another.
     */
    static final int END_HEARTBEATS = 4;
    /** The least time between two {@link org.nakcast.transport.ReceiverOutrun} events of a stream. */
    static final long OUTRUN_REPORT_INTERVAL_NS = 1_000_000_000L;

    private final int sessionId;
    private final int topicId;
    private final long publisherId;
    private final StreamTiming timing;
    private final OfferBuffer offers;
    private final RingBuffer ring;
    private final DatagramHistory history;
    private final UnsafeBuffer historyBuffer;
    private final int datagramLength;
    private final int maxFragmentLength;
    private final int sealedAheadLimit;
    private final SendRateLimiter rateLimiter;
    private final RepairBudget repairBudget;
    private final DatagramSink sink;
    private final DataFlyweight dataHeader = new DataFlyweight();
    private final UnsafeBuffer controlBuffer = new UnsafeBuffer(ByteBuffer.allocateDirect(64));
    private final HeartbeatFlyweight heartbeat = new HeartbeatFlyweight();
    private final UnrecoverableFlyweight unrecoverable = new UnrecoverableFlyweight();
    private final RetransmitQueue retransmits = new RetransmitQueue(RETRANSMIT_QUEUE_RANGES);
    private final FlowControl flowControl;
    /** Every how many datagrams a DATA asks its receivers for a STATUS; 0 for never. */
    private final long statusWantedEvery;
    private final OutrunReports outrunReports;
    private final AtomicCounter flowControlHolds;
    private final AtomicCounter retransmitsSent;
    private final AtomicCounter retransmitsHeldOff;
    private final AtomicCounter retransmitsRefused;
    private final AtomicCounter repairsOverShare;
    private final AtomicCounter repairsHeldBack;
    private final AtomicCounter unrecoverableSent;
    private final AtomicCounter heartbeatsSent;
    private final AtomicCounter naksReceived;

    private long nextSequence;
    private long sentUpTo;
    private int openLength;
    private long openedAtNs;
    private long completedMessages;
    private long lastHeartbeatNs = Long.MIN_VALUE;
    private boolean started;
    private long startNs;
    private long quietGapNs;
    private long nextQuietHeartbeatNs = Long.MAX_VALUE;
    private long quietSinceNs = Long.MIN_VALUE;
    private boolean spellAnnounced;
    private long usualLongSpellNs;
    private int quickHeartbeatsLeft = QUICK_HEARTBEATS_PER_INTERVAL;
    private long quickHeartbeatsSinceNs;
    private long nowNs;
    private long sendLimit = Long.MAX_VALUE;
    private long lastHeldBack = -1;
    private long repairCursor;
    private StreamCounters streamCounters;
    private AtomicCounter position;
    private boolean ended;
    private long endedAtNs;
    private int endHeartbeatsSent;

    /**
     * @param sessionId this publisher's session
     * @param topicId the topic
     * @param publisherId stable across restarts of this publisher; sent in every heartbeat
     * @param timing heartbeat, linger and retransmit hold-off
     * @param offers what the application offered
     * @param history where datagrams are built and kept
     * @param rateLimiter the send rate, shared by everything the stream sends
     * @param repairBudget what RETRANSMIT and UNRECOVERABLE may take of the send rate
     * @param flowControl how far ahead of its receivers the stream may send
     * @param events told when a receiver asks for what history no longer holds (at most once a
     *     second per stream, see {@link OutrunReports})
     * @param sink where datagrams go
     * @param counters the node's counters
     */
    OutboundStream(
        int sessionId,
        int topicId,
        long publisherId,
        StreamTiming timing,
        OfferBuffer offers,
        DatagramHistory history,
        SendRateLimiter rateLimiter,
        RepairBudget repairBudget,
        FlowControl flowControl,
        PublisherEventListener events,
        DatagramSink sink,
        SystemCounters counters) {
        this.sessionId = sessionId;
        this.topicId = topicId;
        this.publisherId = publisherId;
        this.timing = timing;
        this.offers = offers;
        this.ring = offers.ring();
        this.history = history;
        this.historyBuffer = history.buffer();
        this.datagramLength = history.slotLength();
        this.maxFragmentLength = maxFragmentLength(datagramLength);
        this.sealedAheadLimit = Math.max(1, Math.min(MAX_SEALED_AHEAD, history.capacity() / 4));
        this.rateLimiter = rateLimiter;
        this.repairBudget = repairBudget;
        this.flowControl = flowControl;
        this.statusWantedEvery = flowControl.statusWantedEvery();
        this.outrunReports = new OutrunReports(topicId, sessionId, OUTRUN_REPORT_INTERVAL_NS, events);
        this.flowControlHolds = counters.get(SystemCounter.FLOW_CONTROL_HOLDS);
        this.sink = sink;
        this.retransmitsSent = counters.get(SystemCounter.RETRANSMITS_SENT);
        this.retransmitsHeldOff = counters.get(SystemCounter.RETRANSMITS_HELD_OFF);
        this.retransmitsRefused = counters.get(SystemCounter.RETRANSMITS_REFUSED);
        this.repairsOverShare = counters.get(SystemCounter.REPAIRS_OVER_SOURCE_SHARE);
        this.repairsHeldBack = counters.get(SystemCounter.REPAIRS_HELD_BACK);
        this.unrecoverableSent = counters.get(SystemCounter.UNRECOVERABLE_SENT);
        this.heartbeatsSent = counters.get(SystemCounter.HEARTBEATS_SENT);
        this.naksReceived = counters.get(SystemCounter.NAKS_RECEIVED);
        heartbeat.wrap(controlBuffer, 0);
        unrecoverable.wrap(controlBuffer, 0);
    }

    /** The largest fragment one datagram of {@code datagramLength} bytes carries. */
    static int maxFragmentLength(int datagramLength) {
        return datagramLength - DataFlyweight.DATA_HEADER_LENGTH - MessageFrame.FRAME_HEADER_LENGTH;
    }

    /**
     * Makes this stream publish its position (every datagram below it sent) in the node's counters
     * file; {@link #close()} gives the counter back.
     */
    void reportPosition(StreamCounters counters, String topicName) {
        streamCounters = counters;
        position = counters.publisherPosition(topicName, topicId, sessionId);
    }

    /**
     * Frees the history's off-heap memory and the position counter, and lets go of the offer buffer;
     * called by the sending thread once the stream is finished or the node stops.
     */
    void close() {
        history.free();
        if (position != null) {
            streamCounters.free(position);
        }
        offers.finish();
    }

    /**
     * Whether a closed stream is done: it sent everything and its end-of-stream marker, and has
     * lingered for repairs for {@code close-linger}, or every live receiver confirmed its last
     * datagram (flow control {@code min}) after {@link #END_HEARTBEATS} end-of-stream heartbeats.
     */
    boolean isFinished(long nowNs) {
        return ended && (nowNs - endedAtNs >= timing.closeLingerNs()
            || endHeartbeatsSent >= END_HEARTBEATS && flowControl.receiversHave(sentUpTo));
    }

    /** This stream's session id. */
    int sessionId() {
        return sessionId;
    }

    /** This stream's topic id. */
    int topicId() {
        return topicId;
    }

    /** The sequence the next sealed datagram gets. */
    long nextSequence() {
        return nextSequence;
    }

    /** Every datagram below this sequence has been sent. */
    long sentUpTo() {
        return sentUpTo;
    }

    /**
     * Sends what is due: sealed datagrams, newly offered messages, a lingering datagram whose time
     * has come, a heartbeat every heartbeat interval. The stream's very first datagram is a heartbeat
     * (highest sequence -1), even when messages wait: a receiver that hears it knows the stream from
     * its first datagram on, so losing that one is a gap it NAKs, not a later start.
     *
     * @return work done (0 when idle)
     */
    int doWork(long nowNs) {
        this.nowNs = nowNs;
        // read before the ring: whatever was offered before the close is in the ring by now
        final boolean closing = !ended && offers.isClosed();
        this.sendLimit = flowControl.sendLimit(sentUpTo, nowNs);
        offers.connected(flowControl.hasReceivers());
        final long sentBefore = sentUpTo;
        int work = 0;
        if (!started) {
            started = true;
            startNs = nowNs;
            fellQuiet();
        }
        if (lastHeartbeatNs == Long.MIN_VALUE) {
            work += sendHeartbeat();
        }
        work += sendRetransmits();
        work += sendSealed();
        final int drained = ring.controlledRead(this, DRAIN_LIMIT);
        work += drained;
        final boolean offersDrained = drained < DRAIN_LIMIT;
        if (openLength > 0
            && (nowNs - openedAtNs >= timing.lingerNs() || offersDrained && offers.takeFlushRequest())) {
            seal();
            work += sendSealed();
        }
        if (closing && offersDrained && ring.size() == 0) {
            sealIfOpen();
            work += sendSealed();
            if (sentUpTo == nextSequence) {
                ended = true;
                endedAtNs = nowNs;
                quickHeartbeatsLeft = QUICK_HEARTBEATS_PER_INTERVAL;
                work += sendHeartbeat();
            }
        }
        if (sentUpTo != sentBefore || ended && endedAtNs == nowNs) {
            fellQuiet();
        }
        if (nowNs - quickHeartbeatsSinceNs >= timing.heartbeatIntervalNs()) {
            quickHeartbeatsSinceNs = nowNs;
            quickHeartbeatsLeft = QUICK_HEARTBEATS_PER_INTERVAL;
        }
        final boolean quickDue = nowNs >= nextQuietHeartbeatNs
            && (quickHeartbeatsLeft > 0 || !spellAnnounced && nowNs - quietSinceNs >= 2 * usualLongSpellNs);
        if (nowNs - lastHeartbeatNs >= timing.heartbeatIntervalNs() || lastHeartbeatNs == Long.MIN_VALUE || quickDue) {
            final int sent = sendHeartbeat();
            if (sent > 0 && nowNs >= nextQuietHeartbeatNs) {
                quickHeartbeatsLeft = Math.max(0, quickHeartbeatsLeft - 1);
                spellAnnounced = true;
                quietGapNs *= 2;
                nextQuietHeartbeatNs = quietGapNs < timing.heartbeatIntervalNs() ? nowNs + quietGapNs : Long.MAX_VALUE;
            }
            work += sent;
        }
        if (position != null) {
            position.setOrdered(sentUpTo);
        }
        outrunReports.poll(nowNs);
        return work;
    }

    /**
     * Data just went out: if nothing follows, quick heartbeats tell receivers where the stream ends.
     * The spell of quiet it ends counts towards the usual long spell (a moving mean, gain 1/8, of
     * those that reached {@link #QUICK_HEARTBEAT_NS}, each counted up to the heartbeat interval).
     */
    private void fellQuiet() {
        if (quietSinceNs != Long.MIN_VALUE && nowNs - quietSinceNs >= QUICK_HEARTBEAT_NS) {
            final long sampleNs = Math.min(nowNs - quietSinceNs, timing.heartbeatIntervalNs());
            usualLongSpellNs = usualLongSpellNs == 0 ? sampleNs : usualLongSpellNs + (sampleNs - usualLongSpellNs) / 8;
        }
        quietSinceNs = nowNs;
        spellAnnounced = false;
        quietGapNs = Math.min(QUICK_HEARTBEAT_NS, timing.heartbeatIntervalNs());
        nextQuietHeartbeatNs = nowNs + quietGapNs;
    }

    /** Packs one offered message; called by the ring buffer's read. */
    @Override
    public Action onMessage(int msgTypeId, MutableDirectBuffer buffer, int index, int length) {
        if (length + MessageFrame.FRAME_HEADER_LENGTH <= datagramLength - openLength && openLength > 0) {
            appendFrame(buffer, index, length, MessageFrame.UNFRAGMENTED);
            completedMessages++;
            return Action.CONTINUE;
        }
        if (length <= maxFragmentLength) {
            if (!makeRoom(openLength > 0 ? 2 : 1)) {
                return Action.ABORT;
            }
            sealIfOpen();
            open();
            appendFrame(buffer, index, length, MessageFrame.UNFRAGMENTED);
            completedMessages++;
            return Action.CONTINUE;
        }
        final int fragments = (length + maxFragmentLength - 1) / maxFragmentLength;
        if (!makeRoom(fragments + (openLength > 0 ? 1 : 0))) {
            return Action.ABORT;
        }
        sealIfOpen();
        appendFragments(buffer, index, length);
        completedMessages++;
        return Action.CONTINUE;
    }

    /** Whether {@code count} datagrams can be opened, sending what waits first if need be. */
    private boolean makeRoom(int count) {
        return canOpen(count) || sendSealed() > 0 && canOpen(count);
    }

    private void appendFragments(MutableDirectBuffer buffer, int index, int length) {
        int sent = 0;
        while (sent < length) {
            final int fragmentLength = Math.min(maxFragmentLength, length - sent);
            int flags = 0;
            if (sent == 0) {
                flags |= MessageFrame.BEGIN;
            }
            if (sent + fragmentLength == length) {
                flags |= MessageFrame.END;
            }
            open();
            appendFrame(buffer, index + sent, fragmentLength, flags);
            sent += fragmentLength;
            if (sent < length) {
                seal();
            }
        }
    }

    /**
     * Whether {@code count} more datagrams can be opened. Packing runs ahead of sending by at most
     * {@link #sealedAheadLimit} datagrams (unless nothing waits, so the largest message can always
     * go), because every datagram sealed ahead evicts a sent one from history: a paced publisher
     * that packed all it was offered would keep nothing to repair from. It never overwrites an
     * unsent datagram.
     */
    private boolean canOpen(int count) {
        final long waiting = nextSequence - sentUpTo;
        return (waiting == 0 || waiting + count <= sealedAheadLimit)
            && nextSequence + count - 1 - history.capacity() < sentUpTo;
    }

    private void open() {
        final int slotOffset = history.slotOffset(nextSequence);
        dataHeader.wrap(historyBuffer, slotOffset);
        dataHeader.writeHeader(FrameType.DATA, 0, sessionId, topicId, nextSequence);
        dataHeader.completedMessages(completedMessages);
        history.resetRetransmitTime(nextSequence);
        openLength = DataFlyweight.DATA_HEADER_LENGTH;
        openedAtNs = nowNs;
    }

    private void appendFrame(MutableDirectBuffer source, int sourceOffset, int length, int flags) {
        final int frameOffset = history.slotOffset(nextSequence) + openLength;
        MessageFrame.write(historyBuffer, frameOffset, length, flags);
        historyBuffer.putBytes(frameOffset + MessageFrame.FRAME_HEADER_LENGTH, source, sourceOffset, length);
        openLength += MessageFrame.FRAME_HEADER_LENGTH + length;
    }

    private void sealIfOpen() {
        if (openLength > 0) {
            seal();
        }
    }

    private void seal() {
        dataHeader.wrap(historyBuffer, history.slotOffset(nextSequence));
        dataHeader.datagramLength(openLength);
        nextSequence++;
        openLength = 0;
    }

    private int sendSealed() {
        int sent = 0;
        while (sentUpTo < nextSequence) {
            if (sentUpTo >= sendLimit) {
                flowControlHolds.increment();
                break;
            }
            final int slotOffset = history.slotOffset(sentUpTo);
            dataHeader.wrap(historyBuffer, slotOffset);
            final int length = dataHeader.datagramLength();
            dataHeader.flags(DataFlyweight.ageClassOf(nowNs - startNs),
                statusWantedEvery > 0 && sentUpTo % statusWantedEvery == 0);
            if (!rateLimiter.tryAcquire(length, nowNs) || !sink.send(historyBuffer, slotOffset, length)) {
                break;
            }
            repairBudget.onDataSent(length);
            sentUpTo++;
            sent++;
        }
        return sent;
    }

    private int sendHeartbeat() {
        final long oldest = Math.min(oldestRetained(), sentUpTo);
        heartbeat.writeHeader(
            FrameType.HEARTBEAT, HeartbeatFlyweight.HEARTBEAT_LENGTH, sessionId, topicId, sentUpTo - 1);
        heartbeat.endOfStream(ended).oldestSequence(oldest).publisherId(publisherId).sessionAgeNs(nowNs - startNs);
        if (rateLimiter.tryAcquire(HeartbeatFlyweight.HEARTBEAT_LENGTH, nowNs)
            && sink.send(controlBuffer, 0, HeartbeatFlyweight.HEARTBEAT_LENGTH)) {
            heartbeatsSent.increment();
            lastHeartbeatNs = nowNs;
            if (ended) {
                endHeartbeatsSent++;
            }
            return 1;
        }
        return 0;
    }

    /** The oldest sequence whose datagram is still in history. */
    long oldestRetained() {
        return Math.max(0, nextSequence - history.capacity() + 1);
    }

    /**
     * A receiver's STATUS for this stream, heard on the line at {@code on} from {@code source}: it
     * needs {@code nextNeeded} next.
     */
    void onStatus(MulticastAddress on, DatagramSource source, int receiverId, long nextNeeded, long nowNs) {
        flowControl.onStatus(on, source, receiverId, nextNeeded, sentUpTo, nowNs);
    }

    /**
     * Answers a NAK for this stream: queues what it asks for that was sent and is still in history
     * (so however large a range, it queues at most the history), and answers what history no
     * longer holds with one UNRECOVERABLE covering everything below the oldest datagram held; the
     * datagrams it asked for below the history stand for as many of the oldest held, which are
     * queued too (a receiver that fell behind needs those next: one round trip, not two).
     * Everything is charged to the NAK's source's share of the repair budget, lowest first; while
     * repairs wait and another host asks too, what the share does not pay for is refused, counted,
     * and asked for again by the receiver's next NAK (see {@link RepairShares}). Repairs go out
     * before new data while the repair budget lasts.
     *
     * @param source where the NAK came from
     * @return datagrams sent
     */
    int onNak(DatagramSource source, NakFlyweight nak, long nowNs) {
        this.nowNs = nowNs;
        naksReceived.increment();
        int work = 0;
        boolean overShare = false;
        final boolean repairsWait = !retransmits.isEmpty();
        final long oldest = oldestRetained();
        final long newest = sentUpTo - 1;
        final int count = nak.rangeCount();
        final long firstAsked = nak.rangeFrom(0);
        if (firstAsked < oldest) {
            // ranges ascend: the first one tells what is gone for the whole NAK
            final int answerLength = UnrecoverableFlyweight.UNRECOVERABLE_LENGTH;
            if (repairBudget.shareFor(source, 1, answerLength, repairsWait, nowNs) == 1) {
                work += sendUnrecoverable(firstAsked, oldest - 1, firstMessageIndexOf(oldest));
            } else {
                overShare = true;
            }
            outrunReports.onOutrun(nak.receiverId(), firstAsked, oldest - 1, oldest, newest, nowNs);
            // what it asked for that is gone stands for as many of the oldest held: it needs those next
            final long stoodFor = Math.min(askedBelow(nak, oldest), newest - oldest + 1);
            if (stoodFor > 0) {
                overShare |= !queueRepair(source, oldest, oldest + stoodFor - 1, repairsWait);
            }
        }
        for (int i = 0; i < count; i++) {
            final long from = Math.max(nak.rangeFrom(i), oldest);
            final long to = Math.min(nak.rangeTo(i), newest);
            if (from <= to) {
                overShare |= !queueRepair(source, from, to, repairsWait);
            }
        }
        if (overShare) {
            repairsOverShare.increment();
        }
        return work + sendRetransmits();
    }

    /**
     * Queues datagrams {@code from..to} for repair, as many from the lowest as {@code source}'s
     * share grants; a range a full queue refuses is counted.
     *
     * @return false if the share did not pay for them all
     */
    private boolean queueRepair(DatagramSource source, long from, long to, boolean repairsWait) {
        final long asked = to - from + 1;
        final long granted = repairBudget.shareFor(source, asked, datagramLength, repairsWait, nowNs);
        if (granted > 0 && !retransmits.add(from, from + granted - 1)) {
            retransmitsRefused.increment();
        }
        return granted == asked;
    }

    /** How many datagrams the NAK's ranges ask for below {@code oldest}; at most what one NAK may ask for. */
    private static long askedBelow(NakFlyweight nak, long oldest) {
        long asked = 0;
        for (int i = 0, count = nak.rangeCount(); i < count && nak.rangeFrom(i) < oldest; i++) {
            asked += Math.min(nak.rangeTo(i), oldest - 1) - nak.rangeFrom(i) + 1;
        }
        return asked;
    }

    /**
     * Resends queued datagrams until the queue is empty or the repair budget, the rate limiter or
     * the socket says stop: in ascending order from where the last call stopped, going round (see
     * {@link RetransmitQueue}), so NAKs asking again and again for the same datagrams cannot hold
     * back the others. A datagram resent within the hold-off is skipped: another receiver's NAK for
     * it is already answered.
     */
    private int sendRetransmits() {
        int sent = 0;
        retransmits.forgetBelow(oldestRetained());
        while (!retransmits.isEmpty()) {
            final long sequence = retransmits.nextFrom(repairCursor);
            if (!isSentAndHeld(sequence)) {
                retransmits.remove(sequence);
            } else if (history.retransmittedWithin(sequence, nowNs, timing.retransmitHoldOffNs())) {
                retransmitsHeldOff.increment();
                retransmits.remove(sequence);
            } else if (retransmit(sequence)) {
                sent++;
                retransmits.remove(sequence);
            } else {
                break;
            }
            repairCursor = sequence + 1;
        }
        return sent;
    }

    /**
     * Whether the datagram {@code sequence} has been sent and its slot still holds it: the only
     * datagrams a RETRANSMIT may repeat. The slot's own header must carry the sequence, so a slot
     * reused by a later datagram (sealed and waiting, or open) is never resent or rewritten.
     */
    private boolean isSentAndHeld(long sequence) {
        return sequence < sentUpTo && sequence >= oldestRetained()
            && HeaderFlyweight.sequenceAt(historyBuffer, history.slotOffset(sequence)) == sequence;
    }

    private boolean retransmit(long sequence) {
        final int slotOffset = history.slotOffset(sequence);
        dataHeader.wrap(historyBuffer, slotOffset);
        final int length = dataHeader.datagramLength();
        if (!repairBudget.hasRoomFor(length, nowNs)) {
            if (sequence != lastHeldBack) {
                lastHeldBack = sequence;
                repairsHeldBack.increment();
            }
            return false;
        }
        if (!rateLimiter.tryAcquire(length, nowNs)) {
            return false;
        }
        dataHeader.type(FrameType.RETRANSMIT);
        if (!sink.send(historyBuffer, slotOffset, length)) {
            return false;
        }
        repairBudget.take(length);
        history.retransmittedAt(sequence, nowNs);
        retransmitsSent.increment();
        return true;
    }

    /**
     * Sends one UNRECOVERABLE if the repair budget and the rate limiter allow: a flood of NAKs
     * for data long gone can push the publisher neither past its rate nor past its repair budget.
     * An answer refused is not lost: the receiver asks again.
     */
    private int sendUnrecoverable(long from, long to, long firstMessageAfter) {
        final int length = UnrecoverableFlyweight.UNRECOVERABLE_LENGTH;
        if (!repairBudget.hasRoomFor(length, nowNs)) {
            repairsHeldBack.increment();
            return 0;
        }
        if (!rateLimiter.tryAcquire(length, nowNs)) {
            return 0;
        }
        unrecoverable.writeHeader(FrameType.UNRECOVERABLE, length, sessionId, topicId, 0);
        unrecoverable.lostRange(from, to, firstMessageAfter);
        if (!sink.send(controlBuffer, 0, length)) {
            return 0;
        }
        repairBudget.take(length);
        unrecoverableSent.increment();
        return 1;
    }

    /**
     * The index of the first message that begins in or after datagram {@code sequence}: its
     * completed-message count, plus one if it opens with the continuation of an earlier message.
     */
    private long firstMessageIndexOf(long sequence) {
        final int slotOffset = history.slotOffset(sequence);
        dataHeader.wrap(historyBuffer, slotOffset);
        final int firstFrameFlags = MessageFrame.flags(historyBuffer, slotOffset + DataFlyweight.DATA_HEADER_LENGTH);
        return dataHeader.completedMessages() + (MessageFrame.isBegin(firstFrameFlags) ? 0 : 1);
    }
}
