package org.nakcast.recorder;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.nakcast.config.Endpoint;
import org.nakcast.config.LateJoinPolicy;
import org.nakcast.config.LossPolicy;
import org.nakcast.config.NodeConfig;
import org.nakcast.config.TopicConfig;

class AsRecordedTest {
    @Test
    void aRecordedTopicStartsFromTheOldestHeldAndGoesOnAfterEveryLossWhateverItsKeysSay() {
        final TopicConfig strict = NodeConfig.embeddedDefault().topics().get(0)
            .withLateJoin(LateJoinPolicy.NOW).withLossPolicy(LossPolicy.DROP)
            .withRecorders(List.of(Endpoint.parse("127.0.0.1:40480")));

        final TopicConfig recorded = Recorder.asRecorded(strict);

        assertThat(recorded.lateJoin()).isEqualTo(LateJoinPolicy.OLDEST);
        assertThat(recorded.lossPolicy()).as("drop would end the recording at the first loss")
            .isEqualTo(LossPolicy.CONTINUE);
        assertThat(recorded.recorders()).as("a recorder's holes are its own").isEmpty();
        assertThat(recorded.deliveryQueueTimeout()).as("a recording thread waits for its disk")
            .isEqualTo(Recorder.RECORDING_QUEUE_TIMEOUT);
        assertThat(recorded.withLateJoin(LateJoinPolicy.NOW).withLossPolicy(LossPolicy.DROP)
            .withRecorders(strict.recorders()).withDeliveryQueue(strict.deliveryQueue(), strict.deliveryQueueTimeout()))
            .isEqualTo(strict);
    }

    @Test
    void aDeliveryQueueTimeoutLongerThanARecordersIsKept() {
        final TopicConfig topic = NodeConfig.embeddedDefault().topics().get(0);
        final TopicConfig patient = topic.withDeliveryQueue(topic.deliveryQueue(), Duration.ofMinutes(1));

        assertThat(Recorder.asRecorded(patient).deliveryQueueTimeout()).isEqualTo(Duration.ofMinutes(1));
    }
}
