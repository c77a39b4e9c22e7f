package org.nakcast.benchmarks.throughput;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class KernelLossTest {
    @Test
    void theRuleDropsTheFractionOfUdpOnInputAndIsDeletedWithTheSameWords() {
        assertThat(KernelLoss.ruleArgs("-A", 0.01)).containsExactly("iptables", "-w", "-A", "INPUT", "-p", "udp",
            "-m", "statistic", "--mode", "random", "--probability", "0.010000", "-j", "DROP");
        assertThat(KernelLoss.ruleArgs("-D", 0.1)).containsExactly("iptables", "-w", "-D", "INPUT", "-p", "udp",
            "-m", "statistic", "--mode", "random", "--probability", "0.100000", "-j", "DROP");
    }

    @Test
    void aFractionOutsideZeroToOneMakesNoRule() {
        assertThatThrownBy(() -> KernelLoss.ruleArgs("-A", 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> KernelLoss.ruleArgs("-A", 1.5)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> KernelLoss.ruleArgs("-A", Double.NaN)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theCountersAreListedExactly() {
        assertThat(KernelLoss.listArgs()).containsExactly("iptables", "-w", "-L", "INPUT", "-v", "-n", "-x");
    }

    @Test
    void droppedIsThePacketCountOfTheStatisticDropRule() {
        final String listing = """
            Chain INPUT (policy ACCEPT 0 packets, 0 bytes)
                pkts      bytes target     prot opt in     out     source               destination
                 492    14268 DROP       17   --  *      *       0.0.0.0/0            0.0.0.0/0            \
            statistic mode random probability 0.50000000000
                  12      400 DROP       6    --  *      *       0.0.0.0/0            0.0.0.0/0
            """;

        assertThat(KernelLoss.parseDropped(listing)).isEqualTo(492);
        assertThat(KernelLoss.parseDropped("Chain INPUT (policy ACCEPT 0 packets, 0 bytes)\n")).isZero();
    }

    @Test
    void noLossRunsNoIptables() {
        try (KernelLoss none = KernelLoss.apply(0)) {
            assertThat(none.dropped()).isZero();
        }
    }
}
