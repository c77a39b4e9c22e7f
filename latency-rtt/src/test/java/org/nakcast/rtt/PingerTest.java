package org.nakcast.rtt;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.TimeUnit;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The ping loop against a link that never takes a message: it gives up at the timeout, it does not hang. */
class PingerTest {
    /** A link whose other side never connects: every send is refused for now, nothing arrives. */
    private static final class NeverConnected implements RttLink {
        @Override
        public boolean send(DirectBuffer buffer, int length) {
            return false;
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

    @Test
    @Timeout(value = 10, unit = TimeUnit.SECONDS)
    void aLinkThatNeverTakesTheProbeFailsTheConnectAtTheTimeout() {
        final Pinger pinger = new Pinger(new NeverConnected(), "never", new EchoWatch(), new BusySpinIdleStrategy(),
            32, TimeUnit.MILLISECONDS.toNanos(20));

        assertThatThrownBy(pinger::connect).isInstanceOf(IllegalStateException.class)
            .hasMessage("no echo on never within 20 ms: is pong running, with the same config, topics, --baseline, "
                + "--peer, --media and --auth?");
    }

    @Test
    @Timeout(value = 10, unit = TimeUnit.SECONDS)
    void aLinkThatStopsTakingPingsFailsTheRunAtTheTimeout() {
        final Pinger pinger = new Pinger(new NeverConnected(), "never", new EchoWatch(), new BusySpinIdleStrategy(),
            32, TimeUnit.MILLISECONDS.toNanos(20));

        try (LatencyLog log = new LatencyLog(null, 0)) {
            assertThatThrownBy(() -> pinger.run(1, 0, 0, log)).isInstanceOf(IllegalStateException.class)
                .hasMessage("no echo on never for ping 0 within 20 ms");
        }
    }
}
