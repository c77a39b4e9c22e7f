package org.nakcast.codecs;

/**
 * Sizes of the sample SBE messages, as the schema fixes them.
 */
final class SbeCodecLayout {
    /** Header 8 + instrument (8 + 8) + qty 4 + price 8. */
    static final int PRICE_UPDATE_LENGTH = 36;

    private SbeCodecLayout() {
    }
}
