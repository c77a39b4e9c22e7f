package org.nakcast.micrometer;

import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.agrona.concurrent.status.CountersReader;
import org.nakcast.transport.Node;
import org.nakcast.transport.status.CountersFile;
import org.nakcast.transport.status.LineCounter;
import org.nakcast.transport.status.SystemCounter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Exports a nakcast node's counters, the ones {@code nakcast-stat} prints, as Micrometer meters: from a
 * {@link Node} of this process ({@link #of(Node)}), or from the counters file of a node in another
 * process on this host ({@link #open(Path)}). Every meter reads the counter when the registry asks for
 * its value; nothing is added to the node's sending or receiving path.
 *
 * <table>
 *   <caption>The meters, each tagged {@code node} with the node's name</caption>
 *   <tr><th>meter</th><th>kind</th><th>other tags</th><th>what</th></tr>
 *   <tr><td>{@code nakcast.<system counter>}, e.g. {@code nakcast.datagrams.sent}</td><td>function counter</td>
 *     <td></td><td>one per {@link SystemCounter}: {@link #meterName(SystemCounter)}</td></tr>
 *   <tr><td>{@value #MALFORMED_BY_CAUSE}</td><td>function counter</td><td>{@code cause}, e.g.
 *     {@code bad_magic}</td><td>datagrams rejected by the checks, by cause (their sum is
 *     {@code nakcast.malformed})</td></tr>
 *   <tr><td>{@value #PUBLISHER_POSITION}</td><td>gauge</td><td>{@code topic}, {@code topic.id},
 *     {@code session}</td><td>the sequence below which a publisher stream has sent every datagram</td></tr>
 *   <tr><td>{@value #RECEIVER_POSITION}</td><td>gauge</td><td>{@code topic}, {@code topic.id},
 *     {@code session}</td><td>the sequence of the next datagram a receiver delivers</td></tr>
 *   <tr><td>{@value #RECEIVER_LAG}</td><td>gauge</td><td>{@code topic}, {@code topic.id},
 *     {@code session}</td><td>datagrams known to exist that a receiver has not delivered yet</td></tr>
 * </table>
 *
 * <p>A system counter's meter is named after its {@link SystemCounter} constant, not after its label:
 * the label is a phrase for people ({@code "datagrams of sessions ended for good"}) whose wording may
 * change, while the constant is the identifier code and dashboards share. A counter whose type this
 * version does not know (one a newer node added) is not exported.
 *
 * <p>Streams come and go while a node runs; {@link #refresh()} reads the counters file again, adds the
 * meters of new streams and removes those of streams that ended, and {@link #startRefreshing(Duration)}
 * does so on a daemon thread. A stream's gauges read NaN once its counter is freed, until the next
 * refresh removes them. {@link #close()} stops the refreshing and removes every meter this binder
 * registered. Keep this object referenced while its meters are in use: the counters reference it weakly,
 * as Micrometer's function counters do.
 *
 * <p>Two nodes bound to one registry need different names ({@code node.name}): their meters would
 * otherwise be the same meters, and binding the second is refused.
 */
public final class NakcastMetrics implements MeterBinder, AutoCloseable {
    /** The meter of malformed datagrams by cause, tagged {@value #CAUSE_TAG}. */
    public static final String MALFORMED_BY_CAUSE = "nakcast.malformed.by.cause";
    /** A publisher stream's position: the sequence below which it has sent every datagram. */
    public static final String PUBLISHER_POSITION = "nakcast.stream.publisher.position";
    /** A receiver's position in a stream: the sequence of the next datagram it delivers. */
    public static final String RECEIVER_POSITION = "nakcast.stream.receiver.position";
    /** A receiver's lag in a stream: datagrams known to exist that it has not delivered yet. */
    public static final String RECEIVER_LAG = "nakcast.stream.receiver.lag";
    /** The gaps both lines of a stream heard on two lines missed (each NAKed). */
    public static final String GAPS_BOTH_LINES_MISSED = "nakcast.stream.gaps.both.lines.missed";
    /** What the meters of one line of a stream heard on two lines start with ({@link #lineMeterName}). */
    public static final String LINE_METER_PREFIX = "nakcast.stream.line.";
    /** The tag of a line meter: the line's name (its transport's). */
    public static final String LINE_TAG = "line";
    /** The tag of every meter: the node's name. */
    public static final String NODE_TAG = "node";
    /** The tag of the malformed datagrams' cause: a {@code DatagramCheck} constant in lower case. */
    public static final String CAUSE_TAG = "cause";
    /** The tag of a stream's topic name (its id where the counter's label has no room for the name). */
    public static final String TOPIC_TAG = "topic";
    /** The tag of a stream's topic id. */
    public static final String TOPIC_ID_TAG = "topic.id";
    /** The tag of a stream's publisher session id. */
    public static final String SESSION_TAG = "session";
    /** How often {@link #startRefreshing()} refreshes. */
    public static final Duration DEFAULT_REFRESH_INTERVAL = Duration.ofSeconds(1);

    private static final Logger LOG = LoggerFactory.getLogger(NakcastMetrics.class);
    private static final String METER_PREFIX = "nakcast.";

    private final CountersReader counters;
    private final String nodeName;
    /** The file mapped by {@link #open(Path)}, unmapped on close; null for a node of this process. */
    private final CountersFile.View mappedFile;
    /** Held while a counter is read and while the file is unmapped, so no read touches unmapped memory. */
    private final Object readLock = new Object();
    private boolean unmapped;

    private final List<MeterRegistry> registries = new ArrayList<>();
    private final Map<CounterSlot, Exported> exported = new LinkedHashMap<>();
    private ScheduledExecutorService refresher;
    private boolean closed;

    private NakcastMetrics(CountersReader counters, String nodeName, CountersFile.View mappedFile) {
        this.counters = counters;
        this.nodeName = nodeName;
        this.mappedFile = mappedFile;
    }

    /**
     * The meters of a node of this process, read from its own counters ({@link Node#countersReader()}).
     * They can be read after the node closed: its last values.
     */
    public static NakcastMetrics of(Node node) {
        return new NakcastMetrics(node.countersReader(), node.config().node().name(), null);
    }

    /**
     * The meters of the node whose counters file is {@code countersFile}, typically a node of another
     * process on this host ({@code <java.io.tmpdir>/nakcast/<node name>.counters} by default). The file
     * is mapped read-only until {@link #close()}. For a node of this process use {@link #of(Node)}: a
     * file's locks belong to its process, and the channel this opens on the file, closed once the file
     * is mapped, would release its node's lock.
     *
     * @throws IllegalArgumentException naming the file if it is not a counters file of this layout
     * @throws UncheckedIOException naming the file if it cannot be read (missing, not readable)
     */
    public static NakcastMetrics open(Path countersFile) {
        final CountersFile.View view = CountersFile.open(countersFile);
        return new NakcastMetrics(view.counters(), view.header().nodeName(), view);
    }

    /**
     * The name of a line counter's meter: {@value #LINE_METER_PREFIX} and its constant's name in lower
     * case, with dots for underscores ({@code FIRST_COPIES}: {@code nakcast.stream.line.first.copies}).
     */
    public static String lineMeterName(LineCounter counter) {
        return LINE_METER_PREFIX + counter.name().toLowerCase(Locale.ROOT).replace('_', '.');
    }

    /**
     * The name of a system counter's meter: {@code nakcast.} and its constant's name in lower case,
     * with dots for underscores ({@code DATAGRAMS_SENT}: {@code nakcast.datagrams.sent}).
     */
    public static String meterName(SystemCounter counter) {
        return METER_PREFIX + counter.name().toLowerCase(Locale.ROOT).replace('_', '.');
    }

    /** The name of the node whose counters these are, the {@value #NODE_TAG} tag of every meter. */
    public String nodeName() {
        return nodeName;
    }

    /**
     * Registers a meter for each counter the node has now in {@code registry}; later {@link #refresh()}es
     * keep it up to date with the streams. A binder may be bound to several registries.
     *
     * @throws IllegalStateException if this binder is closed, or if the registry already has a meter of
     *     the same name and tags (another node of the same name)
     */
    @Override
    public synchronized void bindTo(MeterRegistry registry) {
        requireOpen();
        if (registries.contains(registry)) {
            return;
        }
        refresh();
        for (Exported meter : exported.values()) {
            if (registry.find(meter.meter.name()).tags(meter.meter.tags()).meter() != null) {
                throw new IllegalStateException("the registry has a meter " + meter.meter.name() + " "
                    + meter.meter.tags() + " already: is another node named " + nodeName + " bound to it? Give each"
                    + " node its own name (node.name)");
            }
        }
        registries.add(registry);
        for (Exported meter : exported.values()) {
            meter.registered.add(register(meter.meter, registry));
        }
    }

    /**
     * Reads the counters file again: registers the meters of counters allocated since the last refresh
     * (new streams) in every bound registry, and removes those whose counters were freed (ended
     * streams).
     *
     * @throws IllegalStateException if this binder is closed
     */
    public synchronized void refresh() {
        requireOpen();
        final Set<CounterSlot> present = new HashSet<>();
        final List<CounterMeter> added = new ArrayList<>();
        counters.forEach((counterId, typeId, key, label) -> {
            final CounterMeter meter = CounterMeter.of(nodeName, counterId, typeId, key, label);
            if (meter != null) {
                present.add(meter.slot());
                if (!exported.containsKey(meter.slot())) {
                    added.add(meter);
                }
            }
        });
        for (Iterator<Exported> meters = exported.values().iterator(); meters.hasNext(); ) {
            final Exported meter = meters.next();
            if (!present.contains(meter.meter.slot())) {
                meter.removeFromRegistries();
                meters.remove();
            }
        }
        for (CounterMeter meter : added) {
            final Exported export = new Exported(meter);
            exported.put(meter.slot(), export);
            for (MeterRegistry registry : registries) {
                export.registered.add(register(meter, registry));
            }
        }
    }

    /** {@link #startRefreshing(Duration)} every {@link #DEFAULT_REFRESH_INTERVAL}. */
    public void startRefreshing() {
        startRefreshing(DEFAULT_REFRESH_INTERVAL);
    }

    /**
     * Refreshes every {@code interval} on a daemon thread until {@link #close()}. A refresh that fails
     * is logged, and the next one goes ahead.
     *
     * @throws IllegalArgumentException if the interval is not positive
     * @throws IllegalStateException if this binder is closed or refreshes already
     */
    public synchronized void startRefreshing(Duration interval) {
        requireOpen();
        if (interval.isNegative() || interval.isZero()) {
            throw new IllegalArgumentException("refresh interval must be positive, not " + interval);
        }
        if (refresher != null) {
            throw new IllegalStateException("the meters of node " + nodeName + " are refreshed already");
        }
        refresher = Executors.newSingleThreadScheduledExecutor(runnable -> {
            final Thread thread = new Thread(runnable, "nakcast-metrics-" + nodeName);
            thread.setDaemon(true);
            return thread;
        });
        final long intervalNs = interval.toNanos();
        refresher.scheduleWithFixedDelay(this::refreshUnlessClosed, intervalNs, intervalNs, TimeUnit.NANOSECONDS);
    }

    private synchronized void refreshUnlessClosed() {
        if (!closed) {
            try {
                refresh();
            } catch (RuntimeException ex) {
                LOG.warn("nakcast metrics of node {}: refresh failed: {}", nodeName, ex.toString(), ex);
            }
        }
    }

    /**
     * Stops refreshing, removes every meter this binder registered from every registry, and unmaps the
     * counters file if {@link #open(Path)} mapped it. Idempotent.
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (refresher != null) {
            refresher.shutdownNow();
        }
        exported.values().forEach(Exported::removeFromRegistries);
        exported.clear();
        registries.clear();
        synchronized (readLock) {
            unmapped = true;
            if (mappedFile != null) {
                mappedFile.close();
            }
        }
    }

    private void requireOpen() {
        if (closed) {
            throw new IllegalStateException("the meters of node " + nodeName + " are closed");
        }
    }

    private RegisteredMeter register(CounterMeter meter, MeterRegistry registry) {
        if (meter.monotonic()) {
            return new RegisteredMeter(registry,
                FunctionCounter.builder(meter.name(), this, metrics -> metrics.valueOf(meter.slot()))
                    .description(meter.description())
                    .tags(meter.tags())
                    .register(registry));
        }
        return new RegisteredMeter(registry,
            Gauge.builder(meter.name(), this, metrics -> metrics.valueOf(meter.slot()))
                .description(meter.description())
                .tags(meter.tags())
                .strongReference(true)
                .register(registry));
    }

    /** The counter's value, or NaN once its slot no longer holds it (freed, or this binder closed). */
    private double valueOf(CounterSlot slot) {
        synchronized (readLock) {
            if (unmapped || !slot.isHeldIn(counters)) {
                return Double.NaN;
            }
            return counters.getCounterValue(slot.counterId());
        }
    }

    /** A meter as one registry holds it. */
    private record RegisteredMeter(MeterRegistry registry, Meter meter) {
        private void remove() {
            registry.remove(meter);
        }
    }

    /** A counter exported, and its meter in each registry it is bound to. */
    private static final class Exported {
        private final CounterMeter meter;
        private final List<RegisteredMeter> registered = new ArrayList<>();

        private Exported(CounterMeter meter) {
            this.meter = meter;
        }

        private void removeFromRegistries() {
            registered.forEach(RegisteredMeter::remove);
            registered.clear();
        }
    }
}
