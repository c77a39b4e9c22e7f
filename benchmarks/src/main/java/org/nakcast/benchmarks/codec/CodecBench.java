package org.nakcast.benchmarks.codec;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;

import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.CommandLineOptionException;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * Runs the codec benchmarks in one JMH run with the GC profiler and prints one table: encode and
 * decode rates, min(encode, decode), bytes per message and bytes allocated per operation, for every
 * codec on the sample price update, with the putLong/getLong baseline. {@code ops/codec-bench} runs
 * it.
 *
 * <p>Arguments are JMH's own ({@code -f}, {@code -wi}, {@code -i}, {@code -w}, {@code -r}, a
 * benchmark regex, ...); where they are silent the run is 1 fork, 3 x 1 s warm-up and 5 x 1 s
 * measurement, and without a regex every codec benchmark runs. The JMH result goes to
 * {@code -Dnakcast.codecBench.jmhResult} (default {@code benchmarks/target/codec-bench-jmh.json}) and
 * the table as JSON to {@code -Dnakcast.codecBench.table} (default
 * {@code benchmarks/target/codec-bench.json}).
 *
 * <p>JMH forks inherit this JVM's flags, so starting it with {@code java @ops/jvm.options} gives
 * every fork the flags FST, Agrona and Kryo need.
 */
public final class CodecBench {
    /** The buffers the benchmarks write into: a UDP payload under a 1500-byte MTU. */
    static final int DATAGRAM_SIZE = 1472;

    private CodecBench() {
    }

    /**
     * @param args JMH command-line options
     * @throws RunnerException            if JMH fails
     * @throws CommandLineOptionException if an argument is not a JMH option
     * @throws IOException                if the table cannot be written
     */
    public static void main(String[] args) throws RunnerException, CommandLineOptionException, IOException {
        final CommandLineOptions commandLine = new CommandLineOptions(args);
        final Path jmhResult = Path.of(System.getProperty("nakcast.codecBench.jmhResult",
            "benchmarks/target/codec-bench-jmh.json"));
        final Path table = Path.of(System.getProperty("nakcast.codecBench.table",
            "benchmarks/target/codec-bench.json"));
        Files.createDirectories(jmhResult.toAbsolutePath().getParent());
        Files.createDirectories(table.toAbsolutePath().getParent());

        final ChainedOptionsBuilder options = new OptionsBuilder().parent(commandLine)
            .addProfiler(GCProfiler.class)
            .resultFormat(ResultFormatType.JSON)
            .result(jmhResult.toString());
        applyDefaults(commandLine, options);
        if (commandLine.getIncludes().isEmpty()) {
            options.include(CodecBench.class.getPackageName() + "\\..*Benchmark\\.");
        }
        final Collection<RunResult> results = new Runner(options.build()).run();

        final CodecTable codecTable = CodecTable.of(results);
        System.out.println();
        System.out.print(codecTable.render());
        Files.writeString(table, codecTable.toJson(), StandardCharsets.UTF_8);
        System.out.println("table: " + table + "   JMH result: " + jmhResult);
    }

    /**
     * A modest run for a 2-core machine, where the command line says nothing: 1 fork, 3 x 1 s
     * warm-up, 5 x 1 s measurement.
     */
    private static void applyDefaults(CommandLineOptions commandLine, ChainedOptionsBuilder options) {
        if (!commandLine.getForkCount().hasValue()) {
            options.forks(1);
        }
        if (!commandLine.getWarmupIterations().hasValue()) {
            options.warmupIterations(3);
        }
        if (!commandLine.getWarmupTime().hasValue()) {
            options.warmupTime(TimeValue.seconds(1));
        }
        if (!commandLine.getMeasurementIterations().hasValue()) {
            options.measurementIterations(5);
        }
        if (!commandLine.getMeasurementTime().hasValue()) {
            options.measurementTime(TimeValue.seconds(1));
        }
    }
}
