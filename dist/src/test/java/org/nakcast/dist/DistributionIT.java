package org.nakcast.dist;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Unpacks the distribution archive the build just made and runs its launchers as a user would,
 * from the unpacked tree alone: no Maven, no source tree. This test's JVM runs in a private
 * network namespace, and the launchers it starts inherit it.
 */
class DistributionIT {
    private static final long TIMEOUT_SECONDS = 120;

    @TempDir
    static Path unpacked;

    static Path home;

    @BeforeAll
    static void unpack() throws IOException, InterruptedException {
        final Path archive = Path.of(System.getProperty("nakcast.dist.archive"));
        final Result tar = run(unpacked, "tar", "-xzf", archive.toString(), "-C", unpacked.toString());
        assertThat(tar.code).as(tar.output).isZero();
        try (Stream<Path> top = Files.list(unpacked)) {
            home = top.filter(Files::isDirectory).findFirst().orElseThrow();
        }
    }

    @Test
    void theArchiveHoldsLaunchersLibrariesConfigsAndDocs() throws IOException {
        assertThat(home.getFileName().toString()).startsWith("nakcast-");
        for (String tool : List.of("nakcast", "nakcast-stat", "nakcast-errors", "check-host", "example", "throughput",
            "codec-bench", "quickstart", "latency-rtt", "lan", "soak")) {
            assertThat(home.resolve("bin").resolve(tool)).as(tool).isExecutable();
        }
        try (Stream<Path> jars = Files.list(home.resolve("lib"))) {
            assertThat(jars.map(jar -> jar.getFileName().toString()))
                .anyMatch(name -> name.startsWith("nakcast-transport-"))
                .anyMatch(name -> name.startsWith("agrona-"))
                .anyMatch(name -> name.startsWith("nakcast-micrometer-"))
                .anyMatch(name -> name.startsWith("micrometer-core-"))
                .noneMatch(name -> name.startsWith("junit"));
        }
        assertThat(nakcastJarModuleNames()).as("Automatic-Module-Name of each nakcast jar in lib/")
            .contains("org.nakcast.transport", "org.nakcast.codecs.core", "org.nakcast.config", "org.nakcast.cli",
                "org.nakcast.micrometer")
            .doesNotHaveDuplicates()
            .allMatch(name -> name.startsWith("org.nakcast."));
        assertThat(home.resolve("config/jvm.options")).content().contains("--add-exports=java.base/jdk.internal.misc");
        assertThat(home.resolve("config/jvm-fst.options")).content().contains("--add-opens=java.base/java.lang");
        assertThat(home.resolve("config/jvm-kryo.options")).content().contains("-Dkryo.unsafe=false");
        assertThat(home.resolve("config/jvm-peers.options")).content().contains("--add-opens=java.base/java.nio");
        assertThat(home.resolve("config/jvm-native.options")).content().contains("--enable-native-access");
        try (Stream<Path> jars = Files.list(home.resolve("lib"))) {
            assertThat(jars.anyMatch(jar -> jar.getFileName().toString().startsWith("nakcast-media-native-")))
                .as("the native media in lib/ exactly when the archive was built on JDK 22 or later (this JDK)")
                .isEqualTo(Runtime.version().feature() >= 22);
        }
        assertThat(home.resolve("config/nakcast.yaml")).exists();
        assertThat(home.resolve("config/lan-example.yaml")).exists();
        assertThat(home.resolve("docs/ops/RUNBOOK.md")).exists();
        assertThat(home.resolve("docs/ops/wireshark/nakcast.lua")).exists();
        assertThat(home.resolve("docs/README.md")).exists();
    }

    @Test
    void pubAndSubFromTheUnpackedTreeDeliverEveryMessage() throws IOException, InterruptedException {
        final Path subscriberLog = unpacked.resolve("sub.log");
        final Process subscriber = start(subscriberLog, home.resolve("bin/nakcast").toString(), "sub", "--expect",
            "20000", "--timeout", "60");
        awaitListening(subscriberLog);
        final Result stat = run(home, home.resolve("bin/nakcast-stat").toString(), "--zeros");
        final Result publisher = run(home, home.resolve("bin/nakcast").toString(), "pub", "--count", "20000");
        final Result received = finish(subscriber);

        assertThat(publisher.code).as(publisher.output).isZero();
        assertThat(received.code).as(received.output).isZero();
        assertThat(lastLine(received.output)).contains("\"received\":20000").contains("\"lost\":0");
        assertThat(stat.code).as(stat.output).isZero();
        assertThat(stat.output).as("the listening subscriber's counters").contains("datagrams received");
    }

    @Test
    void latencyRttRunsFromTheUnpackedTree() throws IOException, InterruptedException {
        final Result local = run(home, home.resolve("bin/latency-rtt").toString(), "local", "--warmup", "1000",
            "--count", "2000", "--idle", "backoff", "--output", unpacked.resolve("rtt").toString());

        assertThat(local.code).as(local.output).isZero();
        assertThat(lastLine(local.output)).contains("\"count\"").contains("2000");
        assertThat(unpacked.resolve("rtt/rtt.png")).exists();
    }

    @Test
    void everyLauncherAnswersHelp() throws IOException, InterruptedException {
        for (String tool : List.of("nakcast", "check-host", "latency-rtt")) {
            final Result help = run(home, home.resolve("bin").resolve(tool).toString(), "--help");
            assertThat(help.code).as(tool + ": " + help.output).isZero();
            assertThat(help.output).as(tool).contains("Usage:");
        }
        final Result example = run(home, home.resolve("bin/example").toString(), "NoSuchExample");
        assertThat(example.code).isEqualTo(64);
        assertThat(example.output).contains("MarketDataFanOut");
    }

    /** The Automatic-Module-Name of each nakcast jar in lib/ (null where a jar has none). */
    private static List<String> nakcastJarModuleNames() throws IOException {
        final List<Path> jars;
        try (Stream<Path> files = Files.list(home.resolve("lib"))) {
            jars = files.filter(jar -> jar.getFileName().toString().startsWith("nakcast-")).toList();
        }
        final List<String> names = new ArrayList<>();
        for (Path jar : jars) {
            try (JarFile file = new JarFile(jar.toFile())) {
                names.add(file.getManifest().getMainAttributes().getValue("Automatic-Module-Name"));
            }
        }
        return names;
    }

    private static String lastLine(String output) {
        final List<String> lines = output.lines().filter(line -> !line.isBlank()).toList();
        return lines.isEmpty() ? "" : lines.get(lines.size() - 1);
    }

    /** Starts a command whose standard error goes to {@code log}. */
    private static Process start(Path log, String... command) throws IOException {
        final ProcessBuilder builder = new ProcessBuilder(command).directory(unpacked.toFile())
            .redirectError(log.toFile());
        builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
        return builder.start();
    }

    /** Waits until the subscriber says it listens, so the publisher's first message finds it. */
    private static void awaitListening(Path log) throws IOException, InterruptedException {
        final long deadline = System.currentTimeMillis() + TimeUnit.SECONDS.toMillis(TIMEOUT_SECONDS);
        while (!(Files.exists(log) && Files.readString(log).contains("sub: listening"))) {
            assertThat(System.currentTimeMillis()).as("sub did not start listening").isLessThan(deadline);
            Thread.sleep(50);
        }
    }

    private static Result run(Path directory, String... command) throws IOException, InterruptedException {
        final ProcessBuilder builder =
            new ProcessBuilder(command).directory(directory.toFile()).redirectErrorStream(true);
        builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
        return finish(builder.start());
    }

    private static Result finish(Process process) throws IOException, InterruptedException {
        final byte[] output = process.getInputStream().readAllBytes();
        if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("still running after " + TIMEOUT_SECONDS + " s: " + process.info());
        }
        return new Result(process.exitValue(), new String(output, StandardCharsets.UTF_8));
    }

    private record Result(int code, String output) {
    }
}
