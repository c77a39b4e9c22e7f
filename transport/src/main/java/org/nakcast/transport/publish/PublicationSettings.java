package org.nakcast.transport.publish;

import java.util.List;

import org.nakcast.transport.media.Line;

/**
 * What a publisher stream needs to know, resolved from the topic's and transport's configuration.
 *
 * @param sessionId random per publication start
 * @param topicName the topic's name, for counters and logs
 * @param topicId the topic's numeric id
 * @param publisherId stable across restarts of this publisher; carried by its heartbeats
 * @param lines the transports the topic travels on, one or two: every datagram goes out on each,
 *     and NAKs and STATUS are heard on each
 * @param datagramLength the largest datagram, header included
 * @param historyBytes how much sent data is kept for retransmission
 * @param sendRateBytesPerSecond average send rate; 0 for unpaced
 * @param burstBytes the largest burst the rate allows after an idle spell
 * @param repairRateBytesPerSecond what repairs (RETRANSMIT and UNRECOVERABLE) may send on average
 * @param repairBurstBytes the largest burst of repairs after a quiet spell
 * @param repairPercentOfData what each byte of new data sent adds to the repair budget, in percent
 * @param timing heartbeat, linger and retransmit hold-off
 * @param minFlowControl true for flow control {@code min}: held to the slowest live receiver
 * @param flowControlTimeoutNs with {@code min}, how long a silent receiver holds the stream back
 */
public record PublicationSettings(
    int sessionId,
    String topicName,
    int topicId,
    long publisherId,
    List<Line> lines,
    int datagramLength,
    long historyBytes,
    long sendRateBytesPerSecond,
    long burstBytes,
    long repairRateBytesPerSecond,
    long repairBurstBytes,
    int repairPercentOfData,
    StreamTiming timing,
    boolean minFlowControl,
    long flowControlTimeoutNs) {

    /** Checks the lines. */
    public PublicationSettings {
        lines = Line.oneOrTwo(lines);
    }
}
