package org.nakcast.transport;

import java.util.function.LongSupplier;

import org.agrona.concurrent.IdleStrategy;

/**
 * Offering through back-pressure by waiting, the loop a program writes when it would rather wait
 * than lose a message. {@code offer} and {@code tryClaim} never block: when the
 * publication's buffer is full they answer {@link OfferResult#BACK_PRESSURED}, and on a topic with
 * flow control {@code min} with no receiver yet {@link OfferResult#NOT_CONNECTED}, and the caller
 * decides. These methods wait (idle, then try again), up to a timeout if given; a service might
 * instead drop the message, conflate it, or count and alarm.
 *
 * <pre>{@code
 * IdleStrategy idle = new BackoffIdleStrategy();
 * LongSupplier offerStaged = prices::offer;  // made once: a method reference per call would allocate
 * ... prices.stage(PriceUpdateEncoder.class).qty(100).price(1.0825);
 * long result = Offers.offer(offerStaged, idle, TimeUnit.SECONDS.toNanos(5));
 * if (!OfferResult.isTaken(result)) {
 *     throw new IllegalStateException(prices.lastRefusal());   // which limit, on which topic, what to do
 * }
 * }</pre>
 *
 * <p>Neither throws for an answer of the publication: each returns the position, or the refusal it
 * ended on, which the publication's {@code lastRefusal()} puts in words. Never call them on a node's
 * own thread (inside a listener): with threading {@code shared} or {@code invoker} that thread is
 * also the one that drains the buffer, so waiting there never ends. Hand the work to another
 * thread, or keep it for the next round of the caller's loop.
 */
public final class Offers {
    private Offers() {
    }

    /**
     * Makes {@code attempt} until it is neither back-pressured nor waiting for a receiver (flow
     * control {@code min} with nobody there yet), idling in between, however long that takes.
     *
     * @param attempt one offer, answering a position or an {@link OfferResult}
     * @param idle what to do between attempts; reset once the waiting ends
     * @return the position (&gt; 0) once taken, or a refusal for good ({@link OfferResult#CLOSED},
     *     {@link OfferResult#MESSAGE_TOO_LARGE}, {@link OfferResult#UNENCODABLE})
     */
    public static long offer(LongSupplier attempt, IdleStrategy idle) {
        return offer(attempt, idle, Long.MAX_VALUE);
    }

    /**
     * Makes {@code attempt} until it is neither back-pressured nor waiting for a receiver, idling in
     * between, for at most {@code timeoutNs} from the first refusal.
     *
     * @param attempt one offer, answering a position or an {@link OfferResult}
     * @param idle what to do between attempts; reset once the waiting ends
     * @param timeoutNs how long to go on while the publication answers
     *     {@link OfferResult#BACK_PRESSURED} or {@link OfferResult#NOT_CONNECTED}
     * @return the position (&gt; 0) if taken; else the limit that was hit, nothing taken: the
     *     answer when the timeout ran out ({@link OfferResult#BACK_PRESSURED}: the send rate, the
     *     network or flow control stayed behind; {@link OfferResult#NOT_CONNECTED}: no receiver came),
     *     or at once a refusal for good ({@link OfferResult#CLOSED},
     *     {@link OfferResult#MESSAGE_TOO_LARGE}, {@link OfferResult#UNENCODABLE})
     */
    public static long offer(LongSupplier attempt, IdleStrategy idle, long timeoutNs) {
        long result = attempt.getAsLong();
        if (!isWaitable(result)) {
            return result;
        }
        final long startNs = System.nanoTime();
        do {
            if (System.nanoTime() - startNs > timeoutNs) {
                break;
            }
            idle.idle();
            result = attempt.getAsLong();
        } while (isWaitable(result));
        idle.reset();
        return result;
    }

    private static boolean isWaitable(long result) {
        return result == OfferResult.BACK_PRESSURED || result == OfferResult.NOT_CONNECTED;
    }
}
