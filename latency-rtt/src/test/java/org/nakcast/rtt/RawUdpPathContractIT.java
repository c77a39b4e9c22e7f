package org.nakcast.rtt;

/** The path contract for the raw-udp baseline. */
final class RawUdpPathContractIT extends RttPathContractIT {
    @Override
    protected RttPath path() {
        return LinkKind.RAW_UDP;
    }
}
