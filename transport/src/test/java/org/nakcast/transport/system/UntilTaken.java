package org.nakcast.transport.system;

import java.util.function.LongSupplier;

import org.agrona.concurrent.IdleStrategy;
import org.nakcast.transport.OfferResult;

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
     * @return the first answer that is neither {@link OfferResult#BACK_PRESSURED} nor
     *     {@link OfferResult#NOT_CONNECTED}
     */
    static long offer(LongSupplier attempt, IdleStrategy idle) {
        long result;
        while ((result = attempt.getAsLong()) == OfferResult.BACK_PRESSURED
            || result == OfferResult.NOT_CONNECTED) {
            idle.idle();
        }
        idle.reset();
        return result;
    }
}
