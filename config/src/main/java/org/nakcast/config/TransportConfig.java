package org.nakcast.config;

import com.fasterxml.jackson.annotation.JsonProperty;

import java.net.InetAddress;

/**
 * One entry of {@code transports:}: a multicast group on a network interface, and how datagrams
 * go out on it. Topics name the transport they travel on.
 *
 * @param name the transport's name, unique in the config; topics refer to it (required)
 * @param networkInterface the interface, by name or address ({@code interface:}, required);
 *     resolved by {@code conclude()}
 * @param group the multicast group, in 224.0.0.0/4 or ff00::/8 (required)
 * @param port the UDP port, 1..65535 (required)
 * @param ttl how many routers a datagram may cross, 0..255; default 0: it never leaves the host
 * @param datagramSize the UDP payload of one datagram; default {@code 1408}, which fits a 1500-byte
 *     MTU with room for IP/UDP and VLAN headers. Larger batches more per datagram; past the MTU
 *     it would fragment, which is refused
 * @param socketSendBuffer the kernel send buffer; default {@code 2m}. Bigger absorbs bursts
 *     (the kernel may cap it: see {@code net.core.wmem_max})
 * @param socketReceiveBuffer the kernel receive buffer; default {@code 2m}. Bigger rides out a
 *     slow receiver for longer before the kernel drops (capped by {@code net.core.rmem_max})
 * @param sendRate the most bytes per second the publisher sends; default {@code 0}: not paced.
 *     Pacing below the link speed keeps switches and receivers from dropping bursts
 * @param sendBurst with a send rate, the most bytes that may go out back to back after a quiet
 *     spell; default {@code 0}: the larger of 64 datagrams and one millisecond at the send rate.
 *     Smaller spares shallow switch buffers; larger lets short bursts through at line rate
 * @param repairRate the bytes per second a publisher may spend answering NAKs (RETRANSMIT and
 *     UNRECOVERABLE), from a budget of its own: repairs go before new data while it lasts, and NAKs,
 *     real or forged, never take more than the budget from new data. Paced, the budget is this rate,
 *     within the send rate: default half the send rate (new data keeps at least the other half);
 *     set, it must be below the send rate. Not paced, the budget is this rate (default {@code 32m}:
 *     20% loss on a 1 GbE link needs about 24 MiB/s of repairs) plus half the bytes of new data sent,
 *     so it keeps pace with links faster than the rate covers while NAKs take at most a third of
 *     what the stream sends beyond it. Larger repairs heavy loss sooner; smaller leaves more to new
 *     data under a flood of NAKs
 * @param authKeyFile a key file ({@link AuthKeyFile}, written by {@code nakcast keygen}) turns on
 *     authentication: every datagram of the transport is signed with its signing key, and every
 *     datagram that does not check is dropped and counted before anything else sees it; each
 *     datagram then carries {@value AuthKeys#TRAILER_BYTES} bytes of key id, nonce and tag within its
 *     {@code datagram-size}. Read once when a node starts; default none (or blank): datagrams are not
 *     authenticated
 * @param encrypt with a key file, whether the payload of every datagram (all but its 24-byte header)
 *     is also encrypted (AES-256 in counter mode, under the same key and nonce as the tag), so that
 *     only holders of the key read the messages; default false: payloads travel in clear
 */
public record TransportConfig(
    @RequiredKey @JsonProperty("name") String name,
    @RequiredKey @JsonProperty("interface") NetworkInterfaceRef networkInterface,
    @RequiredKey @JsonProperty("group") InetAddress group,
    @RequiredKey @JsonProperty("port") int port,
    @JsonProperty("ttl") int ttl,
    @JsonProperty("datagram-size") ByteSize datagramSize,
    @JsonProperty("socket-send-buffer") ByteSize socketSendBuffer,
    @JsonProperty("socket-receive-buffer") ByteSize socketReceiveBuffer,
    @JsonProperty("send-rate") ByteSize sendRate,
    @JsonProperty("send-burst") ByteSize sendBurst,
    @JsonProperty("repair-rate") ByteSize repairRate,
    @JsonProperty("auth-key-file") String authKeyFile,
    @JsonProperty("encrypt") boolean encrypt) {

    /** The default TTL: datagrams stay on this host. */
    public static final int DEFAULT_TTL = 0;
    /** The default datagram size: fits a 1500-byte MTU with IP, UDP and VLAN headers. */
    public static final ByteSize DEFAULT_DATAGRAM_SIZE = new ByteSize(1408);
    /** The default size of each socket buffer. */
    public static final ByteSize DEFAULT_SOCKET_BUFFER = ByteSize.parse("2m");
    /** The default send rate: not paced. */
    public static final ByteSize DEFAULT_SEND_RATE = ByteSize.ZERO;
    /**
     * The repair budget of a publisher that is not paced, in bytes per second: 20% loss on a 1 GbE
     * link (about 119 MiB/s of payload) needs about 24 MiB/s of repairs.
     */
    public static final ByteSize DEFAULT_UNPACED_REPAIR_RATE = ByteSize.parse("32m");
    /** What each byte of new data adds to the repair budget of a publisher that is not paced, in percent. */
    public static final int UNPACED_REPAIR_PERCENT_OF_DATA = 50;
    /** The datagrams a send or repair burst holds at least. */
    private static final int BURST_DATAGRAMS = 64;
    /** A burst holds at least one millisecond at its rate: the rate divided by this. */
    private static final int MILLIS_PER_SECOND = 1000;

    /** Applies the defaults for what is null. */
    public TransportConfig {
        datagramSize = datagramSize == null ? DEFAULT_DATAGRAM_SIZE : datagramSize;
        socketSendBuffer = socketSendBuffer == null ? DEFAULT_SOCKET_BUFFER : socketSendBuffer;
        socketReceiveBuffer = socketReceiveBuffer == null ? DEFAULT_SOCKET_BUFFER : socketReceiveBuffer;
        sendRate = sendRate == null ? DEFAULT_SEND_RATE : sendRate;
        sendBurst = sendBurst == null ? ByteSize.ZERO : sendBurst;
        repairRate = repairRate == null ? ByteSize.ZERO : repairRate;
        authKeyFile = authKeyFile == null || authKeyFile.isBlank() ? null : authKeyFile;
    }

    /**
     * A transport with every optional setting at its default.
     *
     * @param name the transport's name
     * @param networkInterface the interface's name or address, e.g. {@code lo}
     * @param group the multicast group as an address literal, e.g. {@code 239.255.0.1}
     * @param port the UDP port
     * @throws IllegalArgumentException if the group is not an IP address literal
     */
    public TransportConfig(String name, String networkInterface, String group, int port) {
        this(name, NetworkInterfaceRef.of(networkInterface), IpLiterals.parse(group), port,
            DEFAULT_TTL, null, null, null, null, null, null, null, false);
    }

    /**
     * @param ref the interface
     * @return this transport on that interface
     */
    public TransportConfig withNetworkInterface(NetworkInterfaceRef ref) {
        return RecordKeys.with(this, "interface", ref);
    }

    /**
     * @param hops the TTL
     * @return this transport with that TTL
     */
    public TransportConfig withTtl(int hops) {
        return RecordKeys.with(this, "ttl", hops);
    }

    /**
     * @param size the datagram size
     * @return this transport with that datagram size
     */
    public TransportConfig withDatagramSize(ByteSize size) {
        return RecordKeys.with(this, "datagram-size", size);
    }

    /**
     * @param size the socket send buffer size
     * @return this transport with that send buffer
     */
    public TransportConfig withSocketSendBuffer(ByteSize size) {
        return RecordKeys.with(this, "socket-send-buffer", size);
    }

    /**
     * @param size the socket receive buffer size
     * @return this transport with that receive buffer
     */
    public TransportConfig withSocketReceiveBuffer(ByteSize size) {
        return RecordKeys.with(this, "socket-receive-buffer", size);
    }

    /**
     * @param bytesPerSecond the send rate; zero for not paced
     * @return this transport with that send rate
     */
    public TransportConfig withSendRate(ByteSize bytesPerSecond) {
        return RecordKeys.with(this, "send-rate", bytesPerSecond);
    }

    /**
     * @param bytes the largest burst; zero for the default
     * @return this transport with that send burst
     */
    public TransportConfig withSendBurst(ByteSize bytes) {
        return RecordKeys.with(this, "send-burst", bytes);
    }

    /**
     * @param bytesPerSecond the repair budget; zero for the default
     * @return this transport with that repair budget
     */
    public TransportConfig withRepairRate(ByteSize bytesPerSecond) {
        return RecordKeys.with(this, "repair-rate", bytesPerSecond);
    }

    /**
     * @param file the key file, or null for none
     * @return this transport authenticating its datagrams with the keys of that file
     */
    public TransportConfig withAuthKeyFile(String file) {
        return RecordKeys.with(this, "auth-key-file", file);
    }

    /**
     * @param encrypted whether payloads are encrypted too (needs a key file)
     * @return this transport with payloads encrypted or not
     */
    public TransportConfig withEncrypt(boolean encrypted) {
        return RecordKeys.with(this, "encrypt", encrypted);
    }

    /** Whether the datagrams of this transport are authenticated: it names a key file. */
    public boolean authenticated() {
        return authKeyFile != null;
    }

    /** The send burst in bytes, the default worked out: max(64 datagrams, 1 ms at the send rate). */
    public long sendBurstBytes() {
        return sendBurst.isZero() ? burstAt(sendRate.bytes()) : sendBurst.bytes();
    }

    /**
     * The repair budget in bytes per second, the default worked out: {@code 32m} unpaced, half the
     * send rate paced.
     */
    public long repairRateBytes() {
        if (!repairRate.isZero()) {
            return repairRate.bytes();
        }
        return sendRate.isZero() ? DEFAULT_UNPACED_REPAIR_RATE.bytes() : sendRate.bytes() / 2;
    }

    /**
     * What each byte of new data adds to the repair budget, in percent: {@value #UNPACED_REPAIR_PERCENT_OF_DATA}
     * when not paced, so the budget follows the stream's own rate; 0 when paced, where the send rate
     * bounds everything.
     */
    public int repairPercentOfData() {
        return sendRate.isZero() ? UNPACED_REPAIR_PERCENT_OF_DATA : 0;
    }

    /**
     * The most repair bytes that may go out back to back after a quiet spell: max(64 datagrams,
     * 1 ms at the repair rate), so the repairs of a burst of loss go at once.
     */
    public long repairBurstBytes() {
        return burstAt(repairRateBytes());
    }

    private long burstAt(long bytesPerSecond) {
        return Math.max(BURST_DATAGRAMS * datagramSize.bytes(), bytesPerSecond / MILLIS_PER_SECOND);
    }
}
