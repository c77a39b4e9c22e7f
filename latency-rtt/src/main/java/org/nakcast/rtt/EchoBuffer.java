package org.nakcast.rtt;

import java.nio.ByteBuffer;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The pong side's receiver: keeps a copy of the latest message until it has been echoed, and notes
 * the END of a phase. After the END it keeps nothing but a repeated END: a pong that lingers past
 * its phase must leave the next phase's probes and pings alone, for they may travel the same groups
 * and ports (nakcast's phases do) and are for the next phase's pong, which subscribes later and
 * would never see a ping the lingering one had taken.
 */
final class EchoBuffer implements RttLink.Receiver {
    private static final int CAPACITY = 65_536;

    private final UnsafeBuffer copy = new UnsafeBuffer(ByteBuffer.allocateDirect(CAPACITY));
    private int length;
    private boolean pending;
    private boolean ended;

    @Override
    public void onMessage(DirectBuffer buffer, int offset, int messageLength) {
        final boolean end =
            messageLength >= PingMessage.LENGTH && PingMessage.sequence(buffer, offset) == PingMessage.END;
        if (messageLength <= CAPACITY && (end || !ended)) {
            copy.putBytes(0, buffer, offset, messageLength);
            length = messageLength;
            pending = true;
            ended |= end;
        }
    }

    /**
     * Echoes the kept message, if there is one.
     *
     * @return 1 if it went, 0 if there was none or the link is back-pressured (it stays kept)
     */
    int echoOn(RttLink link) {
        if (pending && link.send(copy, length)) {
            pending = false;
            return 1;
        }
        return 0;
    }

    /** Whether the END of the phase came. */
    boolean ended() {
        return ended;
    }
}
