package org.nakcast.benchmarks.peers.aeron;

import org.nakcast.rtt.RttPath;
import org.nakcast.rtt.RttPathContractIT;

/**
 * The latency-rtt path contract for {@code aeron-shared}: the media driver on a thread of its own
 * per side (not counted: the contract weighs the ping and pong threads).
 */
final class AeronSharedPathContractIT extends RttPathContractIT {
    AeronSharedPathContractIT() {
        super(PEER);
    }

    @Override
    protected RttPath path() {
        return new AeronRttPath.Shared();
    }
}
