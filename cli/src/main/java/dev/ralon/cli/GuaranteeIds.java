package dev.ralon.cli;

import dev.ralon.enforcer.spi.Enforcer;
import dev.ralon.enforcer.spi.Guarantee;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * Guarantees as the output names them (docs/json.md): their ids in the enum's order, as a list for JSON or one text
 * ({@code none} when empty). Rendering only; what a backend guarantees is its own declaration
 * ({@link Enforcer#guarantees()}).
 */
final class GuaranteeIds {
    private GuaranteeIds() {
    }

    /** The ids of {@code gs}, in the enum's order. */
    static List<String> list(Set<Guarantee> gs) {
        return gs.isEmpty() ? List.of() : EnumSet.copyOf(gs).stream().map(Guarantee::id).toList();
    }

    /** The ids of {@code gs} joined with commas, or {@code none}. */
    static String text(Set<Guarantee> gs) {
        return gs.isEmpty() ? "none" : String.join(", ", list(gs));
    }

    /** What {@code e} does not declare. */
    static Set<Guarantee> notDeclared(Enforcer e) {
        Set<Guarantee> all = EnumSet.allOf(Guarantee.class);
        all.removeAll(e.guarantees());
        return all;
    }
}
