package org.nakcast.benchmarks.soak;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.nakcast.benchmarks.child.Figures;

import tools.jackson.databind.json.JsonMapper;

/**
 * The end of a soak run on standard output: the publishers' sessions, one row per subscriber
 * host, the verdict, and one JSON line with all of it and every counter reported.
 *
 * <pre>
 * host  subscriber          sent    received  declared gap   missing  dups  silent skips  lost  NAKs sent
 *    2  ran throughout   1200000     1200000             0         0     0             0     0          0
 * </pre>
 */
final class SoakReport {
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String ROW = "%4s  %-16s %11s %11s %13s %9s %5s %13s %5s %10s%n";

    private SoakReport() {
    }

    static void print(PrintStream out, double seconds, long rate, double loss, List<Figures> publishers,
        List<SoakVerdict.HostOutcome> hosts, List<Figures> subscriberReports, boolean ok) {
        for (int i = 0; i < publishers.size(); i++) {
            final Figures publisher = publishers.get(i);
            out.printf("publisher %d: session %d sent %,d messages; NAKs received %,d, retransmits %,d, "
                    + "unrecoverable answers %,d, errors %d%n", i + 1, publisher.longValue("session"),
                publisher.longValue("sent"), publisher.longValue("naksReceived"),
                publisher.longValue("retransmitsSent"), publisher.longValue("unrecoverableSent"),
                publisher.longValue("errors"));
        }
        out.printf(ROW, "host", "subscriber", "sent", "received", "declared gap", "missing", "dups", "silent skips",
            "lost", "NAKs sent");
        for (int i = 0; i < hosts.size(); i++) {
            final SoakVerdict.HostOutcome host = hosts.get(i);
            out.printf(ROW, host.host(), host.restarted() ? "killed, restarted" : "ran throughout",
                host.sent(), host.received(), host.declaredGap(), host.missing(), host.duplicates(),
                host.skippedSilently(), host.lost(), subscriberReports.get(i).longValue("naksSent"));
        }
        out.println(ok ? "OK: every subscriber got every message it owed, exactly once and in order; none lost"
            : "FAILED: a subscriber missed messages, got one twice, or skipped some silently (see the rows)");
        out.println(json(seconds, rate, loss, publishers, hosts, subscriberReports, ok));
    }

    private static String json(double seconds, long rate, double loss, List<Figures> publishers,
        List<SoakVerdict.HostOutcome> hosts, List<Figures> subscriberReports, boolean ok) {
        final Map<String, Object> report = new LinkedHashMap<>();
        report.put("system", "nakcast-soak");
        report.put("seconds", seconds);
        report.put("rate", rate);
        report.put("loss", loss);
        report.put("publishers", publishers.stream().map(Figures::asMap).toList());
        final List<Map<String, Object>> rows = new ArrayList<>();
        for (int i = 0; i < hosts.size(); i++) {
            final SoakVerdict.HostOutcome host = hosts.get(i);
            final Map<String, Object> row = new LinkedHashMap<>();
            row.put("host", host.host());
            row.put("restarted", host.restarted());
            row.put("sent", host.sent());
            row.put("received", host.received());
            row.put("declaredGap", host.declaredGap());
            row.put("missing", host.missing());
            row.put("duplicates", host.duplicates());
            row.put("skippedSilently", host.skippedSilently());
            row.put("lost", host.lost());
            row.put("report", subscriberReports.get(i).asMap());
            rows.add(row);
        }
        report.put("hosts", rows);
        report.put("ok", ok);
        return JSON.writeValueAsString(report);
    }
}
