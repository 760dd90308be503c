package dev.ralon.conformance;

import dev.ralon.testsupport.ApiStatus;
import dev.ralon.testsupport.ApiStatus.Status;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Every public type of the kit says its status, and the third party's API is exactly what docs/conformance.md and
 * docs/writing-an-enforcer.md show a third party: the kit and what a verdict hands over, experimental; the rest
 * internal.
 */
class ApiStatusTest {
    @Test
    void everyPublicTypeHasOneStatus() {
        ApiStatus.assertEveryPublicTypeHasOne();
    }

    @Test
    void theThirdPartysApiIsExperimentalAndTheRestInternal() {
        Map<String, Set<Status>> all = ApiStatus.of(ApiStatus.CLASSES);
        List<String> experimental = all.entrySet().stream().filter(e -> e.getValue().contains(Status.EXPERIMENTAL))
                .map(Map.Entry::getKey).toList();
        assertEquals(List.of(Attack.class.getName(), ConformanceKit.class.getName(), PathKind.class.getName()),
                experimental);
        assertEquals(List.of(), all.entrySet().stream().filter(e -> e.getValue().contains(Status.STABLE))
                .map(Map.Entry::getKey).toList(), "nothing of the kit is stable yet");
    }
}
