package org.nakcast.transport;

import org.agrona.DirectBuffer;

/**
 * The one JVM flag nakcast needs, checked before anything touches Agrona's buffers: Agrona reaches
 * {@code jdk.internal.misc.Unsafe}, which {@code java.base} exports only when the java command says
 * {@value #FLAG} (for Agrona on the class path; on the module path, {@code =ALL-UNNAMED} becomes
 * Agrona's module name). Without it the first buffer Agrona makes fails with a bare
 * {@link IllegalAccessError} from inside Agrona; {@link Node#launch} calls {@link #check()} first,
 * so the error names the flag instead.
 */
final class AgronaAccess {
    /** The flag, for Agrona on the class path; {@code ops/jvm.options} holds it. */
    static final String FLAG = "--add-exports java.base/jdk.internal.misc=ALL-UNNAMED";

    private static final String PACKAGE = "jdk.internal.misc";

    private AgronaAccess() {
    }

    /**
     * @throws TransportException naming the flag, if this JVM was started without it
     */
    static void check() {
        check(DirectBuffer.class.getModule());
    }

    /**
     * @param agrona the module Agrona's classes are in (unnamed on the class path)
     * @throws TransportException naming the flag, if {@code java.base} does not export
     *     {@code jdk.internal.misc} to that module
     */
    static void check(Module agrona) {
        if (!Object.class.getModule().isExported(PACKAGE, agrona)) {
            final String flag = agrona.isNamed() ? "--add-exports java.base/" + PACKAGE + "=" + agrona.getName()
                : FLAG;
            throw new TransportException("nakcast needs the JVM flag " + flag + ": Agrona, under nakcast's"
                + " buffers and counters, uses " + PACKAGE + ".Unsafe, which java.base exports to "
                + (agrona.isNamed() ? "module " + agrona.getName() : "the class path") + " only with that flag."
                + " Add it to the java command (it is the one line of ops/jvm.options: java @ops/jvm.options ...)");
        }
    }
}
