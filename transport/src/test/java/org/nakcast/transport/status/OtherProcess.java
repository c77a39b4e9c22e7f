package org.nakcast.transport.status;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A {@link CountersFileHolder} in a JVM of its own, or any command: a process other than the test's,
 * as a node on the same host would be. Closing it ends the process.
 */
final class OtherProcess implements AutoCloseable {
    private final Process process;
    private final BufferedReader out;

    private OtherProcess(List<String> command) throws IOException {
        this.process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        this.out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    }

    /** A JVM that makes and holds the counters file at {@code path}; its first line says whether it got it. */
    static OtherProcess holding(Path path) throws IOException {
        return new OtherProcess(List.of(ProcessHandle.current().info().command().orElseThrow(),
            "--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED",
            "-cp", System.getProperty("java.class.path"), CountersFileHolder.class.getName(), path.toString()));
    }

    /** A process that waits for its standard input to end: alive until closed, and started now. */
    static OtherProcess waiting() throws IOException {
        return new OtherProcess(List.of("cat"));
    }

    /** The id of a process that has ended. */
    static long endedPid() throws IOException, InterruptedException {
        final Process ended = new ProcessBuilder("true").start();
        ended.waitFor();
        return ended.pid();
    }

    /** The process's next line of output. */
    String readLine() throws IOException {
        return out.readLine();
    }

    long pid() {
        return process.pid();
    }

    /** Ends the process: its standard input closes, then it is killed if it has not ended within seconds. */
    @Override
    public void close() throws IOException {
        process.getOutputStream().close();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
            }
        } catch (InterruptedException ex) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
