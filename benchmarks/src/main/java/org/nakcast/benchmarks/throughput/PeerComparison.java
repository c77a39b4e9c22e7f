package org.nakcast.benchmarks.throughput;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.nakcast.benchmarks.child.Figures;

/**
 * nakcast against its peers, per kernel loss level: for each nakcast run without injected loss or
 * stranger, its settings (its datagram size is every system's), its delivered rate, each peer's at
 * the same loss level, and the ratio nakcast/peer, with the messages each one left unaccounted
 * (offered, neither delivered nor reported lost). A peer run that failed, or is missing, shows
 * {@code -}.
 */
final class PeerComparison {
    private static final List<Contender> PEERS = List.of(Contender.AERON, Contender.FAST_CAST);

    private PeerComparison() {
    }

    /**
     * One nakcast run and the peers at its loss level.
     *
     * @param nakcast the nakcast run
     * @param peers each peer's run at the same kernel loss, in {@link #PEERS} order; null where there is none
     */
    record Row(RunResult nakcast, List<RunResult> peers) {
        /** nakcast's rate over the peer's, NaN where either has none. */
        double ratio(int peer) {
            final RunResult other = peers.get(peer);
            if (other == null || other.isFailed() || nakcast.isFailed()) {
                return Double.NaN;
            }
            return rate(nakcast) / rate(other);
        }

        String toJson() {
            final StringBuilder json = new StringBuilder("{\"loss\": ")
                .append(Figures.format(nakcast.settings().loss()))
                .append(", \"rateText\": \"").append(nakcast.settings().rateText()).append('"')
                .append(", \"flowControl\": \"").append(ThroughputTable.flowControl(nakcast.settings()))
                .append('"')
                .append(", \"nakcast\": ").append(jsonRate(nakcast))
                .append(", \"peers\": {");
            for (int i = 0; i < PEERS.size(); i++) {
                json.append(i == 0 ? "" : ", ").append('"').append(PEERS.get(i).label())
                    .append("\": {\"deliveredPerSecond\": ").append(jsonRate(peers.get(i)))
                    .append(", \"nakcastOverPeer\": ").append(jsonNumber(ratio(i))).append('}');
            }
            return json.append("}}").toString();
        }
    }

    /** The rows: every nakcast run without injected loss, with the peers' runs at its loss level. */
    static List<Row> rows(List<RunResult> results) {
        final List<Row> rows = new ArrayList<>();
        for (RunResult result : results) {
            final RunSettings settings = result.settings();
            if (settings.system() != Contender.NAKCAST || settings.injectedLoss() != 0
                || !settings.strangerNaks().isZero()) {
                continue;
            }
            final List<RunResult> peers = new ArrayList<>();
            for (Contender peer : PEERS) {
                peers.add(results.stream()
                    .filter(other -> other.settings().system() == peer && other.settings().loss() == settings.loss())
                    .findFirst().orElse(null));
            }
            if (peers.stream().anyMatch(peer -> peer != null)) {
                rows.add(new Row(result, peers));
            }
        }
        return rows;
    }

    /** The comparison table: a title, the column titles and one line per row; empty without rows. */
    static String table(List<Row> rows) {
        if (rows.isEmpty()) {
            return "";
        }
        final StringBuilder table = new StringBuilder(String.format(Locale.ROOT,
            "%nnakcast against its peers: recv M/s, ratio nakcast/peer,"
                + " unacct (offered - delivered - reported lost)%n"));
        table.append(String.format(Locale.ROOT, "%6s %-10s %3s %5s %11s %9s", "loss", "rate", "fc", "dgram",
            "nakcast M/s", "unacct"));
        for (Contender peer : PEERS) {
            table.append(String.format(Locale.ROOT, " %14s %14s %9s", peer.label() + " M/s", "nakcast/" + peer.label(),
                "unacct"));
        }
        table.append(String.format(Locale.ROOT, "%n"));
        for (Row row : rows) {
            final RunSettings settings = row.nakcast().settings();
            table.append(String.format(Locale.ROOT, "%6s %-10s %3s %5s %11s %9s",
                ThroughputTable.percent(settings.loss()), settings.rateText(), ThroughputTable.flowControl(settings),
                settings.datagramSize(), textRate(row.nakcast()), textUnaccounted(row.nakcast())));
            for (int i = 0; i < PEERS.size(); i++) {
                final double ratio = row.ratio(i);
                table.append(String.format(Locale.ROOT, " %14s %14s %9s", textRate(row.peers().get(i)),
                    Double.isNaN(ratio) ? "-" : String.format(Locale.ROOT, "%.2fx", ratio),
                    textUnaccounted(row.peers().get(i))));
            }
            table.append(String.format(Locale.ROOT, "%n"));
        }
        return table.toString();
    }

    private static double rate(RunResult result) {
        return result.subscriber().doubleValue("deliveredPerSecond");
    }

    private static String textRate(RunResult result) {
        return result == null || result.isFailed() ? "-" : ThroughputTable.millions(rate(result));
    }

    private static String textUnaccounted(RunResult result) {
        return result == null || result.isFailed() ? "-" : Long.toString(result.unaccounted());
    }

    private static String jsonRate(RunResult result) {
        return result == null || result.isFailed() ? "null" : jsonNumber(rate(result));
    }

    private static String jsonNumber(double value) {
        return Double.isFinite(value) ? Figures.format(value) : "null";
    }
}
