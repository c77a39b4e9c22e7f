package org.nakcast.transport.replay;

import java.util.List;

import org.nakcast.config.TopicConfig;

/**
 * The recorders a node's streams of a topic recover from. A node asks once per topic it subscribes
 * to; by default ({@link #FROM_CONFIG}) a topic's {@code recorders:} key names them, reached over TCP.
 */
@FunctionalInterface
public interface RecoverySources {
    /** The recorders the topic's {@code recorders:} key names, A then B, each a {@link RecorderSource}. */
    RecoverySources FROM_CONFIG = topic -> topic.recorders().stream()
        .<RecoverySource>map(RecorderSource::new).toList();

    /** The recorders of {@code topic}, A first; empty for none. */
    List<RecoverySource> forTopic(TopicConfig topic);
}
