package org.nakcast.config;

import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * "Did you mean" for names a user typed: keys, transports, codecs, interfaces, enum values.
 * Closeness is the optimal-string-alignment edit distance, ignoring case, so a swapped pair of
 * letters ({@code trasnport}) counts as one edit.
 */
final class Spelling {
    private Spelling() {
    }

    /**
     * The hint for a name that is not known: the closest known name when one is close enough,
     * then every known name, closest first.
     *
     * @param typed what the user wrote
     * @param known the names that would have been accepted
     * @param label what the known names are, e.g. "known keys"
     * @return e.g. {@code did you mean 'transport'? known keys: transport, name, ...}
     */
    static String hint(String typed, Collection<String> known, String label) {
        List<String> ranked = closestFirst(typed, known);
        String listing = label + ": " + (ranked.isEmpty() ? "none" : String.join(", ", ranked));
        return closeMatch(typed, ranked).map(name -> "did you mean '" + name + "'? " + listing).orElse(listing);
    }

    /** @return the known names ordered by closeness to {@code typed}, ties in alphabetical order */
    static List<String> closestFirst(String typed, Collection<String> known) {
        return known.stream()
            .sorted(Comparator.comparingInt((String name) -> distance(typed, name)).thenComparing(name -> name))
            .toList();
    }

    private static Optional<String> closeMatch(String typed, List<String> ranked) {
        return ranked.stream().findFirst().filter(best -> distance(typed, best) <= Math.max(1, typed.length() / 3));
    }

    /**
     * The optimal-string-alignment distance: insertions, deletions, substitutions and swaps of
     * two neighbouring letters each cost one; case is ignored.
     */
    static int distance(String first, String second) {
        String a = first.toLowerCase(Locale.ROOT);
        String b = second.toLowerCase(Locale.ROOT);
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) {
            d[i][0] = i;
        }
        for (int j = 0; j <= b.length(); j++) {
            d[0][j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
                }
            }
        }
        return d[a.length()][b.length()];
    }
}
