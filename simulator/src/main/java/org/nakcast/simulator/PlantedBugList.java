package org.nakcast.simulator;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Reads the list of planted bugs, {@code planted-bugs.txt} beside this class. Each bug is a block:
 *
 * <pre>
 *   [history-half-of-configured]
 *   file: transport/src/main/java/org/nakcast/transport/publish/DatagramHistory.java
 *   what: the history keeps half the datagrams configured
 *   --- original
 *           return Integer.highestOneBit((int) slots);
 *   --- replacement
 *           return Integer.highestOneBit((int) slots - 1);
 *   --- end
 * </pre>
 *
 * <p>The id in brackets (lower-case letters, digits and dashes, unique in the list), then the keys
 * {@code file} (relative to the repository root) and {@code what} (one line), each once, then the
 * original text and its replacement. The lines between the {@code --- original},
 * {@code --- replacement} and {@code --- end} markers are taken as they are, indentation and blank
 * lines included, joined by line breaks (the last line's break is not part of the text); a marker
 * is a line of exactly that text, and no line of the texts may begin with {@code "--- "}. Outside a
 * bug, blank lines and lines starting with {@code #} are comments. The original may not be empty,
 * and the replacement must differ from it.
 */
final class PlantedBugList {
    /** The list kept with the simulator, read from the class path. */
    static final String RESOURCE = "planted-bugs.txt";

    private static final Pattern ID = Pattern.compile("[a-z0-9]+(-[a-z0-9]+)*");
    /** How every marker line begins; no line of an original or a replacement may. */
    private static final String MARKER = "--- ";
    private static final String ORIGINAL = "--- original";
    private static final String REPLACEMENT = "--- replacement";
    private static final String END = "--- end";

    private final String source;
    private final String[] lines;
    private int next;

    private PlantedBugList(String text, String source) {
        this.source = source;
        this.lines = text.split("\r?\n", -1);
    }

    /** The bugs of the list kept with the simulator. */
    static List<PlantedBug> load() {
        try (InputStream in = PlantedBugList.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is not on the class path");
            }
            return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8), RESOURCE);
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    /**
     * The bugs {@code text} lists.
     *
     * @param source the name of the text, for the errors
     * @throws IllegalArgumentException naming the source and line of the first error
     */
    static List<PlantedBug> parse(String text, String source) {
        return new PlantedBugList(text, source).bugs();
    }

    private List<PlantedBug> bugs() {
        final List<PlantedBug> bugs = new ArrayList<>();
        final Set<String> ids = new HashSet<>();
        while (next < lines.length) {
            final String line = lines[next++];
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            if (!line.startsWith("[") || !line.endsWith("]")) {
                throw error(next, "expected a bug's [id], found: " + line);
            }
            final String id = line.substring(1, line.length() - 1);
            if (!ID.matcher(id).matches()) {
                throw error(next, "a bug's id is lower-case letters, digits and dashes: " + id);
            }
            if (!ids.add(id)) {
                throw error(next, "bug " + id + " is listed twice");
            }
            bugs.add(bug(id, next));
        }
        return bugs;
    }

    /** The rest of the bug whose id is on line {@code idLine}: its keys, original and replacement. */
    private PlantedBug bug(String id, int idLine) {
        String file = null;
        String what = null;
        while (next < lines.length && !lines[next].equals(ORIGINAL)) {
            final int lineNumber = next + 1;
            final String line = lines[next++];
            final int colon = line.indexOf(':');
            final String key = colon < 0 ? line : line.substring(0, colon).strip();
            final String value = colon < 0 ? "" : line.substring(colon + 1).strip();
            if (value.isEmpty()) {
                throw error(lineNumber, "bug " + id + ": expected 'file: ...', 'what: ...' or '" + ORIGINAL
                    + "', found: " + line);
            }
            switch (key) {
                case "file" -> file = once(file, value, id, "file", lineNumber);
                case "what" -> what = once(what, value, id, "what", lineNumber);
                default -> throw error(lineNumber, "bug " + id + ": unknown key '" + key + "' (file, what)");
            }
        }
        if (file == null || what == null) {
            throw error(idLine, "bug " + id + " needs both 'file:' and 'what:' before '" + ORIGINAL + "'");
        }
        final String original = text(id, ORIGINAL, REPLACEMENT);
        final String replacement = text(id, REPLACEMENT, END);
        next++;
        if (original.isEmpty()) {
            throw error(idLine, "bug " + id + ": the original text is empty");
        }
        if (original.equals(replacement)) {
            throw error(idLine, "bug " + id + ": the replacement is the original text: nothing is planted");
        }
        return new PlantedBug(id, file, what, original, replacement);
    }

    private String once(String earlier, String value, String id, String key, int lineNumber) {
        if (earlier != null) {
            throw error(lineNumber, "bug " + id + ": '" + key + ":' given twice");
        }
        return value;
    }

    /**
     * The lines between the {@code opening} marker, which is the next line, and the {@code closing}
     * marker, joined; the closing marker is left to read next.
     */
    private String text(String id, String opening, String closing) {
        if (next >= lines.length || !lines[next].equals(opening)) {
            throw error(next + 1, "bug " + id + ": expected '" + opening + "'");
        }
        final int first = ++next;
        while (next < lines.length && !lines[next].equals(closing)) {
            if (lines[next].startsWith(MARKER)) {
                throw error(next + 1, "bug " + id + ": expected '" + closing + "', found: " + lines[next]);
            }
            next++;
        }
        if (next >= lines.length) {
            throw error(first, "bug " + id + ": '" + opening + "' is never closed by '" + closing + "'");
        }
        return String.join("\n", List.of(lines).subList(first, next));
    }

    private IllegalArgumentException error(int lineNumber, String message) {
        return new IllegalArgumentException(source + " line " + lineNumber + ": " + message);
    }
}
