package org.nakcast.transport.sim;

import java.util.function.IntSupplier;

import org.agrona.DirectBuffer;
import org.nakcast.transport.protocol.DatagramCheck;
import org.nakcast.transport.protocol.DatagramValidator;
import org.nakcast.transport.protocol.FrameType;
import org.nakcast.transport.protocol.HeaderFlyweight;
import org.nakcast.transport.status.SystemCounter;
import org.nakcast.transport.testing.TestCounters;

/**
 * The rule for a stray datagram, one that is no datagram at all or whose type belongs on the other
 * port (a NAK or STATUS on a data port; DATA, RETRANSMIT, HEARTBEAT or UNRECOVERABLE on a control
 * port): the process it reaches counts it once as malformed ({@code wrong port} if it passed the
 * checks) and keeps no more publisher streams than before. Only a stranger sends one.
 */
final class StrayCheck {
    private final String host;
    private final Scheduler scheduler;
    private final Violations violations;
    private final TestCounters counters;
    /** Stray datagrams handed to the process. */
    long strays;

    StrayCheck(String host, Scheduler scheduler, Violations violations, TestCounters counters) {
        this.host = host;
        this.scheduler = scheduler;
        this.violations = violations;
        this.counters = counters;
    }

    /**
     * Hands one datagram to the process ({@code handOver}); if it is stray, checks what the process
     * did with it.
     *
     * @return whether the datagram was stray
     */
    boolean handOver(SimNetwork.Port port, DirectBuffer buffer, int length, IntSupplier streams, Runnable handOver) {
        final boolean valid = DatagramValidator.check(buffer, 0, length) == DatagramCheck.VALID;
        if (valid && belongsOn(port, HeaderFlyweight.typeCodeAt(buffer, 0))) {
            handOver.run();
            return false;
        }
        strays++;
        final long malformed = counters.get(SystemCounter.MALFORMED);
        final long wrongPort = counters.counters().malformed(DatagramCheck.WRONG_PORT).get();
        final int streamsBefore = streams.getAsInt();
        handOver.run();
        final long malformedCounted = counters.get(SystemCounter.MALFORMED) - malformed;
        final long wrongPortCounted = counters.counters().malformed(DatagramCheck.WRONG_PORT).get() - wrongPort;
        if (malformedCounted != 1 || wrongPortCounted != (valid ? 1 : 0)) {
            violations.add(scheduler.nowNs(), ("%s counted a stray datagram on its %s port %d times as malformed, %d"
                + " times as on the wrong port").formatted(host, port, malformedCounted, wrongPortCounted));
        }
        if (streams.getAsInt() > streamsBefore) {
            violations.add(scheduler.nowNs(), "%s made a publisher stream for a stray datagram on its %s port"
                .formatted(host, port));
        }
        return true;
    }

    /** Whether a datagram of type {@code type} belongs on {@code port}. */
    private static boolean belongsOn(SimNetwork.Port port, int type) {
        final boolean control = type == FrameType.NAK.code() || type == FrameType.STATUS.code();
        return control == (port == SimNetwork.Port.CONTROL);
    }
}
