package org.nakcast.transport.node;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.nakcast.config.FlowControlMode;
import org.nakcast.config.NodeConfig;
import org.nakcast.config.TopicConfig;
import org.nakcast.config.TransportConfig;

class SettingsResolverTest {
    private static final TransportConfig LO = new TransportConfig("lo-line", "lo", "239.255.77.9", 40100);

    private static SettingsResolver resolverOf(TopicConfig topic) {
        final NodeConfig config = new NodeConfig(null, List.of(LO), List.of(topic)).conclude();
        return new SettingsResolver(config, new NodeHarness());
    }

    private static TopicConfig topic(Duration heartbeat, Duration flowControlTimeout) {
        return new TopicConfig("t", 1, "lo-line", "jdk").withHeartbeat(heartbeat)
            .withFlowControlTimeout(flowControlTimeout);
    }

    @Test
    void aReceiverSendsStatusEveryHeartbeatWhenTheFlowControlTimeoutIsLong() {
        final SettingsResolver resolver = resolverOf(topic(Duration.ofMillis(5), Duration.ofSeconds(2)));

        assertThat(resolver.subscription("t").statusKeepAliveNs()).isEqualTo(Duration.ofMillis(5).toNanos());
    }

    @Test
    void aReceiverSendsStatusFourTimesPerFlowControlTimeoutWhenHeartbeatsAreSparser() {
        final SettingsResolver resolver = resolverOf(topic(Duration.ofMillis(5), Duration.ofMillis(10)));

        assertThat(resolver.subscription("t").statusKeepAliveNs()).isEqualTo(Duration.ofMillis(10).toNanos() / 4);
    }

    @Test
    void underMaxFlowControlNoStatusIsSent() {
        final SettingsResolver resolver = resolverOf(topic(Duration.ofMillis(5), Duration.ofMillis(10))
            .withFlowControl(FlowControlMode.MAX));

        assertThat(resolver.subscription("t").statusKeepAliveNs()).isZero();
    }

    @Test
    void aClosingNodeWaitsTheLingerPlusTwoFlowControlTimeoutsPlusASecond() {
        final TopicConfig topic =
            topic(Duration.ofMillis(5), Duration.ofMillis(300)).withCloseLinger(Duration.ofMillis(100));

        assertThat(resolverOf(topic).closeWaitNs()).isEqualTo(Duration.ofMillis(100 + 2 * 300 + 1000).toNanos());
    }
}
