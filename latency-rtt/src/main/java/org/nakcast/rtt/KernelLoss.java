package org.nakcast.rtt;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

import org.nakcast.config.TransportConfig;

/**
 * Loss in the kernel: iptables rules in the caller's private network namespace that drop a random
 * fraction of the UDP datagrams arriving there. Multicast looped back on {@code lo} passes the
 * INPUT chain, so a rule hits every datagram a subscriber (or a publisher, for NAKs and status
 * messages) receives. Either one rule for every UDP datagram ({@link #onEveryUdpDatagram}, the same
 * loss for every system a benchmark compares), or one rule per transport ({@link #perTransport}):
 * each matches its transport's group and its data and control ports ({@code port}, {@code port + 1})
 * and draws its own random numbers, so two lines of a topic lose independently (1% each: about
 * 0.01% lost on both), and other traffic to those groups (a baseline or peer on other ports) loses
 * nothing:
 *
 * <pre>
 *   iptables -w -A INPUT -p udp [-d GROUP --dport PORT:PORT+1] -m statistic --mode random --probability P -j DROP
 * </pre>
 *
 * <p>The rules are added when made and deleted by {@link #close()}; {@link #dropped()} reads their
 * packet counters. Needs root in the namespace ({@code unshare -n} as root, or the user namespace
 * of {@code unshare -rn}).
 */
public final class KernelLoss implements AutoCloseable {
    private static final long IPTABLES_TIMEOUT_SECONDS = 10;

    private final double fraction;
    private final List<List<String>> matches;

    private KernelLoss(double fraction, List<List<String>> matches) {
        this.fraction = fraction;
        this.matches = matches;
    }

    /**
     * Adds the rule dropping {@code fraction} of every UDP datagram received; nothing for 0.
     *
     * @throws IllegalStateException if iptables is missing or refuses (not root in the namespace)
     */
    public static KernelLoss onEveryUdpDatagram(double fraction) {
        return apply(fraction, List.of(List.of()));
    }

    /**
     * Adds one rule per transport, each dropping {@code fraction} of the datagrams to the
     * transport's group on its data and control ports, each with a random draw of its own; nothing
     * for 0.
     *
     * @throws IllegalStateException if iptables is missing or refuses (not root in the namespace)
     */
    public static KernelLoss perTransport(double fraction, List<TransportConfig> transports) {
        return apply(fraction, transports.stream().map(KernelLoss::transportMatch).toList());
    }

    private static KernelLoss apply(double fraction, List<List<String>> matches) {
        final KernelLoss loss = new KernelLoss(fraction, fraction > 0 ? matches : List.of());
        final List<List<String>> added = new ArrayList<>();
        try {
            for (List<String> match : loss.matches) {
                iptables(ruleArgs("-A", fraction, match));
                added.add(match);
            }
        } catch (IllegalStateException ex) {
            added.forEach(match -> iptables(ruleArgs("-D", fraction, match)));
            throw ex;
        }
        return loss;
    }

    /** The words that match a transport's datagrams: its group, its data and control ports. */
    static List<String> transportMatch(TransportConfig transport) {
        return List.of("-d", transport.group().getHostAddress(), "--dport",
            transport.port() + ":" + (transport.port() + 1));
    }

    /**
     * The iptables command that appends ({@code -A}) or deletes ({@code -D}) the rule dropping
     * {@code fraction} of the UDP datagrams received that {@code match} selects (empty: all).
     */
    static List<String> ruleArgs(String action, double fraction, List<String> match) {
        if (!(fraction > 0 && fraction <= 1)) {
            throw new IllegalArgumentException("a kernel loss rule needs a fraction in (0, 1], was " + fraction);
        }
        final List<String> args = new ArrayList<>(List.of("iptables", "-w", action, "INPUT", "-p", "udp"));
        args.addAll(match);
        args.addAll(List.of("-m", "statistic", "--mode", "random", "--probability",
            String.format(Locale.ROOT, "%.6f", fraction), "-j", "DROP"));
        return args;
    }

    /** The iptables command that lists the INPUT chain with exact packet counters. */
    static List<String> listArgs() {
        return List.of("iptables", "-w", "-L", "INPUT", "-v", "-n", "-x");
    }

    /**
     * The packets the DROP rules with a {@code statistic} match dropped, from the listing
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

    /** Datagrams the rules dropped so far; 0 without a rule. */
    public long dropped() {
        return matches.isEmpty() ? 0 : parseDropped(iptables(listArgs()));
    }

    /** Deletes the rules. */
    @Override
    public void close() {
        matches.forEach(match -> iptables(ruleArgs("-D", fraction, match)));
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
                    + " (ops/install-prerequisites; run the ops/ script as root)");
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
