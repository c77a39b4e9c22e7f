package org.nakcast.transport.status;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A node's counters file held by another process, for tests: makes the counters file named by its
 * argument and prints {@code held}, or prints {@code refused: } and why; holds the file until its
 * standard input ends.
 */
public final class CountersFileHolder {
    private CountersFileHolder() {
    }

    /**
     * @param args the counters file
     * @throws IOException if standard input cannot be read
     */
    public static void main(String[] args) throws IOException {
        final CountersFile file;
        try {
            file = CountersFile.create(Path.of(args[0]), "holder", false);
        } catch (IllegalStateException refused) {
            System.out.println("refused: " + refused.getMessage());
            return;
        }
        System.out.println("held");
        while (System.in.read() >= 0) {
            // held until the test closes this process's standard input
        }
        file.close();
    }
}
