package org.nakcast.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;

import org.junit.jupiter.api.Test;

/** The list of planted bugs: its format, and the rule that a bug's original text occurs exactly once. */
class PlantedBugListTest {
    private static final String TWO_BUGS = """
        # a comment, then a blank line

        [first-bug]
        file: transport/src/main/java/org/example/Window.java
        what: the window is one short
        --- original
            if (sequence < limit) {
                take(sequence);
        --- replacement
            if (sequence <= limit) {

                take(sequence);
        --- end
        [second-bug]
        what: the count is off
        file: transport/src/main/java/org/example/Count.java
        --- original
        count++;
        --- replacement
        --- end
        """;

    @Test
    void readsEachBugWithItsTextsAsTheyAre() {
        final List<PlantedBug> bugs = PlantedBugList.parse(TWO_BUGS, "test");

        assertThat(bugs).containsExactly(
            new PlantedBug("first-bug", "transport/src/main/java/org/example/Window.java", "the window is one short",
                "    if (sequence < limit) {\n        take(sequence);",
                "    if (sequence <= limit) {\n\n        take(sequence);"),
            new PlantedBug("second-bug", "transport/src/main/java/org/example/Count.java", "the count is off",
                "count++;", ""));
        assertThat(bugs.get(0).className()).isEqualTo("Window");
    }

    @Test
    void refusesAListThatIsNotWellFormed() {
        assertThatThrownBy(() -> PlantedBugList.parse(TWO_BUGS.replace("[second-bug]", "[first-bug]"), "test"))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("test line 14")
            .hasMessageContaining("first-bug is listed twice");
        assertThatThrownBy(() -> PlantedBugList.parse(TWO_BUGS.replace("what: the count is off\n", ""), "test"))
            .hasMessageContaining("bug second-bug needs both 'file:' and 'what:'");
        assertThatThrownBy(() -> PlantedBugList.parse(TWO_BUGS.replace("what: the count", "why: the count"), "test"))
            .hasMessageContaining("unknown key 'why'");
        assertThatThrownBy(() -> PlantedBugList.parse(TWO_BUGS.substring(0, TWO_BUGS.lastIndexOf("--- end")), "test"))
            .hasMessageContaining("'--- replacement' is never closed by '--- end'");
        assertThatThrownBy(() -> PlantedBugList.parse(TWO_BUGS.replace("[second-bug]", "[Second bug]"), "test"))
            .hasMessageContaining("lower-case letters, digits and dashes");
        assertThatThrownBy(() -> PlantedBugList.parse("stray text\n" + TWO_BUGS, "test"))
            .hasMessageContaining("test line 1: expected a bug's [id]");
    }

    @Test
    void refusesABugThatPlantsNothing() {
        final String same = TWO_BUGS.replace("--- replacement\n--- end", "--- replacement\ncount++;\n--- end");

        assertThatThrownBy(() -> PlantedBugList.parse(same, "test"))
            .hasMessageContaining("bug second-bug: the replacement is the original text");
    }

    @Test
    void plantsABugWhoseOriginalOccursOnce() {
        final PlantedBug bug = new PlantedBug("off-by-one", "src/Window.java", "what", "a < b", "a <= b");

        assertThat(bug.plantIn("if (a < b) {\n    x = a + b;\n}")).isEqualTo("if (a <= b) {\n    x = a + b;\n}");
    }

    @Test
    void refusesABugWhoseOriginalNoLongerOccursOrOccursTwiceNamingItAndItsFile() {
        final PlantedBug bug = new PlantedBug("off-by-one", "src/Window.java", "what", "a < b", "a <= b");

        assertThatThrownBy(() -> bug.plantIn("if (a <= b) {\n}"))
            .isInstanceOf(IllegalStateException.class)
            .hasMessageContaining("planted bug off-by-one").hasMessageContaining("src/Window.java")
            .hasMessageContaining("occurs 0 times");
        assertThatThrownBy(() -> bug.plantIn("if (a < b) {\n} else if (a < b + 1) {\n}"))
            .isInstanceOf(IllegalStateException.class)
            .hasMessageContaining("planted bug off-by-one").hasMessageContaining("src/Window.java")
            .hasMessageContaining("occurs 2 times");
    }

    @Test
    void theKeptListReadsAndPlantsInTheProtocolsAndTheRecordersSources() {
        final List<PlantedBug> bugs = PlantedBugList.load();

        assertThat(bugs).hasSizeGreaterThanOrEqualTo(18);
        assertThat(new HashSet<>(bugs.stream().map(PlantedBug::id).toList())).hasSameSizeAs(bugs);
        assertThat(bugs).allSatisfy(bug -> assertThat(bug.file()).matches(
            "(transport/src/main/java/org/nakcast/transport|recorder/src/main/java/org/nakcast/recorder)/.*\\.java"));
        assertThat(bugs).anySatisfy(bug -> assertThat(bug.file()).startsWith("recorder/"));
        final Path root = Path.of("").toAbsolutePath().getParent();
        assertThat(bugs).allSatisfy(bug -> {
            final String source = Files.readString(root.resolve(bug.file()));
            assertThat(bug.plantIn(source)).isNotEqualTo(source);
        });
    }
}
