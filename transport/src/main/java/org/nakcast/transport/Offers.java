package org.nakcast.transport;

import java.util.function.LongSupplier;

import org.agrona.concurrent.IdleStrategy;

/**
 * Offering through back-pressure by waiting, the loop a program writes when it would rather wait
 * than lose a message. {@code offer}, {@code commit} and {@code tryClaim} never block: when the
 * publication's buffer is full they answer {@link OfferResult#BACK_PRESSURED}, and on a topic with
 * flow control {@code min} with no receiver yet {@link OfferResult#NOT_CONNECTED}, and the caller
 * decides. These methods wait (idle, then try again); a service might instead drop the message,
 * conflate it, or count and alarm.
 *
 * <pre>{@code
 * IdleStrategy idle = new BackoffIdleStrategy();
 * LongSupplier commit = prices::commit;     // made once: a method reference per call would allocate
 * ... prices.claim(PriceUpdateEncoder.class).qty(100).price(1.0825);
 * Offers.offer(commit, idle);
 * }</pre>
 *
 * <p>Never call this on a node's own thread (inside a listener): with threading {@code shared} or
 * {@code invoker} that thread is also the one that drains the buffer, so waiting there never ends.
 * Hand the work to another thread, or keep it for the next round of the caller's loop.
 */
public final class Offers {
    private Offers() {
    }

    /**
     * Makes {@code attempt} until it is neither back-pressured nor waiting for a receiver (flow
     * control {@code min} with nobody there yet), idling in between.
     *
     * @param attempt one offer or commit, answering a position or an {@link OfferResult}
     * @param idle what to do between attempts; reset once the offer is taken
     * @throws IllegalStateException when the publication refuses for good: closed, or the message
     *     too large
     */
    public static void offer(LongSupplier attempt, IdleStrategy idle) {
        offer(attempt, idle, Long.MAX_VALUE);
    }

    /**
     * Makes {@code attempt} until it is neither back-pressured nor waiting for a receiver, as
     * {@link #offer(LongSupplier, IdleStrategy)} does, but waits for a receiver (flow control
     * {@code min} with none there, at the start or once every receiver was dropped) for at most
     * {@code receiverTimeoutNs} at a stretch.
     *
     * @param attempt one offer or commit, answering a position or an {@link OfferResult}
     * @param idle what to do between attempts; reset once the offer is taken
     * @param receiverTimeoutNs how long to go on while the publication answers
     *     {@link OfferResult#NOT_CONNECTED}
     * @return true if the offer was taken; false if no receiver came within the timeout (nothing taken)
     * @throws IllegalStateException when the publication refuses for good: closed, or the message
     *     too large
     */
    public static boolean offer(LongSupplier attempt, IdleStrategy idle, long receiverTimeoutNs) {
        long result;
        long notConnectedSinceNs = 0;
        boolean notConnected = false;
        while ((result = attempt.getAsLong()) == OfferResult.BACK_PRESSURED
            || result == OfferResult.NOT_CONNECTED) {
            if (result == OfferResult.BACK_PRESSURED) {
                notConnected = false;
            } else if (!notConnected) {
                notConnected = true;
                notConnectedSinceNs = System.nanoTime();
            } else if (System.nanoTime() - notConnectedSinceNs > receiverTimeoutNs) {
                idle.reset();
                return false;
            }
            idle.idle();
        }
        idle.reset();
        if (!OfferResult.isTaken(result)) {
            throw new IllegalStateException("offer refused: " + OfferResult.describe(result));
        }
        return true;
    }
}
