package org.nakcast.transport.receive;

import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.util.List;

import org.nakcast.config.AuthKeys;
import org.nakcast.transport.media.Line;
import org.nakcast.transport.media.MulticastAddress;

/** Two line addresses on {@code lo} for tests that never open a socket: line A and line B. */
public final class TestLines {
    /** Line A's address. */
    public static final MulticastAddress A = onLo("239.255.9.9", 1);
    /** Line A's address with keys: an authenticated line. */
    public static final MulticastAddress AUTHENTICATED_A = new MulticastAddress(A.networkInterface(), A.group(),
        A.dataPort(), A.controlPort(), 0, 0, 0,
        new AuthKeys(1, List.of(new AuthKeys.Key(1, new byte[AuthKeys.SECRET_BYTES]))), false);
    /** Line B's address: another group, other ports. */
    public static final MulticastAddress B = onLo("239.255.9.11", 3);

    private TestLines() {
    }

    /** Line A, named "md-a". */
    public static Line lineA() {
        return new Line("md-a", A);
    }

    /** Line A with keys, named "md-a". */
    public static Line authenticatedLineA() {
        return new Line("md-a", AUTHENTICATED_A);
    }

    /** Line B, named "md-b". */
    public static Line lineB() {
        return new Line("md-b", B);
    }

    private static MulticastAddress onLo(String group, int dataPort) {
        try {
            return new MulticastAddress(
                NetworkInterface.getByName("lo"), InetAddress.getByName(group), dataPort, dataPort + 1, 0, 0, 0, null,
                false);
        } catch (SocketException | UnknownHostException ex) {
            throw new UncheckedIOException(ex);
        }
    }
}
