/**
 * nakcast's wire format: one flyweight per datagram type, each with an ASCII diagram of its layout,
 * and the validator that checks every field of a received datagram before anything else reads it.
 *
 * <p>Ports: a transport uses two. Publishers send DATA, RETRANSMIT, HEARTBEAT and UNRECOVERABLE to
 * the group's data port; receivers send NAKs to the group's control port (data port + 1), which
 * publishers and all receivers join, so a receiver hears the NAKs of others and keeps quiet for
 * ranges already asked for, while a publisher never has to read its own data stream.
 */
package org.nakcast.transport.protocol;
