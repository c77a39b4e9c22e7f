package org.nakcast.simulator;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code ops/simulate}: runs the deterministic simulation over many seeds and prints what they
 * injected, what they delivered and every invariant broken, then a JSON line. A failing seed is
 * printed with its violations and replays exactly with {@code --seed S --seeds 1}. With {@code --kept},
 * the kept seeds ({@link KeptSeed}) run after the range, each with its own fault kinds. Every
 * {@value #PROGRESS_EVERY} seeds a line on stderr says how far a long run is, so that one stopped
 * early still tells how many seeds it ran.
 *
 * <pre>
 *   ops/simulate [--seeds N] [--seed FIRST] [--faults all|loss,burst,...] [--kept] [--threads T]
 *                [--trace SUBSCRIPTION]
 * </pre>
 *
 * Exit status: 0 with no violation, 1 with any, 64 on a bad option.
 */
public final class SimulateCommand {
    /** Seeds between two progress lines. */
    static final int PROGRESS_EVERY = 1_000;

    private SimulateCommand() {
    }

    /** Runs the command. */
    public static void main(String[] args) throws InterruptedException {
        long seeds = 1_000;
        long firstSeed = 1;
        Set<FaultKind> kinds = FaultKind.parse("all");
        int threads = Runtime.getRuntime().availableProcessors();
        String traced = null;
        List<KeptSeed> kept = List.of();
        try {
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "--seeds" -> seeds = Long.parseLong(args[++i]);
                    case "--seed" -> firstSeed = Long.parseLong(args[++i]);
                    case "--faults" -> kinds = FaultKind.parse(args[++i]);
                    case "--threads" -> threads = Integer.parseInt(args[++i]);
                    case "--trace" -> traced = args[++i];
                    case "--kept" -> kept = KeptSeed.all();
                    default -> throw new IllegalArgumentException("unknown option " + args[i]
                        + "; usage: ops/simulate [--seeds N] [--seed FIRST] [--faults all|KIND,...] [--kept]"
                        + " [--threads T] [--trace SUBSCRIPTION]");
                }
            }
        } catch (RuntimeException ex) {
            System.err.println("simulate: " + ex.getMessage());
            System.exit(64);
        }
        final SimulationReport report = run(new Plan(firstSeed, seeds, kinds, kept), threads, traced);
        System.exit(report.violations() == 0 ? 0 : 1);
    }

    private static SimulationReport run(Plan plan, int threads, String traced) throws InterruptedException {
        final SimulationReport report = new SimulationReport();
        final long startNs = System.nanoTime();
        final AtomicLong next = new AtomicLong();
        final AtomicLong done = new AtomicLong();
        final long runs = plan.runs();
        final ExecutorService pool = Executors.newFixedThreadPool(threads);
        for (int t = 0; t < threads; t++) {
            pool.execute(() -> {
                for (long run = next.getAndIncrement(); run < runs; run = next.getAndIncrement()) {
                    final long seed = plan.seed(run);
                    final Set<FaultKind> kinds = plan.kinds(run);
                    final SimulationResult result = Simulation.runSeed(seed, kinds, traced);
                    report.add(result);
                    if (result.violations() > 0) {
                        printFailure(result, kinds);
                    }
                    final long seedsDone = done.incrementAndGet();
                    if (seedsDone % PROGRESS_EVERY == 0 && seedsDone < runs) {
                        System.err.println("simulate: %,d of %,d seeds run, %,d violations so far, %.0f s".formatted(
                            seedsDone, runs, report.violations(), (System.nanoTime() - startNs) / 1e9));
                    }
                }
            });
        }
        pool.shutdown();
        pool.awaitTermination(365, TimeUnit.DAYS);
        final double wallSeconds = (System.nanoTime() - startNs) / 1e9;
        report.table(wallSeconds).forEach(System.out::println);
        System.out.println(report.json(wallSeconds));
        return report;
    }

    /**
     * Prints a failing seed, its first violations and the command that replays it: the same seed
     * with the same fault kinds allowed (a seed draws its scenario from both).
     */
    private static synchronized void printFailure(SimulationResult result, Set<FaultKind> allowed) {
        System.out.println("seed %d FAILED: %d violations (drew %s; replay: %s)".formatted(result.seed(),
            result.violations(), FaultKind.labels(result.injected()), replayCommand(result.seed(), allowed)));
        result.firstViolations().forEach(violation -> System.out.println("  " + violation));
    }

    /**
     * The seeds a run goes through, in order: {@code seeds} from {@code firstSeed} with {@code kinds},
     * then each kept seed with its own.
     */
    private record Plan(long firstSeed, long seeds, Set<FaultKind> kinds, List<KeptSeed> kept) {
        long runs() {
            return seeds + kept.size();
        }

        long seed(long run) {
            return run < seeds ? firstSeed + run : kept.get((int) (run - seeds)).seed();
        }

        Set<FaultKind> kinds(long run) {
            return run < seeds ? kinds : kept.get((int) (run - seeds)).faults();
        }
    }

    /** The command that runs {@code seed} again, as it ran with {@code allowed}, tracing every subscription. */
    static String replayCommand(long seed, Set<FaultKind> allowed) {
        return "ops/simulate --seed %d --seeds 1 --faults %s --trace all".formatted(seed, FaultKind.labels(allowed));
    }
}
