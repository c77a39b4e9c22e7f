package org.nakcast.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code pubsub-examples/embedding}, a service that embeds nakcast, runs from the installed
 * artifacts with nakcast's one JVM flag and nothing else, and gets every quote.
 *
 * <p>How it gets there, robust from a clean checkout under {@code ./mvnw clean verify} (which
 * installs nothing): in this module's {@code pre-integration-test} phase, {@code invoker:install}
 * installs into the build's own local repository (whatever {@code -Dmaven.repo.local} or the
 * settings say) the reactor artifacts this module depends on, the parent pom and nakcast-bom among
 * them, exactly what {@code ./mvnw install} would put there; then {@code invoker:run} builds the
 * embedding project ({@code clean package}) with the same Maven and the same local repository, a
 * separate build that knows nothing of the reactor, into {@code target/it/embedding}. Both run in
 * Maven's own process, outside any network namespace, so that build may fetch what it needs (its
 * SBE generator, the dependency plugin). This test then starts the service as a user would:
 * {@code java --add-exports java.base/jdk.internal.misc=ALL-UNNAMED -cp <its jar>:<its runtime
 * class path> com.example.quotes.QuoteService}, the class path as the project's build wrote it
 * ({@code target/classpath.txt}, by {@code dependency:build-classpath}). The service's JVM inherits
 * this test JVM's private network namespace, so its multicast stays on that namespace's lo.
 *
 * <p>The service is a module ({@code module-info.java}) and compiles on the module path: nakcast's
 * API is all it reaches. A module of the same kind that imports a protocol package is refused by
 * the compiler.
 */
class EmbeddingIT {
    private static final String FLAG = "--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED";
    private static final String MAIN = "com.example.quotes.QuoteService";
    private static final Path PROJECT = Path.of(System.getProperty("nakcast.embedding.dir"));

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void theServiceGetsEveryQuoteWithTheOneFlag() throws IOException, InterruptedException {
        final Result run = run(List.of(FLAG), "100000");

        assertThat(run.code).as(run.output).isZero();
        assertThat(run.output)
            .contains("quotes: 100000 published, 100000 received, 0 out of order, 0 loss events")
            .contains("every quote arrived once and in order");
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void withoutTheFlagTheServiceIsToldWhichFlag() throws IOException, InterruptedException {
        final Result run = run(List.of(), "10");

        assertThat(run.code).as(run.output).isNotZero();
        assertThat(run.output)
            .contains("nakcast needs the JVM flag --add-exports java.base/jdk.internal.misc=ALL-UNNAMED")
            .doesNotContain("IllegalAccessError");
    }

    @Test
    void theClassPathCarriesNoCodecTheServiceDoesNotUse() throws IOException {
        final List<Path> jars = runtimeClassPath();
        final List<String> names = jars.stream().map(jar -> jar.getFileName().toString()).toList();
        long bytes = 0;
        for (Path jar : jars) {
            bytes += Files.size(jar);
        }
        System.out.printf("embedding footprint: %d jars, %,d bytes: %s%n", jars.size(), bytes, names);

        assertThat(names)
            .anyMatch(name -> name.startsWith("nakcast-transport-"))
            .anyMatch(name -> name.startsWith("nakcast-codecs-core-"))
            .anyMatch(name -> name.startsWith("agrona-"))
            .noneMatch(name -> name.startsWith("fst-") || name.startsWith("kryo-") || name.startsWith("objenesis-")
                || name.startsWith("javassist-") || name.startsWith("nakcast-codecs-fst")
                || name.startsWith("nakcast-codecs-kryo") || name.startsWith("nakcast-codecs-samples"));
    }

    @Test
    void aServiceModuleReachesNakcastsApiAndNoneOfItsProtocolPackages() throws IOException {
        final String api = """
            package probe;

            import org.agrona.concurrent.BackoffIdleStrategy;
            import org.nakcast.config.NodeConfig;
            import org.nakcast.transport.BytePublication;
            import org.nakcast.transport.Node;
            import org.nakcast.transport.OfferResult;
            import org.nakcast.transport.Offers;
            import org.nakcast.transport.TypedPublication;
            import org.nakcast.transport.status.SystemCounter;

            public final class Probe {
                public record Order(long id, long qty) {
                }

                public static long sent() {
                    try (Node node = Node.launch(NodeConfig.embeddedDefault())) {
                        final BytePublication prices = node.newBytePublication("prices");
                        final TypedPublication<Order> orders = node.newTypedPublication("orders", Order.class);
                        final long result = Offers.offer(() -> orders.offer(new Order(1, 100)),
                            new BackoffIdleStrategy(), 1_000_000_000L);
                        if (!OfferResult.isTaken(result)) {
                            throw new IllegalStateException(orders.lastRefusal());
                        }
                        return prices.position() + node.counters().get(SystemCounter.DATAGRAMS_SENT).get();
                    }
                }
            }
            """;
        final String internal = """
            package probe;

            import org.nakcast.transport.node.NodeHarness;

            public final class Probe {
                public static Object harness() {
                    return new NodeHarness();
                }
            }
            """;

        assertThat(compileAsModule(api)).as("only the API").isEmpty();
        assertThat(compileAsModule(internal)).as("a protocol package")
            .anyMatch(error -> error.contains("org.nakcast.transport.node") && error.contains("not visible"));
    }

    /**
     * Compiles {@code source} as the class {@code probe.Probe} of a module that requires
     * {@code org.nakcast.transport}, against the service's runtime class path as a module path.
     *
     * @return the compiler's errors; none if it compiled
     */
    private static List<String> compileAsModule(String source) throws IOException {
        final Path dir = Files.createTempDirectory("nakcast-module-probe");
        final Path sources = Files.createDirectories(dir.resolve("src/probe"));
        Files.writeString(dir.resolve("src/module-info.java"), "module probe { requires org.nakcast.transport; }");
        Files.writeString(sources.resolve("Probe.java"), source);
        final JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        final DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        try (StandardJavaFileManager files =
            compiler.getStandardFileManager(diagnostics, null, StandardCharsets.UTF_8)) {
            final String modulePath = String.join(java.io.File.pathSeparator,
                runtimeClassPath().stream().map(Path::toString).toList());
            final boolean compiled = compiler.getTask(null, files, diagnostics,
                List.of("--module-path", modulePath, "-d", dir.resolve("classes").toString()), null,
                files.getJavaFileObjects(dir.resolve("src/module-info.java"), sources.resolve("Probe.java"))).call();
            final List<String> errors = diagnostics.getDiagnostics().stream()
                .filter(diagnostic -> diagnostic.getKind() == Diagnostic.Kind.ERROR)
                .map(diagnostic -> diagnostic.getMessage(Locale.ROOT)).toList();
            assertThat(compiled).as("compiled exactly when no error was reported: %s", errors)
                .isEqualTo(errors.isEmpty());
            return errors;
        }
    }

    private static List<Path> runtimeClassPath() throws IOException {
        final String classPath = Files.readString(PROJECT.resolve("target/classpath.txt")).trim();
        final List<Path> jars = new ArrayList<>();
        for (String entry : classPath.split(java.io.File.pathSeparator)) {
            jars.add(Path.of(entry));
        }
        return jars;
    }

    private static Result run(List<String> flags, String count) throws IOException, InterruptedException {
        final Path serviceJar = PROJECT.resolve("target/quote-service-1.0-SNAPSHOT.jar");
        final List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElseThrow());
        command.addAll(flags);
        command.addAll(List.of("-cp", serviceJar + java.io.File.pathSeparator
            + Files.readString(PROJECT.resolve("target/classpath.txt")).trim(), MAIN, count));
        final Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        return new Result(process.waitFor(), output);
    }

    /** A finished process: its exit code and its output, stderr included. */
    private record Result(int code, String output) {
    }
}
