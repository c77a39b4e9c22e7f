package org.nakcast.benchmarks.codec;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.agrona.concurrent.UnsafeBuffer;
import org.nakcast.codecs.Codec;
import org.nakcast.codecs.CodecNames;
import org.nakcast.codecs.CodecRegistry;
import org.nakcast.codecs.sample.SampleMessages;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;

/**
 * The codec benchmark's table: one row per codec (and the baseline) from JMH's results, rates in
 * million operations per second (the benchmarks report operations per microsecond), allocation
 * from the GC profiler's {@code gc.alloc.rate.norm}.
 */
final class CodecTable {
    static final String BASELINE = "putLong/getLong (baseline)";
    static final String FLYWEIGHT_OBJECT_PATH = "flyweight (object path)";

    private static final String ALLOCATION = "gc.alloc.rate.norm";
    private static final String HEADER_FORMAT = "%-28s %14s %14s %12s %10s %12s %12s%n";
    private static final String ROW_FORMAT = "%-28s %14.2f %14.2f %12.2f %10d %12.1f %12.1f%n";

    private final List<Row> rows;

    private CodecTable(List<Row> rows) {
        this.rows = rows;
    }

    /**
     * One codec's figures.
     *
     * @param codec            the row's name
     * @param encodeMops       encodes per second, millions
     * @param encodeError      the 99.9% confidence half-interval of that
     * @param decodeMops       decodes per second, millions
     * @param decodeError      the 99.9% confidence half-interval of that
     * @param bytesPerMessage  the encoded sample's length
     * @param encodeBytesPerOp bytes allocated per encode
     * @param decodeBytesPerOp bytes allocated per decode
     */
    record Row(String codec, double encodeMops, double encodeError, double decodeMops, double decodeError,
               int bytesPerMessage, double encodeBytesPerOp, double decodeBytesPerOp) {
        double minMops() {
            return Math.min(encodeMops, decodeMops);
        }
    }

    static CodecTable of(Collection<RunResult> results) {
        final Map<String, Result<?>[]> byRow = new LinkedHashMap<>();
        for (final String name : rowOrder()) {
            byRow.put(name, new Result<?>[4]);
        }
        for (final RunResult result : results) {
            final String benchmark = result.getParams().getBenchmark();
            final String method = benchmark.substring(benchmark.lastIndexOf('.') + 1);
            final Result<?>[] figures = byRow.get(rowName(benchmark, result.getParams().getParam("codec")));
            final int column = "encode".equals(method) ? 0 : 2;
            figures[column] = result.getPrimaryResult();
            figures[column + 1] = allocation(result);
        }
        final List<Row> rows = new ArrayList<>();
        byRow.forEach((name, figures) -> {
            if (figures[0] != null && figures[2] != null) {
                rows.add(new Row(name, figures[0].getScore(), figures[0].getScoreError(), figures[2].getScore(),
                    figures[2].getScoreError(), bytesPerMessage(name), score(figures[1]), score(figures[3])));
            }
        });
        return new CodecTable(rows);
    }

    String render() {
        final StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT, HEADER_FORMAT, "codec", "encode Mops/s", "decode Mops/s",
            "min Mops/s", "bytes/msg", "B/op encode", "B/op decode"));
        for (final Row row : rows) {
            out.append(String.format(Locale.ROOT, ROW_FORMAT, row.codec(), row.encodeMops(), row.decodeMops(),
                row.minMops(), row.bytesPerMessage(), row.encodeBytesPerOp(), row.decodeBytesPerOp()));
        }
        return out.toString();
    }

    String toJson() {
        final StringBuilder out = new StringBuilder("[\n");
        for (int i = 0; i < rows.size(); i++) {
            final Row row = rows.get(i);
            out.append(String.format(Locale.ROOT, "  {\"codec\": \"%s\", \"encodeMops\": %.4f, \"encodeError\": %.4f,"
                    + " \"decodeMops\": %.4f, \"decodeError\": %.4f, \"minMops\": %.4f, \"bytesPerMessage\": %d,"
                    + " \"encodeBytesPerOp\": %.2f, \"decodeBytesPerOp\": %.2f}%s%n",
                row.codec(), row.encodeMops(), finite(row.encodeError()), row.decodeMops(), finite(row.decodeError()),
                row.minMops(), row.bytesPerMessage(), row.encodeBytesPerOp(), row.decodeBytesPerOp(),
                i + 1 < rows.size() ? "," : ""));
        }
        return out.append("]\n").toString();
    }

    private static List<String> rowOrder() {
        return List.of(BASELINE, CodecNames.FLYWEIGHT, FLYWEIGHT_OBJECT_PATH, CodecNames.FST_UNSHARED,
            CodecNames.FST, CodecNames.KRYO, CodecNames.JDK_EXTERNALIZABLE, CodecNames.JDK);
    }

    private static String rowName(String benchmark, String codecParam) {
        if (benchmark.contains(RawBufferBenchmark.class.getSimpleName())) {
            return BASELINE;
        }
        if (benchmark.contains(FlyweightCodecBenchmark.class.getSimpleName())) {
            return CodecNames.FLYWEIGHT;
        }
        return CodecNames.FLYWEIGHT.equals(codecParam) ? FLYWEIGHT_OBJECT_PATH : codecParam;
    }

    private static Result<?> allocation(RunResult result) {
        for (final String key : result.getSecondaryResults().keySet()) {
            if (key.endsWith(ALLOCATION)) {
                return result.getSecondaryResults().get(key);
            }
        }
        return null;
    }

    private static double score(Result<?> result) {
        return result == null ? Double.NaN : result.getScore();
    }

    private static double finite(double value) {
        return Double.isFinite(value) ? value : 0;
    }

    private static int bytesPerMessage(String row) {
        if (BASELINE.equals(row)) {
            return Long.BYTES;
        }
        final String codecName = FLYWEIGHT_OBJECT_PATH.equals(row) ? CodecNames.FLYWEIGHT : row;
        @SuppressWarnings("unchecked")
        final Codec<Object> codec = (Codec<Object>) CodecRegistry.create().create(SampleMessages.priceUpdateSpec(
            codecName));
        return codec.encode(SampleMessages.samplePriceUpdate(codecName), new UnsafeBuffer(new byte[CodecBench
            .DATAGRAM_SIZE]), 0, CodecBench.DATAGRAM_SIZE);
    }
}
