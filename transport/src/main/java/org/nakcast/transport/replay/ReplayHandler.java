package org.nakcast.transport.replay;

import org.agrona.DirectBuffer;

/** What a {@link ReplayClient} hands on from a recorder's answer to a request, in order. */
public interface ReplayHandler {
    /**
     * The recorder will send messages {@code first} to {@code last} (inclusive) of the request,
     * each as a message or inside a hole, then {@link #onDone}.
     */
    void onAccepted(long requestId, long first, long last);

    /** One message of the range, its bytes in place: copy what must outlive the call. */
    void onMessage(long messageIndex, DirectBuffer buffer, int offset, int length, long recordedAtNs);

    /** Messages of the range the recording does not hold, and why. */
    void onHole(long firstMessage, long count, HoleCause cause);

    /** The range is complete: {@code nextMessageIndex} follows its last message. */
    void onDone(long requestId, long nextMessageIndex);

    /** The recorder refused the request (or, with request id 0, the connection), and said why. */
    void onRefused(long requestId, ReplayRefusal refusal, String sentence);
}
