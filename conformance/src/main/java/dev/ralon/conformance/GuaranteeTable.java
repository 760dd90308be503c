package dev.ralon.conformance;

import dev.ralon.enforcer.spi.Enforcer;
import dev.ralon.enforcer.spi.Guarantee;

import java.util.List;

/**
 * The guarantee table of the README, rendered from the enforcers' own declarations ({@link Enforcer#guarantees()}),
 * so the documentation cannot drift from the code: a test compares the README's block between
 * {@link #BEGIN} and {@link #END} with this rendering, and the conformance kit checks the declarations against real
 * attacks.
 */
@dev.ralon.enforcer.spi.Internal("renders Ralon's README table for enforcement-tests; not for third parties")
public final class GuaranteeTable {
    public static final String BEGIN = "<!-- guarantee-table:begin -->";
    public static final String END = "<!-- guarantee-table:end -->";

    private GuaranteeTable() {
    }

    /** The Markdown block, markers included, one column per enforcer in the given order. */
    public static String render(List<Enforcer> enforcers) {
        StringBuilder s = new StringBuilder(BEGIN).append('\n');
        s.append("| the sandboxed command cannot… |");
        for (Enforcer e : enforcers) {
            s.append(" `").append(e.name()).append("` |");
        }
        s.append("\n|---|");
        s.append("---|".repeat(enforcers.size()));
        s.append('\n');
        for (Guarantee g : Guarantee.values()) {
            s.append("| ").append(g.effect()).append(" (`").append(g.id()).append("`) |");
            for (Enforcer e : enforcers) {
                s.append(e.guarantees().contains(g) ? " yes |" : " **no** |");
            }
            s.append('\n');
        }
        s.append('\n').append("Rendered from each backend's declared `guarantees()` (a test keeps this table and the code"
                + " equal); the conformance kit attacks every row for real, and every \"no\" is shown breakable or"
                + " refused by the plan: [docs/conformance.md](docs/conformance.md).\n");
        s.append(END);
        return s.toString();
    }
}
