package org.nakcast.rtt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.nakcast.config.TransportConfig;

class KernelLossTest {
    @Test
    void theRuleDropsTheFractionOfUdpOnInputAndIsDeletedWithTheSameWords() {
        assertThat(KernelLoss.ruleArgs("-A", 0.01, List.of())).containsExactly("iptables", "-w", "-A", "INPUT",
            "-p", "udp", "-m", "statistic", "--mode", "random", "--probability", "0.010000", "-j", "DROP");
        assertThat(KernelLoss.ruleArgs("-D", 0.1, List.of())).containsExactly("iptables", "-w", "-D", "INPUT",
            "-p", "udp", "-m", "statistic", "--mode", "random", "--probability", "0.100000", "-j", "DROP");
    }

    @Test
    void aTransportsRuleMatchesItsGroupAndItsDataAndControlPortsOnly() {
        final List<String> match = KernelLoss.transportMatch(new TransportConfig("md-b", "lo", "239.255.77.5", 40476));

        assertThat(KernelLoss.ruleArgs("-A", 0.01, match)).containsExactly("iptables", "-w", "-A", "INPUT", "-p",
            "udp", "-d", "239.255.77.5", "--dport", "40476:40477", "-m", "statistic", "--mode", "random",
            "--probability", "0.010000", "-j", "DROP");
    }

    @Test
    void aFractionOutsideZeroToOneMakesNoRule() {
        assertThatThrownBy(() -> KernelLoss.ruleArgs("-A", 0, List.of()))
            .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> KernelLoss.ruleArgs("-A", 1.5, List.of()))
            .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> KernelLoss.ruleArgs("-A", Double.NaN, List.of()))
            .isInstanceOf(IllegalArgumentException.class);
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
        try (KernelLoss none = KernelLoss.onEveryUdpDatagram(0);
            KernelLoss noneEither = KernelLoss.perTransport(0,
                List.of(new TransportConfig("md", "lo", "239.255.77.1", 40456)))) {
            assertThat(none.dropped()).isZero();
            assertThat(noneEither.dropped()).isZero();
        }
    }
}
