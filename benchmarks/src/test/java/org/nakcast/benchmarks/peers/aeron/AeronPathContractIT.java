package org.nakcast.benchmarks.peers.aeron;

import org.nakcast.rtt.RttPath;
import org.nakcast.rtt.RttPathContractIT;

/** The latency-rtt path contract for {@code aeron}: the media driver run by each side's thread. */
final class AeronPathContractIT extends RttPathContractIT {
    AeronPathContractIT() {
        super(PEER);
    }

    @Override
    protected RttPath path() {
        return new AeronRttPath.Invoker();
    }
}
