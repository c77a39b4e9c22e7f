package org.nakcast.benchmarks.soak;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The simulated LAN of {@code ops/lan}: network namespaces joined by veth pairs to a bridge, host
 * K at 10.77.0.K on {@code eth0}. This class only runs that script; it creates nothing itself.
 */
final class SimulatedLan implements AutoCloseable {
    private static final long COMMAND_TIMEOUT_SECONDS = 60;

    private final Path script;

    private SimulatedLan(Path script) {
        this.script = script;
    }

    /**
     * Brings up {@code hosts} simulated hosts.
     *
     * @param script {@code ops/lan}
     * @throws IllegalStateException with the script's own words if it cannot
     */
    static SimulatedLan up(Path script, int hosts) throws IOException, InterruptedException {
        final SimulatedLan lan = new SimulatedLan(script);
        lan.run("up", Integer.toString(hosts));
        return lan;
    }

    /** Makes host {@code host} drop {@code fraction} of the UDP datagrams it receives, in its kernel. */
    void loss(int host, double fraction) throws IOException, InterruptedException {
        run("loss", Integer.toString(host), Double.toString(fraction));
    }

    /** The words that run a command on host {@code host}: {@code ops/lan exec K}. */
    List<String> on(int host) {
        return List.of(script.toString(), "exec", Integer.toString(host));
    }

    /** Takes the LAN down: its namespaces, veths and bridge go; an interrupt is kept for the caller. */
    @Override
    public void close() throws IOException {
        try {
            run("down");
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while taking the simulated LAN down", ex);
        }
    }

    private void run(String... words) throws IOException, InterruptedException {
        final List<String> command = new ArrayList<>();
        command.add(script.toString());
        command.addAll(List.of(words));
        final Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        if (!process.waitFor(COMMAND_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IllegalStateException(String.join(" ", command) + " did not finish");
        }
        if (process.exitValue() != 0) {
            throw new IllegalStateException(String.join(" ", command) + " failed: " + output);
        }
    }
}
