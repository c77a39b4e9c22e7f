package org.nakcast.transport.media;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Which media a node gets for the name its configuration gives, where the native module is not on the class path. */
class MediaChoiceTest {
    @Test
    void nioIsAlwaysThere() {
        final MediaChoice choice = MediaChoice.of("nio");

        assertThat(choice.media()).isInstanceOf(NioMedia.class);
        assertThat(choice.fellBack()).isFalse();
        assertThat(choice.fallbackReason()).isNull();
    }

    @Test
    void nativeWithoutItsModuleFallsBackToNioAndSaysWhichModuleIsMissing() {
        final MediaChoice choice = MediaChoice.of("NATIVE");

        assertThat(choice.media()).isInstanceOf(NioMedia.class);
        assertThat(choice.fellBack()).isTrue();
        assertThat(choice.fallbackReason()).contains("'native'").contains("nakcast-media-native")
            .contains("JDK 22");
    }
}
