package org.nakcast.benchmarks.child;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.Writer;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A child JVM started with the same {@code java} executable, the same JVM flags (those of
 * {@code ops/jvm.options} among them) and the same class path as this one. It inherits this
 * process's network namespace. Unless this JVM's flags choose a garbage collector, the child runs
 * the serial one ({@link #collector()}): on a machine of two cores the JVM's default, G1, spends a
 * share of them on its own threads and barriers that an allocating codec misses (the JDK codecs
 * carried about a fifth more messages end to end with it). Its standard output is read line by line on a daemon thread:
 * protocol lines ({@link ChildProtocol}) are handed to {@link #await}, anything else goes to
 * standard error with the child's name in front; its standard error is inherited.
 */
public final class ChildJvm implements AutoCloseable {
    /** System properties the children get on top of this JVM's flags. */
    private static final List<String> CHILD_PROPERTIES = List.of("-Dorg.slf4j.simpleLogger.defaultLogLevel=warn");
    private static final String EOF = "\u0000EOF";
    /** The collector a child runs when this JVM's flags name none. */
    private static final String DEFAULT_COLLECTOR_FLAG = "-XX:+UseSerialGC";

    private final String name;
    private final Process process;
    private final Writer stdin;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();

    private ChildJvm(String name, Process process, PrintStream passThrough) {
        this.name = name;
        this.process = process;
        this.stdin = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        final Thread reader = new Thread(() -> readLines(passThrough), name + "-stdout");
        reader.setDaemon(true);
        reader.start();
    }

    /**
     * Starts {@code mainClass} in a new JVM.
     *
     * @param name the child's name in messages
     * @param mainClass the class whose {@code main} runs
     * @param args its arguments
     * @param passThrough where the child's non-protocol output goes
     * @throws IOException if the process cannot start
     */
    public static ChildJvm start(String name, Class<?> mainClass, List<String> args, PrintStream passThrough)
        throws IOException {
        return startThrough(List.of(), name, mainClass, args, passThrough);
    }

    /**
     * Starts {@code mainClass} in a new JVM through a launcher that runs a command somewhere else,
     * such as {@code ops/lan exec 2} (on simulated host 2); the launcher must exec the command, so
     * that killing the child kills the JVM.
     *
     * @param launcher the words before {@code java}; empty for none
     * @throws IOException if the process cannot start
     */
    public static ChildJvm startThrough(
        List<String> launcher, String name, Class<?> mainClass, List<String> args, PrintStream passThrough)
        throws IOException {
        final List<String> command = new ArrayList<>(launcher);
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        final List<String> flags = inheritedJvmFlags();
        command.addAll(flags);
        if (flags.stream().noneMatch(ChildJvm::isCollectorFlag)) {
            command.add(DEFAULT_COLLECTOR_FLAG);
        }
        command.addAll(CHILD_PROPERTIES);
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(mainClass.getName());
        command.addAll(args);
        final Process process = new ProcessBuilder(command)
            .redirectError(ProcessBuilder.Redirect.INHERIT)
            .start();
        return new ChildJvm(name, process, passThrough);
    }

    /**
     * The garbage collector flag the children run with: the one among this JVM's flags, or
     * {@value #DEFAULT_COLLECTOR_FLAG}; for the figures' header.
     */
    public static String collector() {
        return inheritedJvmFlags().stream().filter(ChildJvm::isCollectorFlag).reduce((first, last) -> last)
            .orElse(DEFAULT_COLLECTOR_FLAG);
    }

    /** The collector the children run, as a line for the progress output. */
    public static String collectorNote() {
        return "child JVMs collect garbage with " + collector()
            + " (name a collector among the JVM flags to change it)";
    }

    /** {@code -XX:+UseSerialGC}, {@code -XX:+UseG1GC}, {@code -XX:+UseZGC} and the like. */
    static boolean isCollectorFlag(String flag) {
        return flag.startsWith("-XX:+Use") && flag.endsWith("GC");
    }

    /** This JVM's flags (the launcher has expanded {@code @argfiles}), less a debugger agent's port. */
    private static List<String> inheritedJvmFlags() {
        final List<String> flags = new ArrayList<>();
        for (String flag : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (!flag.startsWith("-agentlib:jdwp") && !flag.startsWith("-Xrunjdwp")
                && !flag.startsWith("-Djava.class.path=")) {
                flags.add(flag);
            }
        }
        return flags;
    }

    private void readLines(PrintStream passThrough) {
        try (BufferedReader reader = new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = reader.readLine()) != null) {
                if (isProtocol(line)) {
                    lines.add(line);
                } else {
                    passThrough.println("[" + name + "] " + line);
                }
            }
        } catch (IOException ex) {
            passThrough.println("[" + name + "] stdout unreadable: " + ex.getMessage());
        } finally {
            lines.add(EOF);
        }
    }

    private static boolean isProtocol(String line) {
        for (String word : List.of(ChildProtocol.READY, ChildProtocol.OFFERED, ChildProtocol.RESULT)) {
            if (line.equals(word) || line.startsWith(word + " ")) {
                return true;
            }
        }
        return false;
    }

    /**
     * Waits for the child's next protocol line, which must start with {@code word}.
     *
     * @return the rest of the line, trimmed
     * @throws ChildFailedException if another line comes, the child exits, or time runs out
     * @throws InterruptedException if interrupted while waiting
     */
    public String await(String word, long timeoutSeconds) throws InterruptedException {
        final String line = lines.poll(timeoutSeconds, TimeUnit.SECONDS);
        if (line == null) {
            throw new ChildFailedException(name + " said no " + word + " within " + timeoutSeconds + " s");
        }
        if (EOF.equals(line)) {
            throw new ChildFailedException(name + " ended before " + word + exitDescription());
        }
        if (!line.equals(word) && !line.startsWith(word + " ")) {
            throw new ChildFailedException(name + " said '" + line + "' where " + word + " was due");
        }
        return line.substring(word.length()).trim();
    }

    /** Sends one protocol line to the child. */
    public void tell(String word, Object... rest) throws IOException {
        final StringBuilder line = new StringBuilder(word);
        for (Object part : rest) {
            line.append(' ').append(part);
        }
        stdin.write(line.append('\n').toString());
        stdin.flush();
    }

    /**
     * Waits for the child to exit.
     *
     * @throws ChildFailedException if it does not exit in time or exits with an error
     * @throws InterruptedException if interrupted while waiting
     */
    public void awaitExit(long timeoutSeconds) throws InterruptedException {
        if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            throw new ChildFailedException(name + " did not exit within " + timeoutSeconds + " s");
        }
        if (process.exitValue() != 0) {
            throw new ChildFailedException(name + " exited with status " + process.exitValue());
        }
    }

    private String exitDescription() {
        try {
            return process.waitFor(5, TimeUnit.SECONDS) ? " (exit status " + process.exitValue() + ")" : "";
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            return "";
        }
    }

    /** Kills the child if it still runs, and waits for it to go, so its sockets are free. */
    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroyForcibly();
        }
        try {
            process.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }

    /** A child JVM did not follow the protocol: it failed, stalled or exited early. */
    public static final class ChildFailedException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        public ChildFailedException(String message) {
            super(message);
        }
    }
}
