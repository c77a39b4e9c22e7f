package org.nakcast.benchmarks.throughput;

import java.io.IOException;
import java.io.PrintStream;
import org.nakcast.benchmarks.child.ChildJvm;
import org.nakcast.benchmarks.child.ChildProtocol;
import org.nakcast.benchmarks.child.Figures;
import org.nakcast.rtt.KernelLoss;

/**
 * One throughput run of one system (nakcast or a peer, {@link Contender}): adds the run's kernel
 * loss rules ({@link RunSettings#kernelLoss()}), starts the subscriber JVM and the run's recorder JVM
 * ({@link RecorderMain}, if it has one), waits until they listen, starts the run's stranger
 * ({@link StrangerNaks}, if it has one) and the publisher JVM, tells the subscriber and the recorder
 * how many messages were offered, collects every report, stops the stranger, waits for the JVMs
 * to exit (so the next run finds the ports free) and deletes the rule. Both children inherit this
 * process's network namespace, whose kernel UDP drop count is read before and after.
 */
final class ThroughputRun {
    private static final long START_TIMEOUT_SECONDS = 60;
    private static final long REPORT_TIMEOUT_SECONDS = 30;

    private ThroughputRun() {
    }

    /**
     * Runs both JVMs for {@code settings}.
     *
     * @param log where the children's stray output goes
     * @return both reports, or the reason the run failed
     * @throws InterruptedException if interrupted while waiting for a child
     */
    static RunResult run(RunSettings settings, PrintStream log) throws InterruptedException {
        final double loadBefore = HostLoad.oneMinute();
        final long kernelDropsBefore = KernelUdpDrops.read();
        final Contender system = settings.system();
        try (KernelLoss kernelLoss = settings.kernelLoss();
            ChildJvm subscriber = ChildJvm.start(system.label() + " subscriber", system.subscriberMain(),
                settings.toArgs(), log)) {
            subscriber.await(ChildProtocol.READY, START_TIMEOUT_SECONDS);
            try (ChildJvm recorder = settings.recorder()
                    ? ChildJvm.start(system.label() + " recorder", RecorderMain.class, settings.toArgs(), log) : null;
                StrangerNaks stranger = StrangerNaks.start(settings, log);
                ChildJvm publisher = startPublisher(settings, recorder, log)) {
                final long offered = Long.parseLong(
                    publisher.await(ChildProtocol.OFFERED, START_TIMEOUT_SECONDS + settings.totalSeconds()));
                subscriber.tell(ChildProtocol.EXPECT, offered);
                if (recorder != null) {
                    recorder.tell(ChildProtocol.EXPECT, offered);
                }
                final Figures subscriberFigures = Figures.parse(subscriber.await(ChildProtocol.RESULT,
                    CheckedSubscriber.MAX_DRAIN_SECONDS + REPORT_TIMEOUT_SECONDS));
                final Figures recorderFigures = recorder == null ? null : Figures.parse(
                    recorder.await(ChildProtocol.RESULT, CheckedSubscriber.MAX_DRAIN_SECONDS + REPORT_TIMEOUT_SECONDS));
                final long strangerNaksSent = stranger.naksSent();
                publisher.tell(ChildProtocol.STOP);
                final Figures publisherFigures = Figures.parse(
                    publisher.await(ChildProtocol.RESULT, REPORT_TIMEOUT_SECONDS));
                publisher.awaitExit(REPORT_TIMEOUT_SECONDS);
                subscriber.awaitExit(REPORT_TIMEOUT_SECONDS);
                if (recorder != null) {
                    recorder.awaitExit(REPORT_TIMEOUT_SECONDS);
                }
                final long kernelDropsAfter = KernelUdpDrops.read();
                return RunResult.of(settings, publisherFigures, subscriberFigures,
                    kernelDropsBefore == KernelUdpDrops.UNKNOWN || kernelDropsAfter == KernelUdpDrops.UNKNOWN
                        ? KernelUdpDrops.UNKNOWN
                        : kernelDropsAfter - kernelDropsBefore,
                    kernelLoss.dropped(), strangerNaksSent, loadBefore, recorderFigures);
            }
        } catch (ChildJvm.ChildFailedException | IOException | IllegalArgumentException | IllegalStateException ex) {
            return RunResult.failed(settings, loadBefore, ex.getMessage());
        }
    }

    /** Starts the publisher JVM once the run's recorder, if it has one, records. */
    private static ChildJvm startPublisher(RunSettings settings, ChildJvm recorder, PrintStream log)
        throws IOException, InterruptedException, ChildJvm.ChildFailedException {
        if (recorder != null) {
            recorder.await(ChildProtocol.READY, START_TIMEOUT_SECONDS);
        }
        return ChildJvm.start(settings.system().label() + " publisher", settings.system().publisherMain(),
            settings.toArgs(), log);
    }
}
