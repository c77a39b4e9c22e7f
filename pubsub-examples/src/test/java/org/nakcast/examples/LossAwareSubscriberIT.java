package org.nakcast.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.nakcast.config.LossPolicy;

class LossAwareSubscriberIT {
    private static final int UPDATES = LossAwareSubscriber.MIN_UPDATES;
    private static final Pattern LOST_DATAGRAMS =
        Pattern.compile("messages \\([0-9,]+\\.\\.[0-9,]+\\) lost in datagrams ([0-9]+)\\.\\.([0-9]+)");

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void withLossPolicyContinueEveryUpdateIsDeliveredOrCountedLostAndTheBookResyncs() {
        final LossAwareSubscriber.Result result = LossAwareSubscriber.run(LossPolicy.CONTINUE, UPDATES);

        assertThat(result.lossEvents()).as(result.toString()).isPositive();
        assertThat(result.messagesLost()).isPositive();
        assertThat(result.delivered() + result.messagesLost()).as("each update delivered or counted lost, once: %s",
            result).isEqualTo(UPDATES);
        assertThat(result.resyncs()).as("one resync per loss").isEqualTo(result.lossEvents());
        assertThat(result.staleInstruments()).as("every instrument updated since the loss").isZero();
        assertThat(result.feedDown()).isFalse();
        assertThat(result.descriptions()).hasSize((int) result.lossEvents()).allSatisfy(description -> {
            assertThat(description).contains("delivery goes on after the gap");
            assertThat(lostDatagrams(description)).as("the datagrams lost, in: %s", description)
                .allSatisfy(sequence -> assertThat(sequence)
                    .isBetween(LossAwareSubscriber.FIRST_DROPPED, LossAwareSubscriber.LAST_DROPPED));
        });
    }

    /**
     * The first and last datagram a loss event's description names. What the publisher still held
     * when the NAK came is resent, so a loss may begin past the first dropped datagram, and the
     * publisher may give the run up in two answers as its history moves on; but every datagram given
     * up is one the loss generator dropped.
     */
    private static List<Long> lostDatagrams(String description) {
        final Matcher matcher = LOST_DATAGRAMS.matcher(description);
        assertThat(matcher.find()).as("names the datagrams lost: %s", description).isTrue();
        return List.of(Long.parseLong(matcher.group(1)), Long.parseLong(matcher.group(2)));
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void withLossPolicyDropTheStreamIsDroppedAtTheGap() {
        final LossAwareSubscriber.Result result = LossAwareSubscriber.run(LossPolicy.DROP, UPDATES);

        assertThat(result.feedDown()).as(result.toString()).isTrue();
        assertThat(result.lossEvents()).isOne();
        assertThat(result.delivered()).as("the updates before the gap").isPositive();
        assertThat(result.delivered() + result.messagesLost()).as("nothing after the gap")
            .isLessThan(UPDATES);
        assertThat(result.resyncs()).isZero();
        assertThat(result.descriptions()).singleElement().asString().contains("stream dropped");
    }

    @Test
    void tooFewUpdatesToReachTheDroppedRangeAreRefused() {
        assertThatThrownBy(() -> LossAwareSubscriber.run(LossPolicy.CONTINUE, 100))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least");
    }
}
