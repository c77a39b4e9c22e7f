package org.nakcast.cli;

import java.nio.file.Path;

import org.nakcast.transport.status.CountersFile;

/**
 * A node in a process of its own that makes its counters file and stops, for tests: once the
 * process has ended, the file is a stopped node's. Arguments: the file, the node's name, and
 * {@code keep} to mark the file kept.
 */
public final class StoppedNode {
    private StoppedNode() {
    }

    /** @param args the counters file, the node's name, optionally {@code keep} */
    public static void main(String[] args) {
        CountersFile.create(Path.of(args[0]), args[1], args.length > 2 && "keep".equals(args[2])).close();
    }

    /** Runs one in a JVM of its own and waits for it to end. */
    static void leave(Path file, String name, boolean keep) throws Exception {
        final Process process = new ProcessBuilder(ProcessHandle.current().info().command().orElseThrow(),
            "--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
            StoppedNode.class.getName(), file.toString(), name, keep ? "keep" : "")
            .inheritIO().start();
        if (process.waitFor() != 0) {
            throw new IllegalStateException("the stopped node's process ended with " + process.exitValue());
        }
    }
}
