package org.nakcast.transport.status;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;

/** The table of counter type ids: every kind of counter has an id of its own. */
class CounterTypeIdsTest {
    @Test
    void everySystemCounterHasAnIdOfItsOwnInTheSystemRange() {
        final List<Integer> ids = Arrays.stream(SystemCounter.values()).map(SystemCounter::typeId).toList();

        assertThat(ids).doesNotHaveDuplicates().allSatisfy(id ->
            assertThat(id).isBetween(1, CounterTypeIds.LAST_SYSTEM));
    }

    @Test
    void theOtherKindsHaveIdsOfTheirOwnAboveTheSystemRangeAndTheLineCountersAreTheirs() throws Exception {
        final List<Integer> kinds = new ArrayList<>();
        for (Field field : CounterTypeIds.class.getDeclaredFields()) {
            if (Modifier.isStatic(field.getModifiers()) && !field.getName().equals("LAST_SYSTEM")) {
                kinds.add(field.getInt(null));
            }
        }

        assertThat(kinds).doesNotHaveDuplicates().allSatisfy(id ->
            assertThat(id).isGreaterThan(CounterTypeIds.LAST_SYSTEM));
        assertThat(Arrays.stream(LineCounter.values()).map(LineCounter::typeId)).allSatisfy(id ->
            assertThat(kinds).contains(id));
    }
}
