package org.nakcast.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

class SpellingTest {
    private static final List<String> TOPIC_KEYS = List.of("name", "id", "transport", "codec", "history", "heartbeat",
        "flow-control", "flow-control-timeout", "loss-policy", "late-join", "publisher-timeout", "delivery",
        "delivery-queue", "delivery-queue-timeout", "max-publishers", "allowed-classes");

    @ParameterizedTest
    @CsvSource({
        "transport, transport, 0",
        "trasnport, transport, 1",
        "Port, port, 0",
        "fts, fst, 1",
        "heartbeats, heartbeat, 1",
        "kryo, flyweight, 8",
        "'', abc, 3",
    })
    void countsEditsWithSwapsAsOne(String first, String second, int distance) {
        assertThat(Spelling.distance(first, second)).isEqualTo(distance);
    }

    static Stream<String[]> wordPairs() {
        Random random = new Random(7);
        return Stream.generate(() -> new String[] {word(random), word(random)}).limit(200);
    }

    private static String word(Random random) {
        StringBuilder word = new StringBuilder();
        int length = random.nextInt(9);
        for (int i = 0; i < length; i++) {
            word.append((char) ('a' + random.nextInt(4)));
        }
        return word.toString();
    }

    @ParameterizedTest
    @MethodSource("wordPairs")
    void distanceIsSymmetricAndBoundedByTheLongerWord(String first, String second) {
        int distance = Spelling.distance(first, second);
        assertThat(distance).isEqualTo(Spelling.distance(second, first));
        assertThat(distance).isBetween(Math.abs(first.length() - second.length()),
            Math.max(first.length(), second.length()));
        assertThat(distance == 0).isEqualTo(first.equals(second));
    }

    @Test
    void suggestsTheClosestKeyAndListsAllClosestFirst() {
        String hint = Spelling.hint("trasnport", TOPIC_KEYS, "known keys");

        assertThat(hint).startsWith("did you mean 'transport'? known keys: transport, ");
        assertThat(hint).contains(TOPIC_KEYS);
    }

    @Test
    void listsWithoutSuggestingWhenNothingIsClose() {
        assertThat(Spelling.hint("zzzzzz", List.of("lo", "eth0"), "interfaces on this machine"))
            .isEqualTo("interfaces on this machine: eth0, lo"); // equally far: alphabetical
    }

    @Test
    void saysSoWhenNothingIsKnown() {
        assertThat(Spelling.hint("lan", List.of(), "known transports")).isEqualTo("known transports: none");
    }
}
