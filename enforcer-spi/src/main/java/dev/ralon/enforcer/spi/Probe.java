package dev.ralon.enforcer.spi;

import java.util.Objects;

/**
 * What an enforcer found when it examined this host: whether it can enforce here and, if not, exactly why and what
 * would fix it.
 *
 * @param available whether {@link Enforcer#prepare} can work on this host
 * @param detail    when available, what was found (e.g. "Landlock ABI 7"); when not, the reason in plain words
 *                  (e.g. "unprivileged user namespaces are disabled (user.max_user_namespaces=0)")
 * @param fix       when not available, what an administrator could do about it; empty when nothing can be done or
 *                  when available
 *
 * @since 0.1.0
 */
@Stable(since = "0.1.0")
public record Probe(boolean available, String detail, String fix) {
    public Probe {
        Objects.requireNonNull(detail, "detail");
        Objects.requireNonNull(fix, "fix");
    }

    public static Probe available(String detail) {
        return new Probe(true, detail, "");
    }

    public static Probe unavailable(String reason, String fix) {
        return new Probe(false, reason, fix);
    }
}
