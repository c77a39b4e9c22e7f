package org.nakcast.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

class NakcastHelpTest {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @Test
    void everyOptionOfPubAndSubIsExplained() {
        final CommandLine nakcast = Nakcast.commandLine(print(out), print(err));
        for (String name : new String[] {"pub", "sub"}) {
            final CommandLine command = nakcast.getSubcommands().get(name);
            for (OptionSpec option : command.getCommandSpec().options()) {
                assertThat(String.join(" ", option.description())).as("%s %s", name, option.longestName())
                    .hasSizeGreaterThan(15);
            }
        }
    }

    @Test
    void theHelpSaysWhereTheCommandsSend() {
        assertThat(Nakcast.run(print(out), print(err), "--help")).isZero();
        assertThat(text(out).replaceAll("\\s+", " "))
            .contains("Run it inside a network namespace or on a real LAN host; sends multicast on the NIC the "
                + "config names.")
            .contains("pub").contains("sub");

        out.reset();
        assertThat(Nakcast.run(print(out), print(err), "pub", "--help")).isZero();
        assertThat(text(out)).contains("--count=N", "--rate=R", "--size=S", "--linger=SECONDS",
            "--receiver-timeout=SECONDS", "--config=FILE", "--topic=TOPIC", "Exit codes");
        assertThat(text(out).replaceAll("\\s+", " ")).contains("network namespace or on a real LAN host");

        out.reset();
        assertThat(Nakcast.run(print(out), print(err), "sub", "--help")).isZero();
        assertThat(text(out)).contains("--expect=N", "--timeout=SECONDS", "--start-timeout=SECONDS",
            "--linger=SECONDS", "--config=FILE",
            "--topic=TOPIC", "Exit codes");
    }

    @Test
    void aBadCommandLineExitsWithTwoAndSaysWhy() {
        assertThat(Nakcast.run(print(out), print(err), "sub")).isEqualTo(2);
        assertThat(text(err)).contains("Missing required option: '--expect=N'");

        err.reset();
        assertThat(Nakcast.run(print(out), print(err), "pub", "--count", "10", "--size", "4")).isEqualTo(2);
        assertThat(text(err)).contains("--size >= 8");

        assertThat(Nakcast.run(print(out), print(err))).as("no subcommand").isEqualTo(2);
        assertThat(text(out)).as("nothing on stdout").isEmpty();
    }

    @Test
    void aConfigThatCannotBeReadExitsWithThreeAndNamesIt() {
        assertThat(Nakcast.run(print(out), print(err), "sub", "--expect", "1", "--config", "no/such.yaml"))
            .isEqualTo(Nakcast.CANNOT_START);
        assertThat(text(err)).contains("cannot start").contains("no/such.yaml");
    }

    private static PrintStream print(ByteArrayOutputStream bytes) {
        return new PrintStream(bytes, true, StandardCharsets.UTF_8);
    }

    private static String text(ByteArrayOutputStream bytes) {
        return bytes.toString(StandardCharsets.UTF_8);
    }
}
