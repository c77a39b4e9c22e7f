package org.nakcast.rtt;

/** The path contract for nakcast itself. */
final class NakcastPathContractIT extends RttPathContractIT {
    @Override
    protected RttPath path() {
        return LinkKind.NAKCAST;
    }
}
