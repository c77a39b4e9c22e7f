package org.nakcast.transport.publish;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.CountersManager;
import org.junit.jupiter.api.Test;
import org.nakcast.transport.PublisherEventListener;
import org.nakcast.transport.ReceiverDropped;
import org.nakcast.transport.status.SystemCounter;
import org.nakcast.transport.status.SystemCounters;

class MinFlowControlTest {
    private static final long WINDOW = 100;
    private static final long TIMEOUT_NS = 1_000_000;

    private final SystemCounters counters = new SystemCounters(new CountersManager(
        new UnsafeBuffer(ByteBuffer.allocateDirect(64 * 1024)),
        new UnsafeBuffer(ByteBuffer.allocateDirect(16 * 1024))));
    private final List<ReceiverDropped> dropped = new ArrayList<>();
    private final MinFlowControl flowControl = new MinFlowControl(3, 77, WINDOW, TIMEOUT_NS, 256,
        new PublisherEventListener() {
            @Override
            public void onReceiverDropped(ReceiverDropped event) {
                dropped.add(event);
            }
        }, counters.get(SystemCounter.RECEIVERS_DROPPED));

    @Test
    void withNoReceiverThePublisherKeepsItsOwnPace() {
        assertThat(flowControl.sendLimit(1_000, 0)).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void thePublisherRunsAWindowAheadOfItsSlowestLiveReceiver() {
        flowControl.onStatus(1, 500, 0);
        flowControl.onStatus(2, 300, 0);
        flowControl.onStatus(3, 900, 0);

        assertThat(flowControl.sendLimit(950, 10)).isEqualTo(300 + WINDOW);

        flowControl.onStatus(2, 700, 20);
        assertThat(flowControl.sendLimit(950, 30)).isEqualTo(500 + WINDOW);
    }

    @Test
    void anOlderStatusArrivingLateDoesNotMoveAReceiverBack() {
        flowControl.onStatus(1, 500, 0);
        flowControl.onStatus(1, 400, 1);

        assertThat(flowControl.sendLimit(500, 2)).isEqualTo(500 + WINDOW);
    }

    @Test
    void aReceiverSilentBeyondTheTimeoutIsDroppedWithItsNumbersAndTheOthersGoOn() {
        flowControl.onStatus(1, 200, 0);
        flowControl.onStatus(2, 600, 0);
        flowControl.onStatus(2, 650, TIMEOUT_NS);

        final long limit = flowControl.sendLimit(700, TIMEOUT_NS + 1);

        assertThat(limit).isEqualTo(650 + WINDOW);
        assertThat(dropped).singleElement().satisfies(event -> {
            assertThat(event.receiverId()).isEqualTo(1);
            assertThat(event.datagramsBehind()).isEqualTo(500);
            assertThat(event.silentNs()).isEqualTo(TIMEOUT_NS + 1);
            assertThat(event.historyDatagrams()).isEqualTo(256);
            assertThat(event.describe()).contains("receiver 00000001 dropped", "500 datagrams behind",
                "history holds 256");
        });
        assertThat(counters.get(SystemCounter.RECEIVERS_DROPPED).get()).isOne();
        assertThat(flowControl.liveReceivers()).isOne();
    }

    @Test
    void receiversBeyondTheMostItWaitsForAreNotWaitedFor() {
        for (int receiver = 0; receiver < MinFlowControl.MAX_RECEIVERS; receiver++) {
            flowControl.onStatus(receiver, 1_000, 0);
        }
        flowControl.onStatus(-1, 10, 0);

        assertThat(flowControl.liveReceivers()).isEqualTo(MinFlowControl.MAX_RECEIVERS);
        assertThat(flowControl.sendLimit(1_000, 1)).isEqualTo(1_000 + WINDOW);
    }
}
