package org.nakcast.rtt;

import org.nakcast.config.MediaType;

/** The path contract for nakcast itself, on the nio media. */
final class NakcastPathContractIT extends RttPathContractIT {
    @Override
    protected RttPath path() {
        return new NakcastPath(MediaType.NIO, false);
    }
}
