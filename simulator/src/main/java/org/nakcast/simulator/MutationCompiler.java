package org.nakcast.simulator;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

/**
 * Plants a bug in a copy of its source file and compiles that one file, against the classes the
 * simulator runs with, into a class directory of its own: put first on a class path, its classes
 * take the place of the originals, and nothing in the working tree changes.
 */
final class MutationCompiler {
    /** The Java release the transport is compiled for. */
    private static final String RELEASE = "17";

    private final Path root;
    private final String classPath;
    private final JavaCompiler javac;

    /**
     * @param root the repository root the bugs' files are relative to
     * @param classPath what the file is compiled against: the transport's classes and dependencies
     */
    MutationCompiler(Path root, String classPath) {
        this.root = root;
        this.classPath = classPath;
        this.javac = ToolProvider.getSystemJavaCompiler();
        if (javac == null) {
            throw new IllegalStateException(
                "no Java compiler in " + System.getProperty("java.home") + ": run on a JDK");
        }
    }

    /**
     * Plants {@code bug} and compiles its file into {@code workDirectory}/classes.
     *
     * @return the class directory
     * @throws IllegalStateException naming the bug when its file is missing, its original text does
     *     not occur exactly once, or the file no longer compiles with the bug planted
     */
    Path compile(PlantedBug bug, Path workDirectory) {
        final Path file = root.resolve(bug.file());
        if (!Files.isRegularFile(file)) {
            throw new IllegalStateException("planted bug %s: no file %s".formatted(bug.id(), bug.file()));
        }
        try {
            final Path source = workDirectory.resolve(file.getFileName());
            final Path classes = Files.createDirectories(workDirectory.resolve("classes"));
            Files.writeString(source, bug.plantIn(Files.readString(file, StandardCharsets.UTF_8)),
                StandardCharsets.UTF_8);
            final ByteArrayOutputStream diagnostics = new ByteArrayOutputStream();
            final int status = javac.run(null, diagnostics, diagnostics, "--release", RELEASE, "-encoding",
                "UTF-8", "-proc:none", "-nowarn", "-implicit:none", "-cp", classPath, "-d", classes.toString(),
                source.toString());
            if (status != 0) {
                throw new IllegalStateException("planted bug %s: %s does not compile with the bug planted:%n%s"
                    .formatted(bug.id(), bug.file(), diagnostics.toString(StandardCharsets.UTF_8)));
            }
            return classes;
        } catch (IOException ex) {
            throw new UncheckedIOException("planted bug " + bug.id(), ex);
        }
    }
}
