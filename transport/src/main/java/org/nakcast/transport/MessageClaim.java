package org.nakcast.transport;

import org.agrona.MutableDirectBuffer;
import org.nakcast.transport.publish.OfferBuffer;

/**
 * Space reserved by {@link BytePublication#tryClaim} for one message written in place. Reusable:
 * keep one per publishing thread. Every successful claim must end in {@link #commit()} or
 * {@link #abort()}, soon: the sending thread waits for it.
 */
public final class MessageClaim {
    private BytePublication publication;
    private OfferBuffer offers;
    private int index;
    private int length;

    /** An empty claim, for {@link BytePublication#tryClaim} to fill. */
    public MessageClaim() {
        // filled by each claim
    }

    void wrap(BytePublication publication, OfferBuffer offers, int index, int length) {
        this.publication = publication;
        this.offers = offers;
        this.index = index;
        this.length = length;
    }

    /** The buffer to write the message into. */
    public MutableDirectBuffer buffer() {
        return offers.buffer();
    }

    /** Where the message starts in {@link #buffer()}. */
    public int offset() {
        return index;
    }

    /** The number of bytes claimed. */
    public int length() {
        return length;
    }

    /**
     * Publishes the message.
     *
     * @return the publication's position after it (&gt; 0), as {@link BytePublication#offer} answers
     */
    public long commit() {
        offers.commit(index);
        return publication.committed();
    }

    /** Gives the space back without publishing anything. */
    public void abort() {
        offers.abort(index);
    }
}
