package org.nakcast.transport;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.agrona.DirectBuffer;
import org.junit.jupiter.api.Test;

/**
 * The check of nakcast's one JVM flag. This test JVM has the flag (ops/jvm.options), so the check
 * passes for Agrona; a module that {@code java.base} exports nothing internal to ({@code java.sql})
 * stands for a JVM without it. {@code MissingJvmFlagIT} launches a node in a JVM without the flag.
 */
class AgronaAccessTest {
    @Test
    void passesWhenTheFlagIsGiven() {
        assertThatCode(AgronaAccess::check).doesNotThrowAnyException();
        assertThatCode(() -> AgronaAccess.check(DirectBuffer.class.getModule())).doesNotThrowAnyException();
    }

    @Test
    void namesTheFlagForTheModuleThatLacksIt() {
        final Module notExported = ModuleLayer.boot().findModule("java.sql").orElseThrow();
        assertThatThrownBy(() -> AgronaAccess.check(notExported))
            .isInstanceOf(TransportException.class)
            .hasMessageStartingWith("nakcast needs the JVM flag --add-exports java.base/jdk.internal.misc=java.sql:")
            .hasMessageContaining("ops/jvm.options");
    }
}
