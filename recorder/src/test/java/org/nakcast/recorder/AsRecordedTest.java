package org.nakcast.recorder;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.nakcast.config.LateJoinPolicy;
import org.nakcast.config.LossPolicy;
import org.nakcast.config.NodeConfig;
import org.nakcast.config.TopicConfig;

class AsRecordedTest {
    @Test
    void aRecordedTopicStartsFromTheOldestHeldAndGoesOnAfterEveryLossWhateverItsKeysSay() {
        final TopicConfig strict = NodeConfig.embeddedDefault().topics().get(0)
            .withLateJoin(LateJoinPolicy.NOW).withLossPolicy(LossPolicy.DROP);

        final TopicConfig recorded = Recorder.asRecorded(strict);

        assertThat(recorded.lateJoin()).isEqualTo(LateJoinPolicy.OLDEST);
        assertThat(recorded.lossPolicy()).as("drop would end the recording at the first loss")
            .isEqualTo(LossPolicy.CONTINUE);
        assertThat(recorded.withLateJoin(LateJoinPolicy.NOW).withLossPolicy(LossPolicy.DROP)).isEqualTo(strict);
    }
}
