package org.nakcast.rtt;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** Reads text shipped in the jar. */
final class Resources {
    private Resources() {
    }

    /** The UTF-8 text of a classpath resource of this module. */
    static String text(String resource) {
        try (InputStream in = Resources.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("resource " + resource + " is missing from the jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException ex) {
            throw new UncheckedIOException("cannot read resource " + resource, ex);
        }
    }
}
