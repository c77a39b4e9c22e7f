package org.nakcast.media.linux;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The JIT directives the native media needs, and the words when a JVM lacks them. */
class JitDirectivesTest {
    @Test
    void thisTestJvmWasStartedWithEveryDirectiveOfTheOptionsFile() {
        assertThat(JitDirectives.compileCommands()).isNotNull();
        assertThat(JitDirectives.missing(JitDirectives.compileCommands())).isNull();
    }

    @Test
    void aJvmWithoutThemIsToldWhichLinesAreMissing() {
        final String missing = JitDirectives.missing("quiet\ndontinline,org.nakcast.media.linux.UdpSocket::sendBatch");

        assertThat(missing)
            .contains("-XX:CompileCommand=dontinline,org.nakcast.media.linux.UdpSocket::receiveBatch")
            .doesNotContain("sendBatch")
            .contains("ops/jvm-native.options");
        assertThat(JitDirectives.missing("")).contains("sendBatch").contains("receiveBatch");
    }

    @Test
    void aJvmWhoseFlagsCannotBeReadIsNotWarnedAbout() {
        assertThat(JitDirectives.missing(null)).isNull();
    }
}
