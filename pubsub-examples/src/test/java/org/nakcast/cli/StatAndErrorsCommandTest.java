package org.nakcast.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import org.agrona.concurrent.SystemEpochClock;
import org.agrona.concurrent.errors.DistinctErrorLog;
import org.agrona.concurrent.status.CountersManager;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nakcast.transport.status.CountersFile;

class StatAndErrorsCommandTest {
    @TempDir
    Path directory;

    @Test
    void statPrintsTheCountersThatMovedAndFiltersByLabel() {
        try (CountersFile file = CountersFile.create(directory.resolve("pricer.counters"), "pricer")) {
            final CountersManager counters = new CountersManager(file.metadataBuffer(), file.valuesBuffer());
            counters.newCounter("NAKs sent", 5).set(12_345);
            counters.newCounter("datagrams sent", 1).set(7);
            counters.newCounter("duplicate datagrams", 10);

            final String all = run("stat", "--dir", directory.toString());
            final String naks = run("stat", "--dir", directory.toString(), "--filter", "NAK");

            assertThat(all).contains("pricer (pid " + ProcessHandle.current().pid() + ", running")
                .contains("12,345  NAKs sent").contains("7  datagrams sent").doesNotContain("duplicate");
            assertThat(naks).contains("NAKs sent").doesNotContain("datagrams sent");
            assertThat(run("stat", "--dir", directory.toString(), "--all")).contains("0  duplicate datagrams");
        }
    }

    @Test
    void errorsPrintsEachDistinctErrorOnceWithItsCount() {
        try (CountersFile file = CountersFile.create(directory.resolve("pricer.counters"), "pricer")) {
            final DistinctErrorLog log = new DistinctErrorLog(file.errorLogBuffer(), SystemEpochClock.INSTANCE);
            final IllegalStateException error = new IllegalStateException("socket closed under the agent");
            log.record(error);
            log.record(error);
            log.record(error);

            assertThat(run("errors", "--file", file.path().toString()))
                .contains("3 x, first ").contains("java.lang.IllegalStateException: socket closed under the agent");
        }
    }

    @Test
    void aMissingDirectoryIsNamed() {
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final int code = Nakcast.run(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8), "stat", "--dir", directory.resolve("none").toString());

        assertThat(code).isNotZero();
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("no counters directory").contains("none");
    }

    private static String run(String... args) {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final int code = Nakcast.run(new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8), args);
        assertThat(code).isZero();
        return out.toString(StandardCharsets.UTF_8);
    }
}
