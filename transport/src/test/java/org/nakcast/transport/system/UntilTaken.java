package org.nakcast.transport.system;

import java.util.function.LongSupplier;

import org.agrona.concurrent.IdleStrategy;
import org.nakcast.transport.RawPublication;

/**
 * Offers again while a publication is back-pressured or, on a topic with flow control {@code min}
 * (the default), has no receiver yet: the loop every test publisher runs.
 */
final class UntilTaken {
    private UntilTaken() {
    }

    /**
     * @param attempt one offer or commit
     * @param idle what to do between attempts; reset once the attempt is answered otherwise
     * @return the first answer that is neither {@link RawPublication#BACK_PRESSURED} nor
     *     {@link RawPublication#NOT_CONNECTED}
     */
    static long offer(LongSupplier attempt, IdleStrategy idle) {
        long result;
        while ((result = attempt.getAsLong()) == RawPublication.BACK_PRESSURED
            || result == RawPublication.NOT_CONNECTED) {
            idle.idle();
        }
        idle.reset();
        return result;
    }
}
