package org.nakcast.simulator;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.StringJoiner;
import java.util.stream.Stream;

/**
 * {@code ops/mutation}: the simulator tested by planted bugs. Each bug of {@code planted-bugs.txt}
 * (see {@link PlantedBugList}) is planted in a copy of its source file, that one file is compiled
 * into a class directory of its own, and the simulator runs in a child JVM with that directory
 * first on its class path, over the seeds asked for and then every kept seed ({@link KeptSeed}, each
 * with its own fault kinds). A bug is caught when a seed breaks an invariant, or when the run takes
 * {@link #TIMEOUT_FACTOR} times as long as the baseline: the simulator run once first with no bug,
 * which must break none (a bug is only caught against a clean baseline). Every bug is planted and
 * compiled before anything runs. Prints a line per bug as it goes, then a table and a JSON line.
 *
 * <pre>
 *   ops/mutation [--seeds N] [--bugs ID,...] [--threads T]
 * </pre>
 *
 * Exit status: 0 when every bug was caught, 1 when any escaped, 2 when a bug could not be planted or
 * compiled or the baseline broke an invariant, 64 on a bad option.
 */
public final class MutationCommand {
    /** A run with a bug may take this many times as long as the baseline, then it is killed (caught by timeout). */
    static final long TIMEOUT_FACTOR = 10;
    private static final String USAGE = """
        usage: ops/mutation [--seeds N] [--bugs ID,...] [--threads T]
          --seeds N     seeds per run of the simulator, from seed 1 (default 1000), then every kept seed
          --bugs ID,... only these planted bugs (default: every one in planted-bugs.txt)
          --threads T   the simulator's threads (default: one per core); the runs go one after another""";
    private static final String ESCAPED = "ESCAPED";
    /** How much of a violation a progress line and the JSON line show. */
    private static final int SHOWN_LENGTH = 200;

    private final Options options;
    private final List<PlantedBug> bugs;
    private final Path work;

    private MutationCommand(Options options, List<PlantedBug> bugs, Path work) {
        this.options = options;
        this.bugs = bugs;
        this.work = work;
    }

    /** Runs the command. */
    public static void main(String[] args) throws InterruptedException {
        final Options options;
        try {
            options = Options.parse(args);
        } catch (IllegalArgumentException ex) {
            System.err.println("mutation: " + ex.getMessage() + System.lineSeparator() + USAGE);
            System.exit(64);
            return;
        }
        if (options.help()) {
            System.out.println(USAGE);
            System.exit(0);
        }
        System.exit(run(options));
    }

    private static int run(Options options) throws InterruptedException {
        final List<PlantedBug> all;
        try {
            all = PlantedBugList.load();
        } catch (IllegalArgumentException | IllegalStateException ex) {
            return refuse(ex.getMessage());
        }
        final List<PlantedBug> bugs;
        try {
            bugs = options.select(all);
        } catch (IllegalArgumentException ex) {
            System.err.println("mutation: " + ex.getMessage());
            return 64;
        }
        final Path work;
        try {
            work = Files.createTempDirectory("nakcast-mutation-");
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
        Runtime.getRuntime().addShutdownHook(new Thread(() -> delete(work)));
        return new MutationCommand(options, bugs, work).run();
    }

    /** Plants every bug, runs the baseline, then each bug. */
    private int run() throws InterruptedException {
        final Map<PlantedBug, Path> planted = plantAll();
        if (planted == null) {
            return 2;
        }
        final MutationRun.Result baseline = runSimulator(null, Long.MAX_VALUE, work.resolve("baseline.err"));
        if (!baseline.completed() || baseline.failingSeeds() > 0) {
            return refuse(baselineFailure(baseline));
        }
        final long limitNs = TIMEOUT_FACTOR * baseline.wallNs();
        System.out.printf(Locale.ROOT, "baseline, no bug: %d seeds and %d kept, no violation (%.1f s); each bug may"
            + " run %.0f s%n", options.seeds(), KeptSeed.all().size(), baseline.wallNs() / 1e9, limitNs / 1e9);
        final Map<PlantedBug, MutationRun.Result> results = new LinkedHashMap<>();
        for (Map.Entry<PlantedBug, Path> bug : planted.entrySet()) {
            final Path errorFile = bug.getValue().resolveSibling("simulator.err");
            final MutationRun.Result result = runSimulator(bug.getValue(), limitNs, errorFile);
            results.put(bug.getKey(), result);
            System.out.printf(Locale.ROOT, "[%d/%d] %s: %s (%.1f s)%n", results.size(), planted.size(),
                bug.getKey().id(), verdict(result), result.wallNs() / 1e9);
            if (!result.completed() && !result.timedOut()) {
                System.err.println(tail(errorFile));
            }
        }
        table(results).forEach(System.out::println);
        escapedChanges(baseline, results).forEach(System.out::println);
        System.out.println(json(baseline, limitNs, results));
        return results.values().stream().allMatch(MutationRun.Result::caught) ? 0 : 1;
    }

    /**
     * Plants and compiles every bug, each in a directory of its own.
     *
     * @return each bug's class directory, in list order; null, with every reason printed, when any
     *     bug could not be planted or compiled
     */
    private Map<PlantedBug, Path> plantAll() {
        final MutationCompiler compiler = new MutationCompiler(Path.of(""), System.getProperty("java.class.path"));
        final Map<PlantedBug, Path> planted = new LinkedHashMap<>();
        final List<String> refused = new ArrayList<>();
        for (PlantedBug bug : bugs) {
            try {
                planted.put(bug, compiler.compile(bug, Files.createDirectories(work.resolve(bug.id()))));
            } catch (IllegalStateException | IOException | UncheckedIOException ex) {
                System.err.println("mutation: " + ex.getMessage());
                refused.add(bug.id());
            }
        }
        if (!refused.isEmpty()) {
            refuse("%d of %d planted bugs could not be planted or compiled: %s".formatted(refused.size(), bugs.size(),
                String.join(", ", refused)));
            return null;
        }
        System.out.printf("planted and compiled %d bugs%n", planted.size());
        return planted;
    }

    private MutationRun.Result runSimulator(Path bugClasses, long limitNs, Path errorFile) throws InterruptedException {
        return MutationRun.run(MutationRun.simulatorCommand(bugClasses, options.simulatorArguments()), limitNs,
            errorFile);
    }

    private String baselineFailure(MutationRun.Result baseline) {
        if (baseline.completed()) {
            return ("the baseline, with no bug, breaks invariants on %d of %d seeds (seed %d: %s): a planted bug is"
                + " only caught against a clean baseline").formatted(baseline.failingSeeds(), options.runs(),
                baseline.firstFailingSeed(), baseline.firstViolation());
        }
        return "the baseline, with no bug, did not run to its end (exit status %d): %s".formatted(
            baseline.exitStatus(), tail(work.resolve("baseline.err")));
    }

    /** The last lines of a child's standard error, for a run that failed. */
    private static String tail(Path errorFile) {
        try {
            final List<String> lines = Files.readAllLines(errorFile);
            return String.join(System.lineSeparator(), lines.subList(Math.max(0, lines.size() - 20), lines.size()));
        } catch (IOException ex) {
            return "(no standard error: " + ex.getMessage() + ")";
        }
    }

    /** Prints why nothing is run, also as the JSON line; exit status 2. */
    private static int refuse(String reason) {
        System.err.println("mutation: " + reason);
        System.out.println("{\"error\":" + quote(reason) + "}");
        return 2;
    }

    private String verdict(MutationRun.Result result) {
        if (!result.caught()) {
            return "%s: no seed of %d failed".formatted(ESCAPED, options.runs());
        }
        if (result.timedOut()) {
            return "caught by timeout: killed, it ran %d times as long as the baseline".formatted(TIMEOUT_FACTOR);
        }
        if (!result.completed()) {
            return "caught by crash: exit status %d, no report (its standard error follows)".formatted(
                result.exitStatus());
        }
        final String caught = "caught by %s, %s".formatted(result.caughtBy(), failingSeeds(result));
        return result.firstViolation() == null ? caught
            : "%s; seed %d: %s".formatted(caught, result.firstFailingSeed(), shortened(result.firstViolation()));
    }

    /** A violation's line (an exception's without its stack trace), cut short. */
    private static String shortened(String violation) {
        return violation.length() <= SHOWN_LENGTH ? violation : violation.substring(0, SHOWN_LENGTH) + " ...";
    }

    private String failingSeeds(MutationRun.Result result) {
        return result.completed() ? "%d of %d".formatted(result.failingSeeds(), options.runs()) : "-";
    }

    /** The table: one line per bug, then the count caught. */
    private List<String> table(Map<PlantedBug, MutationRun.Result> results) {
        final int idWidth = width(results.keySet().stream().map(PlantedBug::id), "bug");
        final int classWidth = width(results.keySet().stream().map(PlantedBug::className), "class");
        final int whatWidth = width(results.keySet().stream().map(PlantedBug::what), "what");
        final String format = "%-" + idWidth + "s  %-" + classWidth + "s  %-" + whatWidth + "s  %-18s  %s";
        final List<String> lines = new ArrayList<>();
        lines.add(format.formatted("bug", "class", "what", "caught by", "failing seeds"));
        results.forEach((bug, result) -> lines.add(format.formatted(bug.id(), bug.className(), bug.what(),
            result.caught() ? result.caughtBy() : ESCAPED, failingSeeds(result))));
        final List<String> escaped = escaped(results);
        lines.add("caught %d of %d planted bugs%s".formatted(results.size() - escaped.size(), results.size(),
            escaped.isEmpty() ? "" : "; escaped: " + String.join(", ", escaped)));
        return lines;
    }

    /**
     * What each escaped bug changed in the simulation's totals against the baseline: the simulation
     * is deterministic, so a bug that changed none of them was never reached.
     */
    private static List<String> escapedChanges(MutationRun.Result baseline,
        Map<PlantedBug, MutationRun.Result> results) {
        final List<String> lines = new ArrayList<>();
        results.forEach((bug, result) -> {
            if (!result.caught()) {
                lines.add("  %s: %s".formatted(bug.id(), changes(baseline.totals(), result.totals())));
            }
        });
        if (!lines.isEmpty()) {
            lines.add(0, "what the escaped bugs changed (baseline -> with the bug; none: the simulation never reached"
                + " the bug):");
        }
        return lines;
    }

    /** The totals that differ, each as {@code name before -> after}, or {@code none}. */
    static String changes(Map<String, Long> baseline, Map<String, Long> withBug) {
        final StringJoiner changes = new StringJoiner(", ");
        baseline.forEach((total, before) -> {
            final Long after = withBug.get(total);
            if (after != null && !after.equals(before)) {
                changes.add(String.format(Locale.ROOT, "%s %,d -> %,d", total, before, after));
            }
        });
        return changes.length() == 0 ? "none" : changes.toString();
    }

    private static int width(Stream<String> cells, String heading) {
        return Math.max(heading.length(), cells.mapToInt(String::length).max().orElse(0));
    }

    private static List<String> escaped(Map<PlantedBug, MutationRun.Result> results) {
        return results.entrySet().stream().filter(entry -> !entry.getValue().caught())
            .map(entry -> entry.getKey().id()).toList();
    }

    /** The JSON line. */
    private String json(MutationRun.Result baseline, long limitNs, Map<PlantedBug, MutationRun.Result> results) {
        final StringJoiner perBug = new StringJoiner(",", "[", "]");
        results.forEach((bug, result) -> perBug.add(String.format(Locale.ROOT,
            "{\"id\":%s,\"class\":%s,\"what\":%s,\"caught\":%b,\"caughtBy\":%s,\"failingSeeds\":%s,"
                + "\"firstFailingSeed\":%s,\"firstViolation\":%s,\"seconds\":%.1f,\"totals\":%s}",
            quote(bug.id()), quote(bug.className()), quote(bug.what()), result.caught(),
            result.caught() ? quote(result.caughtBy()) : "null",
            result.completed() ? Long.toString(result.failingSeeds()) : "null",
            result.firstFailingSeed() >= 0 ? Long.toString(result.firstFailingSeed()) : "null",
            result.firstViolation() == null ? "null" : quote(shortened(result.firstViolation())),
            result.wallNs() / 1e9, json(result.totals()))));
        final List<String> escapedIds = escaped(results);
        final StringJoiner escaped = new StringJoiner(",", "[", "]");
        escapedIds.forEach(id -> escaped.add(quote(id)));
        return String.format(Locale.ROOT, "{\"seeds\":%d,\"keptSeeds\":%d,\"baselineSeconds\":%.1f,"
                + "\"timeoutSeconds\":%.1f,\"baselineTotals\":%s,\"caught\":%d,\"total\":%d,\"escaped\":%s,"
                + "\"bugs\":%s}",
            options.seeds(), KeptSeed.all().size(), baseline.wallNs() / 1e9, limitNs / 1e9, json(baseline.totals()),
            results.size() - escapedIds.size(), results.size(), escaped, perBug);
    }

    private static String json(Map<String, Long> totals) {
        final StringJoiner object = new StringJoiner(",", "{", "}");
        totals.forEach((name, value) -> object.add(quote(name) + ":" + value));
        return object.toString();
    }

    /** {@code text} as a JSON string. */
    static String quote(String text) {
        final StringBuilder quoted = new StringBuilder("\"");
        for (char c : text.toCharArray()) {
            switch (c) {
                case '"' -> quoted.append("\\\"");
                case '\\' -> quoted.append("\\\\");
                case '\n' -> quoted.append("\\n");
                default -> quoted.append(c < ' ' ? "\\u%04x".formatted((int) c) : String.valueOf(c));
            }
        }
        return quoted.append('"').toString();
    }

    private static void delete(Path directory) {
        try (Stream<Path> paths = Files.walk(directory)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException ex) {
            System.err.println("mutation: could not delete " + directory + ": " + ex.getMessage());
        }
    }

    /**
     * The command's options.
     *
     * @param seeds seeds per run, before the kept ones
     * @param bugIds the bugs to plant; empty for every one
     * @param threads the simulator's threads; 0 for its default
     * @param help whether only the usage is wanted
     */
    private record Options(long seeds, List<String> bugIds, int threads, boolean help) {
        static Options parse(String[] args) {
            long seeds = 1_000;
            List<String> bugIds = List.of();
            int threads = 0;
            boolean help = false;
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "--seeds" -> seeds = positive("--seeds", value(args, ++i));
                    case "--bugs" -> bugIds = List.of(value(args, ++i).split(","));
                    case "--threads" -> threads = Math.toIntExact(positive("--threads", value(args, ++i)));
                    case "--help", "-h" -> help = true;
                    default -> throw new IllegalArgumentException("unknown option " + args[i]);
                }
            }
            return new Options(seeds, bugIds, threads, help);
        }

        private static String value(String[] args, int index) {
            if (index >= args.length) {
                throw new IllegalArgumentException(args[index - 1] + " needs a value");
            }
            return args[index];
        }

        private static long positive(String option, String value) {
            try {
                final long number = Long.parseLong(value);
                if (number > 0) {
                    return number;
                }
            } catch (NumberFormatException ex) {
                // said below
            }
            throw new IllegalArgumentException(option + " takes a positive number, not " + value);
        }

        /** The bugs of {@code all} these options ask for, in list order. */
        List<PlantedBug> select(List<PlantedBug> all) {
            if (bugIds.isEmpty()) {
                return all;
            }
            final List<String> known = all.stream().map(PlantedBug::id).toList();
            for (String id : bugIds) {
                if (!known.contains(id)) {
                    throw new IllegalArgumentException(
                        "no planted bug " + id + "; the bugs: " + String.join(", ", known));
                }
            }
            return all.stream().filter(bug -> bugIds.contains(bug.id())).toList();
        }

        /** Seeds per run, the kept ones included. */
        long runs() {
            return seeds + KeptSeed.all().size();
        }

        List<String> simulatorArguments() {
            final List<String> arguments = new ArrayList<>(List.of("--seeds", Long.toString(seeds), "--kept"));
            if (threads > 0) {
                arguments.addAll(List.of("--threads", Integer.toString(threads)));
            }
            return arguments;
        }
    }
}
