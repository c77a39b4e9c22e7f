package org.nakcast.transport.replay;

import java.io.IOException;

/** The other side of a replay connection sent what is not a frame of this protocol: the connection ends. */
public final class ReplayProtocolException extends IOException {
    private static final long serialVersionUID = 1L;

    /** @param problem what was wrong, in words */
    public ReplayProtocolException(String problem) {
        super(problem);
    }
}
