package org.nakcast.config;

import java.util.AbstractList;
import java.util.List;
import java.util.RandomAccess;

/**
 * The topics of a config read from YAML, with where their keys are written: a node that checks
 * them again when it launches (their codec names against the codecs it has) names the line and
 * column of a mistake, as the loader does. The list rides with the config while its topics stay
 * as read ({@code withNodeName} keeps it); a config given other topics has a list of its own, and
 * its problems are named by key path alone. Read-only, and equal to any list of the same topics.
 */
final class LocatedTopics extends AbstractList<TopicConfig> implements RandomAccess {
    private static final String TOPICS = "topics";

    private final List<TopicConfig> topics;
    private final ConfigSource source;

    /**
     * @param topics the topics as read, read-only
     * @param source where every key of the file is written
     */
    LocatedTopics(List<TopicConfig> topics, ConfigSource source) {
        this.topics = topics;
        this.source = source.under(TOPICS);
    }

    /** Where the topics' keys are written, and no other key of the file: the rest may have changed since. */
    ConfigSource source() {
        return source;
    }

    @Override
    public TopicConfig get(int index) {
        return topics.get(index);
    }

    @Override
    public int size() {
        return topics.size();
    }
}
