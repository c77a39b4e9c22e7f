package org.nakcast.rtt;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import tools.jackson.databind.json.JsonMapper;

/**
 * The figures of a run as a human reads them (a table of percentiles in microseconds, one row per
 * path, and the ratios of nakcast to each other path) and as a script reads them (one JSON object
 * on one line). The nakcast phase measured last is the one every other path is compared with: with
 * {@code --media nio,native} nakcast on native, so the ratios to nakcast on nio are native / nio; with
 * {@code --auth} nakcast with authenticated datagrams, so the ratios to nakcast without are auth's cost.
 */
final class RttReport {
    /** The percentiles reported, in percent. */
    static final double[] PERCENTILES = {50, 90, 99, 99.9, 99.99};
    private static final String[] PERCENTILE_NAMES = {"p50", "p90", "p99", "p99.9", "p99.99"};
    private static final String[] JSON_NAMES = {"p50Us", "p90Us", "p99Us", "p999Us", "p9999Us"};
    private static final int PATH_COLUMN = 18;
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final int size;
    private final String mode;
    private final String idle;
    private final int lines;
    private final double loss;
    private final int rounds;
    private final List<RttResult> results;

    /**
     * @param size bytes per message
     * @param mode "back-to-back" or "rate N/s"
     * @param idle the idle strategy
     * @param lines the lines nakcast's topics travel on, 1 or 2
     * @param loss the kernel's loss on each of nakcast's transports, 0 for none
     * @param rounds the rounds the paths took turns in ({@code --rounds}), 1 for one turn each
     * @param results in the order measured: a nakcast phase last, the raw-udp baseline, the peers and
     *     nakcast's other phases before it
     */
    RttReport(int size, String mode, String idle, int lines, double loss, int rounds, List<RttResult> results) {
        this.size = size;
        this.mode = mode;
        this.idle = idle;
        this.lines = lines;
        this.loss = loss;
        this.rounds = rounds;
        this.results = List.copyOf(results);
    }

    /** The results, in the order measured. */
    List<RttResult> results() {
        return results;
    }

    /**
     * The table: a header, one row per path, and a ratio row nakcast / path for every other path;
     * the first column is as wide as its longest entry needs.
     */
    String table() {
        final List<RttResult> others = others();
        int width = PATH_COLUMN;
        for (RttResult other : others) {
            width = Math.max(width, ratioLabel(other).length() + 1);
        }
        final String pathFormat = "%-" + width + "s";
        final StringBuilder text = new StringBuilder(String.format(Locale.ROOT,
            "round trip in microseconds: %d-byte messages, %s, idle %s%s%s%s%n", size, mode, idle,
            rounds == 1 ? "" : ", paths taking turns in " + rounds + " rounds",
            lines == 1 ? "" : ", nakcast on " + lines + " lines",
            loss == 0 ? "" : String.format(Locale.ROOT, ", kernel loss %.2f%% on each of nakcast's transports",
                loss * 100)));
        text.append(String.format(Locale.ROOT, pathFormat, "path"));
        for (String name : PERCENTILE_NAMES) {
            text.append(String.format(Locale.ROOT, "%10s", name));
        }
        text.append(String.format(Locale.ROOT, "%10s%12s%6s%8s%n", "max", "round trips", "GCs", "NAKs"));
        for (RttResult result : results) {
            text.append(String.format(Locale.ROOT, pathFormat, result.link()));
            for (double percentile : PERCENTILES) {
                text.append(String.format(Locale.ROOT, "%10.2f", result.micros(percentile)));
            }
            text.append(String.format(Locale.ROOT, "%10.2f%12d%6d%8s%n", result.maxMicros(), result.roundTrips(),
                result.collections(), result.naksSent() == RttLink.NOT_COUNTED ? "-" : result.naksSent()));
        }
        for (RttResult other : others) {
            text.append(String.format(Locale.ROOT, pathFormat, ratioLabel(other)));
            for (double percentile : PERCENTILES) {
                text.append(String.format(Locale.ROOT, "%9.2fx", ratio(other, percentile)));
            }
            text.append(String.format(Locale.ROOT, "%9.2fx%n", maxRatio(other)));
        }
        return text.toString();
    }

    /**
     * The JSON line: size, mode, idle, lines, loss, rounds, then the last nakcast phase's count, percentiles,
     * max, GCs, NAKs sent and media; with the raw-udp baseline its figures prefixed {@code baseline} and
     * the ratios of the last nakcast phase to it, percentile by percentile ({@code ratioP50} ..
     * {@code ratioP9999}, {@code ratioMax}); with peers, under {@code peers}, an object per peer with
     * the same figures and ratios. nakcast's other phases each get an object with the same figures and
     * ratios, named for what sets them apart from the last one: {@code nio} (the last ran on native),
     * {@code unauthenticated} (the last authenticated its datagrams), or both: {@code nioUnauthenticated}.
     *
     * @param plot the PNG's path, or null
     */
    String json(String plot) {
        final Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("size", size);
        fields.put("mode", mode);
        fields.put("idle", idle);
        fields.put("lines", lines);
        fields.put("loss", loss);
        fields.put("rounds", rounds);
        putFigures(fields, "", nakcast());
        final Map<String, Object> peers = new LinkedHashMap<>();
        for (RttResult other : others()) {
            if (other.path() == LinkKind.RAW_UDP) {
                fields.put("baseline", other.link());
                putFigures(fields, "baseline", other);
                putRatios(fields, other);
            } else {
                final Map<String, Object> figures = new LinkedHashMap<>();
                putFigures(figures, "", other);
                putRatios(figures, other);
                if (other.path() instanceof NakcastPath phase) {
                    fields.put(difference(phase, (NakcastPath) nakcast().path()), figures);
                } else {
                    peers.put(other.link(), figures);
                }
            }
        }
        if (!peers.isEmpty()) {
            fields.put("peers", peers);
        }
        if (plot != null) {
            fields.put("plot", plot);
        }
        return JSON.writeValueAsString(fields);
    }

    /** nakcast's percentile over another path's. */
    double ratio(RttResult other, double percentile) {
        return nakcast().micros(percentile) / other.micros(percentile);
    }

    /** nakcast's largest round trip over another path's. */
    private double maxRatio(RttResult other) {
        return nakcast().maxMicros() / other.maxMicros();
    }

    /** The phase every other path is compared with: nakcast's last. */
    private RttResult nakcast() {
        return results.get(results.size() - 1);
    }

    /** Every path but nakcast's last phase, in the order measured. */
    private List<RttResult> others() {
        return results.subList(0, results.size() - 1);
    }

    private String ratioLabel(RttResult other) {
        return nakcast().link() + " / " + other.link();
    }

    /** The ratios of nakcast's last phase to {@code other}: each percentile's, then the max's. */
    private void putRatios(Map<String, Object> fields, RttResult other) {
        for (int i = 0; i < PERCENTILES.length; i++) {
            fields.put(name("ratio", PERCENTILE_NAMES[i].replace(".", "")), round(ratio(other, PERCENTILES[i])));
        }
        fields.put("ratioMax", round(maxRatio(other)));
    }

    /**
     * What sets a nakcast phase apart from the last one, as the name of its object in the JSON: its
     * media if that differs ({@code nio}), then {@code unauthenticated} (or {@code authenticated}) if
     * that differs: {@code nio}, {@code unauthenticated}, {@code nioUnauthenticated}.
     */
    private static String difference(NakcastPath phase, NakcastPath last) {
        final String media = phase.media() == last.media() ? "" : NakcastPath.mediaName(phase.media());
        return phase.authenticated() == last.authenticated() ? media
            : name(media, phase.authenticated() ? "authenticated" : "unauthenticated");
    }

    private static void putFigures(Map<String, Object> fields, String prefix, RttResult result) {
        fields.put(name(prefix, "count"), result.roundTrips());
        for (int i = 0; i < PERCENTILES.length; i++) {
            fields.put(name(prefix, JSON_NAMES[i]), round(result.micros(PERCENTILES[i])));
        }
        fields.put(name(prefix, "maxUs"), round(result.maxMicros()));
        fields.put(name(prefix, "gcCount"), result.collections());
        if (result.naksSent() != RttLink.NOT_COUNTED) {
            fields.put(name(prefix, "naksSent"), result.naksSent());
        }
        if (result.path() instanceof NakcastPath phase) {
            fields.put(name(prefix, "media"), NakcastPath.mediaName(phase.media()));
        }
    }

    private static String name(String prefix, String field) {
        return prefix.isEmpty() ? field : prefix + Character.toUpperCase(field.charAt(0)) + field.substring(1);
    }

    private static double round(double value) {
        return Math.round(value * 1000) / 1000.0;
    }
}
