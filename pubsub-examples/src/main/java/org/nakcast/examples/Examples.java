package org.nakcast.examples;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;

import org.nakcast.config.NodeConfig;
import org.nakcast.config.TopicConfig;

/**
 * What the example programs share: small changes to a configuration made in code, waiting for a
 * condition with a deadline, and reading their optional arguments. Nothing here is nakcast API;
 * it keeps the examples about the API.
 */
public final class Examples {
    private Examples() {
    }

    /**
     * The same configuration with more topics. A configuration built in code is checked like a
     * file: {@code conclude()} names any problem (a duplicate id, an unknown transport or codec).
     *
     * @param config a configuration
     * @param topics the topics to add
     * @return the configuration with those topics after its own, concluded
     */
    public static NodeConfig withTopics(NodeConfig config, TopicConfig... topics) {
        final List<TopicConfig> all = new ArrayList<>(config.topics());
        all.addAll(List.of(topics));
        return new NodeConfig(config.node(), config.transports(), all).conclude();
    }

    /**
     * Waits until {@code done} answers true or the timeout passes, checking every millisecond.
     *
     * @return whether {@code done} answered true in time
     */
    public static boolean await(BooleanSupplier done, Duration timeout) {
        final long deadlineNs = System.nanoTime() + timeout.toNanos();
        while (!done.getAsBoolean()) {
            if (System.nanoTime() - deadlineNs > 0) {
                return false;
            }
            try {
                Thread.sleep(1);
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                return done.getAsBoolean();
            }
        }
        return true;
    }

    /**
     * @param args a program's arguments
     * @param index which one
     * @param defaultValue the value when there are fewer arguments
     * @return the argument as a number
     * @throws IllegalArgumentException naming the argument when it is not a positive whole number
     */
    public static int intArg(String[] args, int index, int defaultValue) {
        if (args.length <= index) {
            return defaultValue;
        }
        try {
            final int value = Integer.parseInt(args[index].replace("_", ""));
            if (value > 0) {
                return value;
            }
        } catch (NumberFormatException ex) {
            // reported below
        }
        throw new IllegalArgumentException("argument " + (index + 1) + " must be a positive whole number, was '"
            + args[index] + "'");
    }
}
