package org.nakcast.transport;

import java.nio.charset.StandardCharsets;

import org.agrona.collections.Int2IntHashMap;

/**
 * Gives each publication of a node an id that stays the same when the process restarts: a 64-bit
 * FNV-1a hash of the node's unique name on this host (its counters file's), the topic id and the
 * publication's place among the node's publications of that topic. Receivers that see a known id
 * under a new session, once the old one fell silent, know the publisher restarted. Nodes on
 * different hosts need different names for a restart to be told apart; the default name
 * ({@code nakcast-<pid>}) changes with every start, so only named nodes are recognised.
 */
final class PublisherIds {
    private static final long FNV_OFFSET_BASIS = 0xCBF2_9CE4_8422_2325L;
    private static final long FNV_PRIME = 0x0000_0100_0000_01B3L;

    private final Int2IntHashMap publicationsPerTopic = new Int2IntHashMap(0);

    /** The id of the next publication of {@code topicId} in the node uniquely named {@code nodeName}. */
    synchronized long next(String nodeName, int topicId) {
        final int place = publicationsPerTopic.get(topicId);
        publicationsPerTopic.put(topicId, place + 1);
        return fnv1a(nodeName + '/' + topicId + '/' + place);
    }

    static long fnv1a(String text) {
        long hash = FNV_OFFSET_BASIS;
        for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
            hash ^= b & 0xFF;
            hash *= FNV_PRIME;
        }
        return hash;
    }
}
