package dev.ralon.testsupport;

import dev.ralon.testsupport.ApiStatus.Status;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;

class ApiStatusTest {
    private static final String FIXTURE = "dev.ralon.testsupport.statusfixture.";

    @Test
    void everyPublicTypeHasOneStatus() {
        ApiStatus.assertEveryPublicTypeHasOne();
    }

    @Test
    void readsTheTypesAndThePackagesStatus() {
        Map<String, Set<Status>> main = ApiStatus.of(ApiStatus.CLASSES);
        assertEquals(Set.of(Status.INTERNAL), main.get(ApiStatus.class.getName()), "from the package-info: " + main);
    }

    @Test
    void findsATypeWithNoStatusAndOneWithTwo() {
        Map<String, Set<Status>> fixture = new TreeMap<>(ApiStatus.of(Path.of("target/test-classes")));
        fixture.keySet().removeIf(name -> !name.startsWith(FIXTURE));
        assertEquals(Map.of(FIXTURE + "Marked", Set.of(Status.EXPERIMENTAL), FIXTURE + "Twice",
                Set.of(Status.STABLE, Status.INTERNAL), FIXTURE + "Unmarked", Set.of()), fixture);
        List<String> unclear = ApiStatus.unclear(Path.of("target/test-classes")).stream()
                .filter(s -> s.startsWith(FIXTURE)).toList();
        assertEquals(List.of(FIXTURE + "Twice: [STABLE, INTERNAL]", FIXTURE + "Unmarked: no status"), unclear);
    }
}
