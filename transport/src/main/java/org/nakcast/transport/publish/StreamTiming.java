package org.nakcast.transport.publish;

/**
 * The clocks of a publisher stream, in nanoseconds.
 *
 * @param heartbeatIntervalNs an idle stream sends a HEARTBEAT this often
 * @param lingerNs how long a partly filled datagram may wait for more messages once the
 *     application has stopped offering; 0 sends it as soon as the offers run dry
 * @param retransmitHoldOffNs a datagram resent less than this long ago is not resent again for
 *     another NAK (the NAK storm guard)
 * @param closeLingerNs how long a closed stream answers NAKs after its end-of-stream marker
 */
public record StreamTiming(long heartbeatIntervalNs, long lingerNs, long retransmitHoldOffNs, long closeLingerNs) {
}
