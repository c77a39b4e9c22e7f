package org.nakcast.transport.receive;

import org.agrona.DirectBuffer;
import org.nakcast.transport.MessageHeader;

/**
 * How the receiving side hands over one whole message: its bytes in place, valid during the call.
 * The transport's own seam between delivery and what a subscription does with a message (give the
 * bytes to the application's {@link org.nakcast.transport.MessageHandler}, or decode them first);
 * applications subscribe with a {@code MessageHandler}.
 */
@FunctionalInterface
public interface MessageBytesHandler {
    /**
     * One message.
     *
     * @param buffer holds the message bytes
     * @param offset where the message starts in {@code buffer}
     * @param length message length in bytes
     * @param header where the message came from; reused, valid only during the call
     */
    void onMessage(DirectBuffer buffer, int offset, int length, MessageHeader header);
}
