package org.nakcast.transport.publish;

import java.util.ArrayList;
import java.util.List;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.nakcast.transport.media.DatagramSink;
import org.nakcast.transport.protocol.DatagramValidator;
import org.nakcast.transport.protocol.FrameType;
import org.nakcast.transport.protocol.HeaderFlyweight;
import org.nakcast.transport.status.DatagramCheck;

/** Keeps a copy of every datagram sent, checks each one, and can be told to refuse sends. */
final class CapturingSink implements DatagramSink {
    final List<UnsafeBuffer> datagrams = new ArrayList<>();
    boolean refusing;

    @Override
    public boolean send(DirectBuffer buffer, int offset, int length) {
        if (refusing) {
            return false;
        }
        final UnsafeBuffer copy = new UnsafeBuffer(new byte[length]);
        copy.putBytes(0, buffer, offset, length);
        if (DatagramValidator.check(copy, 0, length) != DatagramCheck.VALID) {
            throw new AssertionError("sent an invalid datagram: " + DatagramValidator.check(copy, 0, length));
        }
        datagrams.add(copy);
        return true;
    }

    List<UnsafeBuffer> ofType(FrameType type) {
        final List<UnsafeBuffer> result = new ArrayList<>();
        final HeaderFlyweight header = new HeaderFlyweight();
        for (UnsafeBuffer datagram : datagrams) {
            if (header.wrap(datagram, 0).typeCode() == type.code()) {
                result.add(datagram);
            }
        }
        return result;
    }
}
