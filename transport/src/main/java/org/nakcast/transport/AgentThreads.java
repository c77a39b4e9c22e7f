package org.nakcast.transport;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadFactory;

import org.agrona.CloseHelper;
import org.agrona.ErrorHandler;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentInvoker;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.CompositeAgent;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.SleepingMillisIdleStrategy;
import org.agrona.concurrent.YieldingIdleStrategy;
import org.agrona.concurrent.status.AtomicCounter;
import org.nakcast.config.IdleStrategyType;
import org.nakcast.config.ThreadingMode;

/**
 * Runs a node's sending and receiving agents as its configuration says: each on a thread of its
 * own ({@code dedicated}), both on one thread ({@code shared}), or on the application's thread
 * through {@link #invoke()} ({@code invoker}). Threads come from the node's thread factory
 * (daemon threads by default: they never keep a JVM alive) and are named after the node.
 */
final class AgentThreads implements AutoCloseable {
    private final List<AgentRunner> runners = new ArrayList<>();
    private final AgentInvoker invoker;

    AgentThreads(String nodeName, ThreadingMode mode, IdleStrategyType idle, ThreadFactory threads,
        ErrorHandler errorHandler, AtomicCounter errorCounter, Agent sender, Agent receiver) {
        switch (mode) {
            case DEDICATED -> {
                invoker = null;
                runners.add(new AgentRunner(idleStrategy(idle), errorHandler, errorCounter,
                    new NamedAgent(nodeName, sender)));
                runners.add(new AgentRunner(idleStrategy(idle), errorHandler, errorCounter,
                    new NamedAgent(nodeName, receiver)));
            }
            case SHARED -> {
                invoker = null;
                runners.add(new AgentRunner(idleStrategy(idle), errorHandler, errorCounter,
                    new NamedAgent(nodeName, new CompositeAgent(sender, receiver))));
            }
            case INVOKER ->
                invoker = new AgentInvoker(errorHandler, errorCounter, new CompositeAgent(sender, receiver));
            default -> throw new IllegalArgumentException("unknown threading mode " + mode);
        }
        if (invoker != null) {
            invoker.start();
        }
        for (AgentRunner runner : runners) {
            AgentRunner.startOnThread(runner, threads);
        }
    }

    /**
     * One round of work in invoker mode.
     *
     * @return work done
     * @throws IllegalStateException if the node runs its own threads
     */
    int invoke() {
        if (invoker == null) {
            throw new IllegalStateException("doWork() is for threading mode 'invoker'; this node runs its own threads");
        }
        return invoker.invoke();
    }

    /** Whether the application drives the agents ({@code invoker}) rather than threads of their own. */
    boolean isInvoker() {
        return invoker != null;
    }

    /** The idle strategy for a configured type; each agent thread gets its own instance. */
    static IdleStrategy idleStrategy(IdleStrategyType type) {
        return switch (type) {
            case SPIN -> new BusySpinIdleStrategy();
            case YIELD -> new YieldingIdleStrategy();
            case BACKOFF -> new BackoffIdleStrategy();
            case SLEEP -> new SleepingMillisIdleStrategy(1);
        };
    }

    /** Stops the threads (waiting for them) or the invoker; closes the agents. */
    @Override
    public void close() {
        CloseHelper.closeAll(runners);
        CloseHelper.close(invoker);
    }

    /** An agent whose thread is named after its node, so thread dumps say which node is which. */
    private record NamedAgent(String nodeName, Agent agent) implements Agent {
        @Override
        public void onStart() {
            agent.onStart();
        }

        @Override
        public int doWork() throws Exception {
            return agent.doWork();
        }

        @Override
        public void onClose() {
            agent.onClose();
        }

        @Override
        public String roleName() {
            return nodeName + "-" + agent.roleName();
        }
    }
}
