package org.nakcast.benchmarks.throughput;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

class KernelUdpDropsTest {

    @Test
    void readsRcvbufErrorsFromTheUdpLines() {
        final List<String> snmp = List.of(
            "Tcp: RtoAlgorithm RtoMin",
            "Tcp: 1 200",
            "Udp: InDatagrams NoPorts InErrors OutDatagrams RcvbufErrors SndbufErrors InCsumErrors",
            "Udp: 47 0 12 49 11803 0 0",
            "UdpLite: InDatagrams NoPorts InErrors OutDatagrams RcvbufErrors",
            "UdpLite: 0 0 0 0 0");

        assertThat(KernelUdpDrops.parse(snmp)).isEqualTo(11_803);
    }

    @Test
    void isUnknownWithoutUdpLines() {
        assertThat(KernelUdpDrops.parse(List.of("Ip: Forwarding", "Ip: 1"))).isEqualTo(KernelUdpDrops.UNKNOWN);
    }
}
