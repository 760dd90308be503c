package dev.ralon.enforcer.spi;

import java.util.Objects;

/**
 * What an enforcer found when it examined this host: whether it can enforce here and, if not, exactly why and what
 * would fix it.
 *
 * <p>Built by an enforcer through {@link #available} or {@link #unavailable}: a final class, not a record, so that a
 * later version can add a component (with a further factory or an accessor with a default) without breaking a backend
 * compiled against this one. Equality is by value.
 *
 * @since 0.1.0
 */
@Stable(since = "0.1.0")
public final class Probe {
    private final boolean available;
    private final String detail;
    private final String fix;

    private Probe(boolean available, String detail, String fix) {
        this.available = available;
        this.detail = Objects.requireNonNull(detail, "detail");
        this.fix = Objects.requireNonNull(fix, "fix");
    }

    /**
     * The enforcer can work here.
     *
     * @param detail what was found (e.g. "Landlock ABI 7")
     * @return the probe
     */
    public static Probe available(String detail) {
        return new Probe(true, detail, "");
    }

    /**
     * The enforcer cannot work here.
     *
     * @param reason the reason in plain words (e.g. "unprivileged user namespaces are disabled
     *               (user.max_user_namespaces=0)")
     * @param fix    what an administrator could do about it; empty when nothing can be done
     * @return the probe
     */
    public static Probe unavailable(String reason, String fix) {
        return new Probe(false, reason, fix);
    }

    /** Whether {@link Enforcer#prepare} can work on this host. */
    public boolean available() {
        return available;
    }

    /** When available, what was found; when not, the reason in plain words. */
    public String detail() {
        return detail;
    }

    /** When not available, what an administrator could do; empty when nothing can be done or when available. */
    public String fix() {
        return fix;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Probe p && available == p.available && detail.equals(p.detail) && fix.equals(p.fix);
    }

    @Override
    public int hashCode() {
        return Objects.hash(available, detail, fix);
    }

    @Override
    public String toString() {
        return "Probe[available=" + available + ", detail=" + detail + ", fix=" + fix + "]";
    }
}
