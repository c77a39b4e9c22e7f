package org.nakcast.transport.system;

import java.util.List;

import org.nakcast.config.ByteSize;
import org.nakcast.config.NodeConfig;
import org.nakcast.config.TransportConfig;

/** Configurations for system tests: the embedded default (loopback, TTL 0) with changes. */
final class TestConfigs {
    private TestConfigs() {
    }

    /**
     * The embedded default with its transport paced to {@code sendRate} bytes per second: fast
     * enough to test repair at speed, slow enough that receivers sharing two cores with the
     * publisher in one JVM keep up (overload is a flow-control matter, tested on its own).
     */
    static NodeConfig paced(String sendRate) {
        final NodeConfig base = NodeConfig.embeddedDefault();
        final List<TransportConfig> transports = base.transports().stream()
            .map(transport -> transport.withSendRate(ByteSize.parse(sendRate)))
            .toList();
        return new NodeConfig(base.node(), transports, base.topics()).conclude();
    }
}
