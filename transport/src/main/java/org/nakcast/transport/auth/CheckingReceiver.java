package org.nakcast.transport.auth;

import org.agrona.concurrent.UnsafeBuffer;
import org.nakcast.transport.media.DatagramReceiver;
import org.nakcast.transport.media.DatagramSource;

/**
 * A receiving socket of an authenticated transport: it hands on only the datagrams whose trailer
 * checks ({@link DatagramChecker}), without their trailer. It reads past at most
 * {@value #REFUSED_PER_RECEIVE} refused datagrams per call, so a flood of forgeries cannot keep the
 * agent in one call. Used by one thread.
 */
final class CheckingReceiver implements DatagramReceiver {
    static final int REFUSED_PER_RECEIVE = 16;

    private final DatagramReceiver socket;
    private final DatagramChecker checker;

    CheckingReceiver(DatagramReceiver socket, DatagramChecker checker) {
        this.socket = socket;
        this.checker = checker;
    }

    @Override
    public int receive() {
        for (int refused = 0; refused < REFUSED_PER_RECEIVE; refused++) {
            final int received = socket.receive();
            if (received <= 0) {
                return received;
            }
            final int length = checker.check(socket.buffer(), received);
            if (length >= 0) {
                return length;
            }
        }
        return 0;
    }

    @Override
    public UnsafeBuffer buffer() {
        return socket.buffer();
    }

    @Override
    public DatagramSource source() {
        return socket.source();
    }

    @Override
    public void close() {
        socket.close();
    }
}
