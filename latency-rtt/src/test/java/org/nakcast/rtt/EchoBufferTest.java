package org.nakcast.rtt;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

/** The pong side's receiver: echoes its phase's messages, and after the END nothing but the END. */
class EchoBufferTest {
    /** A link that takes every message and keeps its sequence. */
    private static final class Recording implements RttLink {
        private final List<Long> sent = new ArrayList<>();

        @Override
        public boolean send(DirectBuffer buffer, int length) {
            sent.add(PingMessage.sequence(buffer, 0));
            return true;
        }

        @Override
        public int poll() {
            return 0;
        }

        @Override
        public void close() {
            // nothing to close
        }
    }

    private final EchoBuffer echo = new EchoBuffer();
    private final Recording link = new Recording();

    @Test
    void aLingeringPongLeavesTheNextPhasesProbesAndPingsToThatPhasesPong() {
        for (long sequence : new long[] {PingMessage.PROBE, 0, 1, PingMessage.END}) {
            arrives(sequence);
            assertThat(echo.echoOn(link)).isOne();
        }
        assertThat(echo.ended()).isTrue();

        arrives(PingMessage.PROBE);
        assertThat(echo.echoOn(link)).as("the next phase's probe").isZero();
        arrives(0);
        assertThat(echo.echoOn(link)).as("the next phase's first ping").isZero();
        arrives(PingMessage.END);
        assertThat(echo.echoOn(link)).as("the END again: its echo was late").isOne();
        assertThat(link.sent).containsExactly(PingMessage.PROBE, 0L, 1L, PingMessage.END, PingMessage.END);
    }

    private void arrives(long sequence) {
        final UnsafeBuffer message = new UnsafeBuffer(ByteBuffer.allocateDirect(32));
        PingMessage.write(message, 0, sequence, 0);
        echo.onMessage(message, 0, 32);
    }
}
