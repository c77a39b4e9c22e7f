package org.nakcast.transport.publish;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.nakcast.transport.media.DatagramSource;

class RepairSharesTest {
    private static final long SECOND_NS = 1_000_000_000L;
    private static final int DATAGRAM = 100;
    /** Repairs wait in the stream's queue: a source is held to its share if another host asks too. */
    private static final boolean WAITING = true;
    /** A stream budget of 20 datagrams a second, a burst of 10, half of new data's bytes. */
    private final RepairShares shares = new RepairShares(20L * DATAGRAM, 10L * DATAGRAM, 50);
    private final DatagramSource flooder = host(1, 40_001);
    private final DatagramSource receiver = host(2, 40_002);

    @Test
    void aLoneSourceHasWhateverItAsksForAsTheStreamBudgetAloneWouldAllow() {
        assertThat(shares.take(flooder, 1_000, DATAGRAM, WAITING, 0)).isEqualTo(1_000);
        assertThat(shares.take(flooder, 1_000, DATAGRAM, WAITING, 1)).isEqualTo(1_000);
    }

    @Test
    void whileAnotherHostAsksASourceGetsItsBurstThenHalfTheStreamsEarnings() {
        shares.take(flooder, 1_000, DATAGRAM, WAITING, 0);
        assertThat(shares.take(receiver, 3, DATAGRAM, WAITING, 1)).as("a fresh share holds the whole burst")
            .isEqualTo(3);

        assertThat(shares.take(flooder, 1_000, DATAGRAM, WAITING, 2)).as("drained while alone").isZero();
        final long halfSecondNs = SECOND_NS / 2;
        assertThat(shares.take(receiver, 1, DATAGRAM, WAITING, halfSecondNs)).isOne();
        assertThat(shares.take(flooder, 1_000, DATAGRAM, WAITING, halfSecondNs + 1))
            .as("half a second at half the rate").isEqualTo(5);
        shares.onDataSent(20 * DATAGRAM);
        assertThat(shares.take(flooder, 1_000, DATAGRAM, WAITING, halfSecondNs + 1))
            .as("a quarter of new data's bytes").isEqualTo(5);
        assertThat(shares.take(receiver, 7, DATAGRAM, WAITING, halfSecondNs + 1))
            .as("the other host's share is its own").isEqualTo(7);
    }

    @Test
    void whileNoRepairWaitsEverySourceHasWhatItAsksForThoughSeveralAsk() {
        shares.take(receiver, 1, DATAGRAM, WAITING, 0);
        assertThat(shares.take(flooder, 1_000, DATAGRAM, !WAITING, 1)).isEqualTo(1_000);
        assertThat(shares.take(flooder, 1, DATAGRAM, WAITING, 2)).as("what it took is spent").isZero();
    }

    @Test
    void anotherHostIsForgottenWhenItHasNotAskedForAWhile() {
        shares.take(receiver, 1, DATAGRAM, WAITING, 0);
        assertThat(shares.take(flooder, 1_000, DATAGRAM, WAITING, 1)).isEqualTo(10);

        assertThat(shares.take(flooder, 1_000, DATAGRAM, WAITING, RepairShares.OTHERS_ACTIVE_NS + 1)).isEqualTo(1_000);
    }

    @Test
    void oneHostIsOneSourceWhateverItsPortAndSourcesNoMediaCouldTellShareOne() {
        shares.take(receiver, 1, DATAGRAM, WAITING, 0);
        assertThat(shares.take(flooder, 10, DATAGRAM, WAITING, 1)).isEqualTo(10);
        assertThat(shares.take(host(1, 50_000), 1, DATAGRAM, WAITING, 2)).as("another port of the same host").isZero();

        final DatagramSource unknown = new DatagramSource().unknown();
        assertThat(shares.take(unknown, 10, DATAGRAM, WAITING, 3)).isEqualTo(10);
        assertThat(shares.take(new DatagramSource().unknown(), 1, DATAGRAM, WAITING, 4)).isZero();
    }

    @Test
    void aNewSourceBeyondWhatIsKeptTakesThePlaceOfTheOneHeardFromLongestAgoWithAFullShare() {
        shares.take(receiver, 1, DATAGRAM, WAITING, 0);
        for (int i = 0; i < RepairShares.SOURCES; i++) {
            shares.take(host(100 + i, 40_000), 10, DATAGRAM, WAITING, 1 + i);
        }
        assertThat(shares.take(host(100, 40_000), 1, DATAGRAM, WAITING, 100)).as("kept, spent").isZero();

        assertThat(shares.take(receiver, 10, DATAGRAM, WAITING, 101)).as("evicted, back with a full share")
            .isEqualTo(10);
        assertThat(shares.take(host(101, 40_000), 1, DATAGRAM, WAITING, 102)).as("evicted in its turn").isOne();
    }

    private static DatagramSource host(int number, int port) {
        return new DatagramSource().ipv4(0x0A00_0000 | number, port);
    }
}
