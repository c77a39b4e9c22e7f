package org.nakcast.benchmarks.throughput;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;

import org.junit.jupiter.api.Test;
import org.nakcast.transport.LossEvent;
import org.nakcast.transport.MessageHeader;

class DeliveryCheckerTest {
    private static final int SESSION = 7;

    private final DeliveryChecker checker = new DeliveryChecker();
    private final MessageHeader header = new MessageHeader();

    @Test
    void messagesInOrderAreNoErrors() {
        deliver(0, 1, 2, 3);

        assertThat(checker.delivered()).isEqualTo(4);
        assertThat(checker.sequenceErrors()).isZero();
        assertThat(checker.firstMessageNs()).isPositive();
    }

    @Test
    void aSkipCoveredByAReportedLossIsNoError() {
        deliver(0, 1);
        checker.onLoss(new LossEvent(1, SESSION, 5, 6, 2, 3, LossEvent.Cause.UNRECOVERABLE, false));
        deliver(5, 6);

        assertThat(checker.sequenceErrors()).isZero();
        assertThat(checker.lost()).isEqualTo(3);
        assertThat(checker.lossEvents()).isEqualTo(1);
    }

    @Test
    void aSkipLargerThanTheReportedLossIsAnError() {
        deliver(0);
        checker.onLoss(new LossEvent(1, SESSION, 1, 1, 1, 1, LossEvent.Cause.UNRECOVERABLE, false));
        deliver(3);

        assertThat(checker.sequenceErrors()).isEqualTo(1);
    }

    @Test
    void aSilentSkipADuplicateAndAGoingBackAreErrors() {
        deliver(0, 2, 2, 1);

        assertThat(checker.sequenceErrors()).isEqualTo(3);
    }

    @Test
    void aStartAfterMessageZeroIsAnError() {
        deliver(5, 6);

        assertThat(checker.sequenceErrors()).isEqualTo(1);
    }

    @Test
    void aWrongIndexABrokenMessageOrAnotherSessionIsAnError() {
        deliver(0);
        checker.onMessage(1, true, header.set(1, SESSION, 2, 0));
        checker.onMessage(2, false, header.set(1, SESSION, 2, 0));
        checker.onMessage(3, true, header.set(1, SESSION + 1, 3, 0));

        assertThat(checker.sequenceErrors()).isEqualTo(3);
    }

    @Test
    void deliveringAllocatesNothing() {
        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        final long threadId = Thread.currentThread().getId();
        deliverRange(0, 200_000);
        final long before = threads.getThreadAllocatedBytes(threadId);
        deliverRange(200_000, 1_000_000);
        final long allocated = threads.getThreadAllocatedBytes(threadId) - before;

        assertThat(allocated).isZero();
        assertThat(checker.sequenceErrors()).isZero();
    }

    private void deliverRange(long from, long to) {
        for (long number = from; number < to; number++) {
            checker.onMessage(number, true, header.set(1, SESSION, number, 0));
        }
    }

    private void deliver(long... numbers) {
        for (long number : numbers) {
            checker.onMessage(number, true, header.set(1, SESSION, number, 0));
        }
    }

    @Test
    void aPeersMessagesInOrderAreNoErrors() {
        for (long number = 0; number < 4; number++) {
            checker.onPeerMessage(number, true);
        }

        assertThat(checker.delivered()).isEqualTo(4);
        assertThat(checker.skipped()).isZero();
        assertThat(checker.sequenceErrors()).isZero();
        assertThat(checker.firstMessageNs()).isPositive();
    }

    @Test
    void aPeersJumpIsSkippedAndABackwardOrDamagedMessageIsAnError() {
        checker.onPeerMessage(0, true);
        checker.onPeerMessage(4, true);
        checker.onPeerMessage(4, true);
        checker.onPeerMessage(2, true);
        checker.onPeerMessage(5, false);
        checker.onPeerMessage(6, true);

        assertThat(checker.delivered()).isEqualTo(6);
        assertThat(checker.skipped()).isEqualTo(3);
        assertThat(checker.sequenceErrors()).isEqualTo(3);
    }
}
