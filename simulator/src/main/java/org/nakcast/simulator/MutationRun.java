package org.nakcast.simulator;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One run of the simulator ({@link SimulateCommand}) in a child JVM, with a planted bug's classes
 * first on its class path, or none (the baseline), and what it found, read from its output. The
 * child starts with this JVM's java and flags, and is killed once it runs longer than it is given.
 */
final class MutationRun {
    private static final Pattern FAILED_SEED = Pattern.compile("seed (-?\\d+) FAILED: .*");
    private static final Pattern VIOLATION = Pattern.compile(" {2}t=\\S+ s: (.*)");
    private static final Pattern LABEL = Pattern.compile("\\s*\\[([A-Za-z0-9_-]+)\\].*", Pattern.DOTALL);
    /**
     * The totals of the simulator's report that show what a bug changed: the simulation is
     * deterministic, so a bug that changes none of them against the baseline was never reached.
     */
    static final List<String> TOTALS = List.of("published", "delivered", "lossEvents", "lostMessages", "naksSent",
        "retransmits", "resumes", "heldStarts", "recoveries", "recoveryMessages");
    private MutationRun() {
    }

    /**
     * What a run came to.
     *
     * @param timedOut whether it was killed for running longer than it was given
     * @param exitStatus the child's exit status (0: no violation, 1: violations; anything else: it
     *     failed to run)
     * @param failingSeeds seeds with a violation, from the JSON line; -1 without one
     * @param firstFailingSeed the lowest failing seed; -1 without one
     * @param firstViolation the first violation of that seed, without its time; null without one
     * @param totals the {@link #TOTALS} the JSON line gave, by name; empty without one
     * @param wallNs how long the child ran
     */
    record Result(boolean timedOut, int exitStatus, long failingSeeds, long firstFailingSeed, String firstViolation,
        Map<String, Long> totals, long wallNs) {
        /** Whether the simulator ran to its end and reported how many seeds failed. */
        boolean completed() {
            return !timedOut && (exitStatus == 0 || exitStatus == 1) && failingSeeds >= 0;
        }

        /** Whether the run found something: a violation, a hang, or a simulator that could not run. */
        boolean caught() {
            return !completed() || failingSeeds > 0;
        }

        /**
         * What caught it: {@code timeout}, {@code crash} (the child ended without its report), or the
         * invariant of the lowest failing seed's first violation; null when nothing did.
         */
        String caughtBy() {
            if (timedOut) {
                return "timeout";
            }
            if (!completed()) {
                return "crash";
            }
            return failingSeeds > 0 ? invariantOf(firstViolation) : null;
        }
    }

    /**
     * The command that runs the simulator in a child JVM: this JVM's java and flags, then
     * {@code firstOnClassPath} (null for none) ahead of this JVM's class path.
     */
    static List<String> simulatorCommand(Path firstOnClassPath, List<String> simulatorArguments) {
        final List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments());
        final String classPath = System.getProperty("java.class.path");
        command.add("-cp");
        command.add(firstOnClassPath == null ? classPath : firstOnClassPath + File.pathSeparator + classPath);
        command.add(SimulateCommand.class.getName());
        command.addAll(simulatorArguments);
        return command;
    }

    /**
     * Runs {@code command}, its standard error going to {@code errorFile}, and kills it (and whatever
     * it started) once it has run for {@code limitNs}.
     */
    static Result run(List<String> command, long limitNs, Path errorFile) throws InterruptedException {
        final long startNs = System.nanoTime();
        final Process process;
        try {
            process = new ProcessBuilder(command).redirectError(errorFile.toFile()).start();
            process.getOutputStream().close();
        } catch (IOException ex) {
            throw new UncheckedIOException("cannot start " + command.get(0), ex);
        }
        final Thread killer = new Thread(() -> kill(process));
        Runtime.getRuntime().addShutdownHook(killer);
        final Output output = new Output();
        final Thread reader = new Thread(() -> read(process, output), "mutation-run-output");
        reader.start();
        try {
            final boolean ended = process.waitFor(limitNs, TimeUnit.NANOSECONDS);
            if (!ended) {
                kill(process);
            }
            process.waitFor();
            reader.join();
            return output.result(!ended, process.exitValue(), System.nanoTime() - startNs);
        } finally {
            kill(process);
            removeShutdownHook(killer);
        }
    }

    private static void read(Process process, Output output) {
        try (BufferedReader lines = new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                output.accept(line);
            }
        } catch (IOException ex) {
            // the child was killed while its output was read: what was read stands
        }
    }

    private static void kill(Process process) {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
    }

    private static void removeShutdownHook(Thread hook) {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException ex) {
            // this JVM is shutting down: the hook runs
        }
    }

    /**
     * The invariant a violation speaks of: the bracketed label its message begins with
     * ({@code [avoidable-loss] ...}; see the simulator's {@code Invariant}).
     *
     * @throws IllegalStateException for a violation without a label: every one carries its invariant's
     */
    static String invariantOf(String violation) {
        final Matcher label = LABEL.matcher(violation);
        if (!label.matches()) {
            throw new IllegalStateException("a violation without its invariant's label: " + violation);
        }
        return label.group(1);
    }

    /**
     * What the simulator printed, line by line: the first violation of the lowest failing seed (a
     * failing seed prints {@code seed N FAILED: ...} and then its violations, {@code t=... s: what},
     * indented), and its last line, the JSON report.
     */
    static final class Output {
        private long lowestFailingSeed = -1;
        private String firstViolation;
        private long seedPrinting = -1;
        private String jsonLine;

        /** The next line the simulator printed. */
        void accept(String line) {
            final Matcher failed = FAILED_SEED.matcher(line);
            if (failed.matches()) {
                seedPrinting = Long.parseLong(failed.group(1));
                return;
            }
            final Matcher violation = VIOLATION.matcher(line);
            if (violation.matches() && seedPrinting >= 0) {
                if (lowestFailingSeed < 0 || seedPrinting < lowestFailingSeed) {
                    lowestFailingSeed = seedPrinting;
                    firstViolation = violation.group(1);
                }
                seedPrinting = -1;
                return;
            }
            if (line.startsWith("{")) {
                jsonLine = line;
            }
        }

        /** The run's result, from what was printed. */
        Result result(boolean timedOut, int exitStatus, long wallNs) {
            final Map<String, Long> totals = new LinkedHashMap<>();
            for (String total : TOTALS) {
                final long value = field(total);
                if (value >= 0) {
                    totals.put(total, value);
                }
            }
            return new Result(timedOut, exitStatus, field("failingSeeds"), lowestFailingSeed, firstViolation, totals,
                wallNs);
        }

        /** The whole number the JSON line gives {@code name} (the first such field), or -1 if none. */
        private long field(String name) {
            if (jsonLine == null) {
                return -1;
            }
            final Matcher field = Pattern.compile("\"" + name + "\":(\\d+)").matcher(jsonLine);
            return field.find() ? Long.parseLong(field.group(1)) : -1;
        }
    }
}
