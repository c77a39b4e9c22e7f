package org.nakcast.rtt;

import java.nio.file.Path;

import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.SleepingMillisIdleStrategy;
import org.agrona.concurrent.YieldingIdleStrategy;
import org.nakcast.config.IdleStrategyType;
import org.nakcast.config.NodeConfig;
import org.nakcast.config.TopicConfig;
import org.nakcast.config.TransportConfig;

/**
 * What one side's link is opened with ({@link RttPath#open}): the side, and what both sides of a
 * run agree on. A path takes its addresses from the two topics' transports (interface, groups,
 * ports, TTL), each at an offset of its own from the transport's port, so that every path of a run
 * travels the same interface and groups and none meets another's traffic.
 *
 * @param ping true on the ping side (sends pings on {@code sendTopic}, gets echoes), false on pong's
 * @param config the concluded config
 * @param sendTopic the topic this side sends on
 * @param receiveTopic the topic this side receives on
 * @param messageSize bytes per message ({@code --size})
 * @param idle how each side's thread waits between polls ({@code --idle}); a path that runs
 *     threads of its own waits the same way on them
 * @param authKeyFile the key file of the authenticated nakcast phases ({@code --auth}); null without it
 */
public record LinkSetup(boolean ping, NodeConfig config, String sendTopic, String receiveTopic, int messageSize,
    IdleStrategyType idle, Path authKeyFile) {

    /** {@code ping} or {@code pong}: for names of threads, nodes and directories. */
    public String side() {
        return ping ? "ping" : "pong";
    }

    /** The config with every transport authenticated with {@link #authKeyFile()}, to be concluded by its node. */
    public NodeConfig authenticatedConfig() {
        return new NodeConfig(config.node(), config.transports().stream()
            .map(transport -> transport.withAuthKeyFile(authKeyFile.toString())).toList(), config.topics());
    }

    /** The topic this side sends on. */
    public TopicConfig sendTopicConfig() {
        return config.topic(sendTopic);
    }

    /** The topic this side receives on. */
    public TopicConfig receiveTopicConfig() {
        return config.topic(receiveTopic);
    }

    /** The transport of the topic this side sends on: line A of a topic on two lines. */
    public TransportConfig sendTransport() {
        return config.lines(sendTopicConfig()).get(0);
    }

    /** The transport of the topic this side receives on: line A of a topic on two lines. */
    public TransportConfig receiveTransport() {
        return config.lines(receiveTopicConfig()).get(0);
    }

    /** A new idle strategy of the type {@code --idle} named. */
    public IdleStrategy newIdleStrategy() {
        return newIdleStrategy(idle);
    }

    /**
     * A new idle strategy of a type: spin busy-spins, yield yields, backoff is Agrona's default
     * back-off (spin, yield, then park from 1 us up to 1 ms), sleep sleeps 1 ms.
     */
    static IdleStrategy newIdleStrategy(IdleStrategyType type) {
        return switch (type) {
            case SPIN -> new BusySpinIdleStrategy();
            case YIELD -> new YieldingIdleStrategy();
            case BACKOFF -> new BackoffIdleStrategy();
            case SLEEP -> new SleepingMillisIdleStrategy(1);
        };
    }
}
