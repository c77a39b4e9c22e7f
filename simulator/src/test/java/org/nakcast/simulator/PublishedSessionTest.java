package org.nakcast.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The checker's reckoning of when flow control last had reason to take a receiver for one that keeps up. */
class PublishedSessionTest {
    private static final int RECEIVER = 7;

    private final PublishedSession session = new PublishedSession(1, 1, null, 0, 100, 64, 64, 128);

    @Test
    void aReceiverNeverReadHasNoSuchMoment() {
        assertThat(session.keptUpAtNs(RECEIVER)).isEqualTo(Long.MIN_VALUE);
    }

    @Test
    void aReceiverBehindKeptUpWhenItsPositionLastMoved() {
        handed(0, 9, 50);
        read(5, 100);

        assertThat(session.keptUpAtNs(RECEIVER)).isEqualTo(100);
    }

    @Test
    void aReceiverThatHadAllThatWasSentKeptUpUntilThePublisherSentPastIt() {
        handed(0, 9, 50);
        read(10, 100);
        handed(10, 12, 400);

        assertThat(session.keptUpAtNs(RECEIVER)).isEqualTo(400);
    }

    @Test
    void aReceiverThatStillHasAllThatWasSentKeepsUpNow() {
        handed(0, 9, 50);
        read(10, 100);

        assertThat(session.keptUpAtNs(RECEIVER)).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void aDatagramHandedAgainKeepsTheTimeItWasFirstHanded() {
        handed(0, 9, 50);
        read(10, 100);
        handed(10, 10, 400);
        handed(10, 10, 900);

        assertThat(session.keptUpAtNs(RECEIVER)).isEqualTo(400);
    }

    private void handed(long from, long to, long nowNs) {
        for (long sequence = from; sequence <= to; sequence++) {
            session.handedData(sequence, nowNs);
        }
    }

    /** As the publisher's node reads a STATUS that moves the receiver to {@code position}. */
    private void read(long position, long nowNs) {
        session.statusReadNs.put(RECEIVER, nowNs);
        session.statusPosition.put(RECEIVER, position);
        session.statusMovedNs.put(RECEIVER, nowNs);
    }
}
