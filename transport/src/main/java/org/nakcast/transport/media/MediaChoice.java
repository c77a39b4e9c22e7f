package org.nakcast.transport.media;

import java.util.Locale;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;

/**
 * The media a node runs on: the one its configuration names if it is on the class path and works
 * here, else {@code nio}, with the reason it fell back.
 *
 * @param media the media chosen
 * @param fallbackReason null if it is the one asked for; else why that one could not be used
 */
public record MediaChoice(Media media, String fallbackReason) {
    /**
     * Chooses among {@code nio} and the media found with {@link ServiceLoader} on the class path of
     * {@link Media}'s class loader. A provider that cannot be loaded (its classes need a newer JDK)
     * or says it is unavailable here is passed over, and the reason kept.
     *
     * @param asked the name configured ({@code nio}, {@code native}), any case
     */
    public static MediaChoice of(String asked) {
        final String name = asked.toLowerCase(Locale.ROOT);
        final NioMedia nio = new NioMedia();
        if (name.equals(NioMedia.NAME)) {
            return new MediaChoice(nio, null);
        }
        String reason = "no media named '" + name + "' is on the class path (the native media is the module"
            + " nakcast-media-native, on JDK 22 or later)";
        try {
            for (Media found : ServiceLoader.load(Media.class, Media.class.getClassLoader())) {
                if (found.name().equals(name)) {
                    final String unavailable = found.unavailableBecause();
                    if (unavailable == null) {
                        return new MediaChoice(found, null);
                    }
                    reason = unavailable;
                }
            }
        } catch (ServiceConfigurationError | LinkageError ex) {
            reason = "the media on the class path cannot be loaded in this JVM (Java "
                + Runtime.version().feature() + "): " + ex.getMessage();
        }
        return new MediaChoice(nio, reason);
    }

    /** Whether the media asked for could not be used. */
    public boolean fellBack() {
        return fallbackReason != null;
    }
}
