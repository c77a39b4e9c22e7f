package org.nakcast.transport.receive;

import java.util.ArrayList;
import java.util.List;

import org.agrona.concurrent.UnsafeBuffer;
import org.nakcast.transport.protocol.DataFlyweight;
import org.nakcast.transport.protocol.DatagramValidator;
import org.nakcast.transport.protocol.MessageFrame;
import org.nakcast.transport.status.DatagramCheck;
import org.nakcast.transport.testing.DataDatagramBuilder;

/**
 * A finite stream of messages packed into DATA datagrams the way a publisher may: small messages
 * batched, large ones fragmented. Either like nakcast's publisher (a message that fits a datagram
 * is never split; a fragmented one starts a fresh datagram) or split anywhere (a message starts in
 * whatever room is left), which the wire format allows too.
 */
final class PackedStream {
    private final List<byte[]> messages;
    private final List<byte[]> datagrams;

    private PackedStream(List<byte[]> messages, List<byte[]> datagrams) {
        this.messages = messages;
        this.datagrams = datagrams;
    }

    /** Message {@code index}'s bytes: a pattern that differs between messages of the same length. */
    static byte[] message(int index, int length) {
        final byte[] bytes = new byte[length];
        for (int i = 0; i < length; i++) {
            bytes[i] = (byte) (index * 31 + i);
        }
        return bytes;
    }

    /** Packs messages of these sizes into datagrams of at most {@code datagramLength} bytes. */
    static PackedStream pack(List<Integer> sizes, int datagramLength, boolean splitAnywhere) {
        final List<byte[]> messages = new ArrayList<>();
        for (int index = 0; index < sizes.size(); index++) {
            messages.add(message(index, sizes.get(index)));
        }
        final Packer packer = new Packer(datagramLength);
        for (int index = 0; index < messages.size(); index++) {
            packer.add(index, messages.get(index), splitAnywhere);
        }
        packer.sealIfOpen();
        return new PackedStream(messages, packer.datagrams);
    }

    List<byte[]> messages() {
        return messages;
    }

    int datagramCount() {
        return datagrams.size();
    }

    byte[] datagram(long sequence) {
        return datagrams.get((int) sequence);
    }

    /** The first message to begin in or after datagram {@code sequence}, as a publisher computes it. */
    long firstMessageIndexOf(long sequence) {
        if (sequence == datagrams.size()) {
            return messages.size();
        }
        final UnsafeBuffer buffer = new UnsafeBuffer(datagram(sequence));
        final DataFlyweight header = new DataFlyweight();
        header.wrap(buffer, 0);
        final boolean opens = MessageFrame.isBegin(MessageFrame.flags(buffer, DataFlyweight.DATA_HEADER_LENGTH));
        return header.completedMessages() + (opens ? 0 : 1);
    }

    private static final class Packer {
        final List<byte[]> datagrams = new ArrayList<>();
        final DataDatagramBuilder builder = new DataDatagramBuilder(StreamHarness.SESSION, StreamHarness.TOPIC);
        final int datagramLength;
        boolean open;

        Packer(int datagramLength) {
            this.datagramLength = datagramLength;
        }

        void add(int index, byte[] message, boolean splitAnywhere) {
            if (open && !splitAnywhere && builder.length() + MessageFrame.FRAME_HEADER_LENGTH + message.length
                > datagramLength) {
                seal();
            }
            final UnsafeBuffer source = new UnsafeBuffer(message);
            int offset = 0;
            while (true) {
                if (!open) {
                    builder.start(datagrams.size(), index);
                    open = true;
                }
                final int room = datagramLength - builder.length() - MessageFrame.FRAME_HEADER_LENGTH;
                if (room < 0 || room == 0 && offset < message.length) {
                    seal();
                    continue;
                }
                final int take = Math.min(room, message.length - offset);
                final boolean last = offset + take == message.length;
                final int flags = (offset == 0 ? MessageFrame.BEGIN : 0) | (last ? MessageFrame.END : 0);
                builder.frame(flags, source, offset, take);
                offset += take;
                if (last) {
                    return;
                }
                seal();
            }
        }

        void sealIfOpen() {
            if (open) {
                seal();
            }
        }

        private void seal() {
            final DatagramCheck check = DatagramValidator.check(builder.buffer(), 0, builder.length());
            if (check != DatagramCheck.VALID) {
                throw new AssertionError("packed an invalid datagram: " + check);
            }
            datagrams.add(builder.toBytes());
            open = false;
        }
    }
}
