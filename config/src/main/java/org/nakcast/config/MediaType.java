package org.nakcast.config;

/**
 * How a node moves datagrams to and from the kernel ({@code node.media} in YAML).
 */
public enum MediaType {
    /** Java's {@code DatagramChannel}, one system call per datagram: every JDK, every OS. The default. */
    NIO,
    /**
     * Linux system calls through the foreign function API, many datagrams per call ({@code sendmmsg},
     * {@code recvmmsg}): needs the module nakcast-media-native, JDK 22 or later and Linux; a node
     * that cannot have it runs on {@link #NIO} and says why in its log.
     */
    NATIVE
}
