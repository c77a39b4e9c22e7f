package org.nakcast.transport;

/**
 * What {@code offer} and {@code tryClaim} of every publication answer (a claim's commit cannot
 * fail: it answers the position). They never block and never throw for what the network or the
 * data does: they answer a number the caller acts on.
 *
 * <table>
 *   <caption>Offer results</caption>
 *   <tr><th>result</th><th>meaning</th><th>what to do</th></tr>
 *   <tr><td>&gt; 0</td><td>taken: the publication's position after the message, that is how many
 *     messages the publication has taken; subscribers see the message at index
 *     {@code position - 1} of the publication's session</td><td></td></tr>
 *   <tr><td>{@link #NOT_CONNECTED} (-1)</td><td>a {@code flow-control: min} topic has no live
 *     receiver yet, or has dropped them all; nothing taken</td><td>offer again later: the first
 *     receiver's STATUS connects it</td></tr>
 *   <tr><td>{@link #BACK_PRESSURED} (-2)</td><td>the offer buffer is full: the send rate, the
 *     network or flow control is behind; nothing taken</td><td>back off (an idle strategy) and offer
 *     again, or drop the message if it is stale</td></tr>
 *   <tr><td>{@link #CLOSED} (-4)</td><td>the publication or its node is closed</td><td>stop
 *     publishing; open a new publication</td></tr>
 *   <tr><td>{@link #MESSAGE_TOO_LARGE} (-6)</td><td>longer than the publication's
 *     {@code maxMessageLength()}</td><td>split the message, or raise the topic's
 *     {@code history}</td></tr>
 *   <tr><td>{@link #UNENCODABLE} (-7)</td><td>typed publications: the codec could not encode this
 *     message (a class it does not carry, a value it cannot write); reported to the node's error
 *     handler with the codec's reason</td><td>fix the message or the topic's codec
 *     settings</td></tr>
 * </table>
 *
 * <p>Every publication tells why its last offer was refused, in words, with its topic (and, for a
 * typed one, the message's class and the codec's reason): {@code lastRefusal()}. The refusal itself
 * only notes a code, so the hot path stays allocation-free; the words are built when asked.
 *
 * <p>The numbers follow Aeron's where the meaning is the same (-1, -2, -4); -3 and -5, which mean
 * something else there, are not used. Arguments that are wrong whatever the data (a null buffer, an
 * offset or length outside it) are refused with an {@link IllegalArgumentException} naming them.
 */
public final class OfferResult {
    /** A {@code flow-control: min} topic has no live receiver to hold its pace to; nothing was taken. */
    public static final long NOT_CONNECTED = -1;
    /** The offer buffer is full: the network, the send rate or flow control is behind. Try again. */
    public static final long BACK_PRESSURED = -2;
    /** The publication or its node was closed. */
    public static final long CLOSED = -4;
    /** The message is longer than the publication's {@code maxMessageLength()}. */
    public static final long MESSAGE_TOO_LARGE = -6;
    /** A typed publication's codec could not encode the message; the node's error handler has why. */
    public static final long UNENCODABLE = -7;

    private OfferResult() {
    }

    /** Whether {@code result} says the message was taken. */
    public static boolean isTaken(long result) {
        return result > 0;
    }

    /** What a caller does about {@code result}, in words (empty for a result that was taken). */
    public static String whatToDo(long result) {
        if (result > 0) {
            return "";
        }
        return switch ((int) result) {
            case (int) NOT_CONNECTED -> "offer again later: the first receiver's STATUS connects it";
            case (int) BACK_PRESSURED -> "back off (an idle strategy) and offer again, or drop the message if it is"
                + " stale";
            case (int) CLOSED -> "stop publishing; open a new publication";
            case (int) MESSAGE_TOO_LARGE -> "split the message, or raise the topic's history";
            case (int) UNENCODABLE -> "fix the message, or the topic's codec settings (its allowed-classes)";
            default -> "none known";
        };
    }

    /** The result in words, for logs and errors. */
    public static String describe(long result) {
        if (result > 0) {
            return "taken at position " + result;
        }
        return switch ((int) result) {
            case (int) NOT_CONNECTED -> "not connected: no receiver yet (flow control min)";
            case (int) BACK_PRESSURED -> "back-pressured";
            case (int) CLOSED -> "publication closed";
            case (int) MESSAGE_TOO_LARGE -> "message too large for the publication";
            case (int) UNENCODABLE -> "the codec could not encode the message";
            default -> "unknown result " + result;
        };
    }
}
