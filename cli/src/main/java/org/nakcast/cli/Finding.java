package org.nakcast.cli;

/**
 * One line of {@code check-host}'s report: how it stands, what was checked, and the command that
 * fixes it (empty when there is nothing to fix).
 *
 * @param level OK, WARN or FAIL
 * @param message what was found, with the numbers
 * @param fix the command or config change that fixes it; empty for OK
 */
record Finding(Level level, String message, String fix) {
    /** How a check came out. */
    enum Level {
        /** As nakcast needs it. */
        OK,
        /** Works, but worth a look; said why. */
        WARN,
        /** nakcast will not work as configured, or will lose data under load, until fixed. */
        FAIL
    }

    static Finding ok(String message) {
        return new Finding(Level.OK, message, "");
    }

    static Finding warn(String message, String fix) {
        return new Finding(Level.WARN, message, fix);
    }

    static Finding fail(String message, String fix) {
        return new Finding(Level.FAIL, message, fix);
    }

    /** The report line(s): level, message, and the fix on a line of its own. */
    String render() {
        return "%-4s  %s%s".formatted(level, message, fix.isEmpty() ? "" : "%n      fix: %s".formatted(fix));
    }
}
