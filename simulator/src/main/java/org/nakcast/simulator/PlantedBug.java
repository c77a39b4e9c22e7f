package org.nakcast.simulator;

import java.nio.file.Path;

/**
 * One bug planted in the protocol to test the simulator: one exact text replacement in one source
 * file. {@code ops/mutation} plants each in turn and runs the simulation, which must catch it.
 *
 * @param id a short name, unique in the list
 * @param file the source file, relative to the repository root
 * @param what one line saying what the bug is
 * @param original the text the bug replaces; it must occur exactly once in {@code file}
 * @param replacement the text put in its place
 */
record PlantedBug(String id, String file, String what, String original, String replacement) {
    /** The name of the class the bug is planted in: the file's name without {@code .java}. */
    String className() {
        final String name = Path.of(file).getFileName().toString();
        return name.endsWith(".java") ? name.substring(0, name.length() - ".java".length()) : name;
    }

    /**
     * The source with the bug planted.
     *
     * @param source the text of {@link #file} as it is now
     * @throws IllegalStateException naming the bug and its file when {@link #original} does not occur
     *     exactly once: the code it was written against moved, and the bug must be written again
     *     for where the code is now
     */
    String plantIn(String source) {
        final int occurrences = occurrences(source, original);
        if (occurrences != 1) {
            throw new IllegalStateException(("planted bug %s: its original text occurs %d times in %s, not exactly"
                + " once; the code moved: write the bug again for where the code is now").formatted(id, occurrences,
                file));
        }
        final int at = source.indexOf(original);
        return source.substring(0, at) + replacement + source.substring(at + original.length());
    }

    /** How many times {@code text} occurs in {@code source}, overlapping occurrences counted. */
    private static int occurrences(String source, String text) {
        int count = 0;
        for (int at = source.indexOf(text); at >= 0; at = source.indexOf(text, at + 1)) {
            count++;
        }
        return count;
    }
}
