package org.nakcast.transport.auth;

import java.nio.ByteBuffer;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.nakcast.transport.media.DatagramSender;
import org.nakcast.transport.protocol.HeaderFlyweight;

/**
 * A sending socket of an authenticated transport: each datagram is copied next to its
 * {@link AuthTrailer} and handed to the media's socket so. Used by one thread.
 */
final class SigningSender implements DatagramSender {
    private final DatagramSender socket;
    private final DatagramSigner signer;
    private final UnsafeBuffer signed =
        new UnsafeBuffer(ByteBuffer.allocateDirect(HeaderFlyweight.MAX_DATAGRAM_LENGTH + AuthTrailer.LENGTH));

    SigningSender(DatagramSender socket, DatagramSigner signer) {
        this.socket = socket;
        this.signer = signer;
    }

    @Override
    public boolean send(DirectBuffer buffer, int offset, int length) {
        signed.putBytes(0, buffer, offset, length);
        return socket.send(signed, 0, signer.sign(signed, length));
    }

    @Override
    public void flush() {
        socket.flush();
    }

    @Override
    public void close() {
        socket.close();
    }
}
