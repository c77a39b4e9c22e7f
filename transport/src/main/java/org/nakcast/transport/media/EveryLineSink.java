package org.nakcast.transport.media;

import java.util.List;

import org.agrona.DirectBuffer;

/**
 * Sends each datagram on every line of a topic, so that a dead line takes none of them: the
 * publisher's DATA, HEARTBEAT, RETRANSMIT and UNRECOVERABLE go out on each line's data port, a
 * receiver's NAKs and STATUS on each line's control port. A datagram is taken if at least one line
 * took it: the other line's copy is lost as the network could lose it, and repaired as such; only
 * when no line takes it does the caller keep it to try again.
 */
public final class EveryLineSink implements DatagramSink {
    private final DatagramSink[] lines;

    private EveryLineSink(DatagramSink[] lines) {
        this.lines = lines;
    }

    /**
     * @param lines each line's sink, one or two
     * @return the one line's own sink, or a sink that sends on every line
     */
    public static DatagramSink of(List<DatagramSink> lines) {
        if (lines.isEmpty()) {
            throw new IllegalArgumentException("no line to send on");
        }
        return lines.size() == 1 ? lines.get(0) : new EveryLineSink(lines.toArray(new DatagramSink[0]));
    }

    @Override
    public boolean send(DirectBuffer buffer, int offset, int length) {
        boolean taken = false;
        for (DatagramSink line : lines) {
            taken |= line.send(buffer, offset, length);
        }
        return taken;
    }
}
