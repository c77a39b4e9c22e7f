package org.nakcast.benchmarks.throughput;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * Loss in the kernel, the same for every system: one iptables rule in the run's private network
 * namespace that drops a random fraction of the UDP datagrams arriving there,
 * {@code iptables -A INPUT -p udp -m statistic --mode random --probability P -j DROP}. Multicast
 * looped back on {@code lo} passes the INPUT chain, so the rule hits every datagram a subscriber
 * (or a publisher, for NAKs and status messages) receives. The rule is added before a run and
 * deleted after it; {@link #dropped()} reads the rule's packet counter. Needs root in the namespace
 * ({@code unshare -n} as root, or the user namespace of {@code unshare -rn}).
 */
final class KernelLoss implements AutoCloseable {
    private static final long IPTABLES_TIMEOUT_SECONDS = 10;

    private final double fraction;

    private KernelLoss(double fraction) {
        this.fraction = fraction;
    }

    /**
     * Adds the rule for {@code fraction}; nothing for 0.
     *
     * @throws IllegalStateException if iptables is missing or refuses (not root in the namespace)
     */
    static KernelLoss apply(double fraction) {
        if (fraction > 0) {
            iptables(ruleArgs("-A", fraction));
        }
        return new KernelLoss(fraction);
    }

    /**
     * The iptables command that appends ({@code -A}) or deletes ({@code -D}) the rule dropping
     * {@code fraction} of the UDP datagrams received.
     */
    static List<String> ruleArgs(String action, double fraction) {
        if (!(fraction > 0 && fraction <= 1)) {
            throw new IllegalArgumentException("a kernel loss rule needs a fraction in (0, 1], was " + fraction);
        }
        return List.of("iptables", "-w", action, "INPUT", "-p", "udp", "-m", "statistic", "--mode", "random",
            "--probability", String.format(Locale.ROOT, "%.6f", fraction), "-j", "DROP");
    }

    /** The iptables command that lists the INPUT chain with exact packet counters. */
    static List<String> listArgs() {
        return List.of("iptables", "-w", "-L", "INPUT", "-v", "-n", "-x");
    }

    /**
     * The packets the DROP rule with a {@code statistic} match dropped, from the listing
     * {@link #listArgs()} prints; 0 if there is no such rule.
     */
    static long parseDropped(String listing) {
        long dropped = 0;
        for (String line : listing.split("\n")) {
            final String[] words = line.trim().split("\\s+");
            if (words.length > 2 && "DROP".equals(words[2]) && line.contains("statistic mode random")) {
                dropped += Long.parseLong(words[0]);
            }
        }
        return dropped;
    }

    /** Datagrams the rule dropped so far; 0 without a rule. */
    long dropped() {
        return fraction > 0 ? parseDropped(iptables(listArgs())) : 0;
    }

    /** Deletes the rule. */
    @Override
    public void close() {
        if (fraction > 0) {
            iptables(ruleArgs("-D", fraction));
        }
    }

    private static String iptables(List<String> command) {
        final String words = String.join(" ", command);
        try {
            final Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(IPTABLES_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException(words + " did not finish");
            }
            if (process.exitValue() != 0) {
                throw new IllegalStateException(words + " failed (status " + process.exitValue()
                    + "): " + output.trim() + "; --loss needs iptables and root in the private namespace"
                    + " (ops/install-prerequisites; run ops/throughput as root)");
            }
            return output;
        } catch (IOException ex) {
            throw new IllegalStateException("cannot run iptables for --loss (" + ex.getMessage()
                + "): install it with ops/install-prerequisites", ex);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running iptables", ex);
        }
    }
}
