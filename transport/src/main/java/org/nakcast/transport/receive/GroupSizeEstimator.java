package org.nakcast.transport.receive;

/**
 * How many receivers listen to a stream, as far as one of them can tell: itself, plus the other
 * receivers whose NAKs or STATUS it heard on the control port within the last {@link #MEMORY_NS}.
 * The NAK delays widen with it (see {@link NakTiming}), so that however many receivers miss the
 * same datagram, about one of them asks for it.
 *
 * <p>With suppression working only the receiver that asks first is heard; which one that is
 * changes at random from loss to loss, so over a few dozen losses every receiver has been heard.
 * The memory is long for that reason: a group's size changes slowly, and an estimate that is too
 * large costs only a slightly later first NAK.
 *
 * <p>Bounded: at most {@link #MAX_GROUP_SIZE} - 1 other receivers are remembered; a new one heard
 * when the table is full takes the place of the one heard longest ago. A stranger who forges many
 * receiver ids therefore raises the estimate to {@link #MAX_GROUP_SIZE} at most, and the NAK delay
 * with it by a bounded factor. Pure: time is passed in; nothing is allocated after construction.
 */
final class GroupSizeEstimator {
    /** The largest estimate: this receiver and 63 others. */
    static final int MAX_GROUP_SIZE = 64;
    /** How long a receiver heard once still counts: ten seconds. */
    static final long MEMORY_NS = 10_000_000_000L;

    private final int[] receiverIds = new int[MAX_GROUP_SIZE - 1];
    private final long[] heardNs = new long[MAX_GROUP_SIZE - 1];
    private int remembered;

    /** Another receiver, {@code receiverId}, was heard at {@code nowNs}. */
    void onHeard(int receiverId, long nowNs) {
        int stalest = 0;
        for (int i = 0; i < remembered; i++) {
            if (receiverIds[i] == receiverId) {
                heardNs[i] = nowNs;
                return;
            }
            if (heardNs[i] < heardNs[stalest]) {
                stalest = i;
            }
        }
        final int slot = remembered < receiverIds.length ? remembered++ : stalest;
        receiverIds[slot] = receiverId;
        heardNs[slot] = nowNs;
    }

    /** The receivers of the stream at {@code nowNs}: 1 (this one) to {@link #MAX_GROUP_SIZE}. */
    int estimate(long nowNs) {
        int size = 1;
        for (int i = 0; i < remembered; i++) {
            if (nowNs - heardNs[i] < MEMORY_NS) {
                size++;
            }
        }
        return size;
    }
}
