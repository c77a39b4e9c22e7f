package org.nakcast.benchmarks.throughput;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

import org.nakcast.benchmarks.child.ChildProtocol;
import org.nakcast.benchmarks.child.Figures;

/**
 * The publisher JVM's side of a throughput run, the same for nakcast and every peer: offers
 * numbered messages for the run's warm-up and measured seconds ({@link PublisherLoop}), says
 * OFFERED n, and waits for STOP while the system goes on answering repair requests. The caller
 * adds its own figures and says RESULT.
 */
public final class CheckedPublisher {
    private CheckedPublisher() {
    }

    /**
     * Offers, says how many, waits for STOP.
     *
     * @param publisher offers message n as the system under test does
     * @return the offer figures: {@code offered}, {@code offeredPerSecond} and {@code cpuCores} (medians after
     *     the warm-up)
     * @throws IOException if the orchestrator goes away
     */
    public static Figures offerUntilStop(RunSettings run, SequencedPublisher publisher) throws IOException {
        final BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        final PublisherLoop loop = new PublisherLoop(publisher, run.totalSeconds());
        final long offered = loop.run();
        ChildProtocol.say(ChildProtocol.OFFERED, offered);
        ChildProtocol.await(in, ChildProtocol.STOP);
        return new Figures()
            .put("offered", offered)
            .put("offeredPerSecond", loop.offeredPerSecond().median(run.warmupSeconds(), run.seconds()))
            .put("cpuCores", ProcessCpu.cores(loop.cpuNanosPerSecond(), run.warmupSeconds(), run.seconds()));
    }
}
