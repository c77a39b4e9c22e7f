package org.nakcast.benchmarks.child;

import java.io.BufferedReader;
import java.io.IOException;

/**
 * The lines the orchestrator and its two child JVMs exchange, one word first, on the children's
 * standard input and output:
 *
 * <pre>
 *   subscriber -&gt; READY                  subscribed: the publisher may start
 *   publisher  -&gt; OFFERED n              done offering n messages; keeps answering NAKs
 *   orchestrator -&gt; subscriber: EXPECT n wait until n messages are delivered or reported lost
 *   subscriber -&gt; RESULT name=value ...  its figures; it then exits
 *   orchestrator -&gt; publisher: STOP      the subscriber is done
 *   publisher  -&gt; RESULT name=value ...  its figures; it then exits
 * </pre>
 *
 * Anything else a child prints on standard output is passed through to the orchestrator's
 * standard error.
 */
public final class ChildProtocol {
    public static final String READY = "READY";
    public static final String OFFERED = "OFFERED";
    public static final String EXPECT = "EXPECT";
    public static final String STOP = "STOP";
    public static final String RESULT = "RESULT";

    private ChildProtocol() {
    }

    /** Prints one protocol line on standard output and flushes it. */
    public static void say(String word, Object... rest) {
        final StringBuilder line = new StringBuilder(word);
        for (Object part : rest) {
            line.append(' ').append(part);
        }
        System.out.println(line);
        System.out.flush();
    }

    /**
     * Reads lines until one starts with {@code word}.
     *
     * @return the rest of that line, trimmed
     * @throws IOException if the input ends first
     */
    public static String await(BufferedReader in, String word) throws IOException {
        String line;
        while ((line = in.readLine()) != null) {
            if (line.equals(word) || line.startsWith(word + " ")) {
                return line.substring(word.length()).trim();
            }
        }
        throw new IOException("input ended before " + word);
    }
}
