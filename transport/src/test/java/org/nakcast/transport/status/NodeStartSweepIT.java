package org.nakcast.transport.status;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nakcast.config.NodeConfig;
import org.nakcast.transport.Node;

/**
 * A node that starts removes the counters files of stopped nodes beside its own, keeps those marked
 * kept, and leaves its own file behind when it stops.
 */
class NodeStartSweepIT {
    @TempDir
    Path directory;

    @Test
    void aStartingNodeRemovesStoppedNodesFilesButNotKeptOnes() throws Exception {
        final Path stopped = directory.resolve("stopped.counters");
        final Path kept = directory.resolve("kept.counters");
        CountersFile.create(stopped, "stopped", false).close();
        CountersFile.create(kept, "kept", true).close();
        final long endedPid = OtherProcess.endedPid();
        HeaderEdits.process(stopped, endedPid, System.currentTimeMillis());
        HeaderEdits.process(kept, endedPid, System.currentTimeMillis());

        final Path own;
        try (Node node = Node.launch(config("starting"))) {
            own = node.countersFile();
            assertThat(stopped).as("a stopped node's file").doesNotExist();
            assertThat(kept).as("a kept file").exists();
            assertThat(own).isEqualTo(directory.resolve("starting.counters")).exists();
        }
        assertThat(own).as("kept after its node stops, for a post-mortem").exists();
    }

    private NodeConfig config(String name) {
        final NodeConfig base = NodeConfig.embeddedDefault();
        return new NodeConfig(base.node().withName(name).withCountersFile(directory.resolve(name + ".counters")),
            base.transports(), base.topics()).conclude();
    }
}
