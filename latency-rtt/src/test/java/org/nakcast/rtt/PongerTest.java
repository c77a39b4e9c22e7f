package org.nakcast.rtt;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.NoOpIdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

/**
 * The pong side's loop: once the ping side's END is echoed it stops receiving before it lingers, so
 * a lingering pong takes no part in the next turn's streams, and it goes on polling (sending) while
 * it lingers.
 */
class PongerTest {
    /** A link that delivers a ping, then the END, and records what the loop asks of it. */
    private static final class Scripted implements RttLink {
        private final List<String> calls = new ArrayList<>();
        private final long[] arriving = {0, PingMessage.END};
        private Receiver receiver;
        private int delivered;
        private boolean receiving = true;
        private int pollsAfterStop;

        @Override
        public boolean send(DirectBuffer buffer, int length) {
            calls.add("send " + PingMessage.sequence(buffer, 0));
            return true;
        }

        @Override
        public int poll() {
            if (!receiving) {
                pollsAfterStop++;
                return 0;
            }
            if (delivered < arriving.length) {
                final UnsafeBuffer message = new UnsafeBuffer(ByteBuffer.allocateDirect(32));
                PingMessage.write(message, 0, arriving[delivered++], 0);
                receiver.onMessage(message, 0, 32);
                return 1;
            }
            return 0;
        }

        @Override
        public void stopReceiving() {
            calls.add("stop receiving");
            receiving = false;
        }

        @Override
        public void close() {
            // nothing to close
        }
    }

    @Test
    void afterTheEndsEchoItStopsReceivingThenLingersSendingWhatIsLeft() {
        final Scripted link = new Scripted();
        final EchoBuffer echo = new EchoBuffer();
        link.receiver = echo;

        assertThat(new Ponger(link, echo, new NoOpIdleStrategy()).serve()).isTrue();

        assertThat(link.calls).containsExactly("send 0", "send " + PingMessage.END, "stop receiving");
        assertThat(link.pollsAfterStop).as("the linger keeps the link working").isPositive();
    }

    @Test
    void stoppedBeforeTheEndItKeepsReceiving() {
        final Scripted link = new Scripted();
        final EchoBuffer echo = new EchoBuffer();
        link.receiver = echo;
        final Ponger ponger = new Ponger(link, echo, new NoOpIdleStrategy());
        ponger.stop();

        assertThat(ponger.serve()).isFalse();

        assertThat(link.calls).doesNotContain("stop receiving");
    }
}
