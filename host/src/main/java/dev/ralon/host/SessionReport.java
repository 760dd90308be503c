package dev.ralon.host;

import dev.ralon.enforcer.spi.SessionGuarantee;
import dev.ralon.linux.SessionGuard;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The host's decision about the session guard ({@link SessionGuard}, {@link SessionGuarantee}), the same for every
 * backend: what a run holds here, why the rest is not held, whether the run may start, and how {@code ralon run},
 * {@code --dry-run} and {@code ralon status} say it.
 *
 * <p>Contract: signals and ptrace need Landlock scopes ({@link SessionGuard#SCOPE_ABI}); a kernel without them makes
 * {@link #kernelRefusal()} non-null, and {@code ralon run} then refuses to start (exit 2) unless
 * {@code --allow-degraded}. Unix sockets are refused unless the user passed {@code --allow-unix-sockets}; that opt-in
 * is always named where the run is reported.
 *
 * @param landlockAbi       the kernel's Landlock ABI, 0 without Landlock
 * @param allowUnixSockets  {@code ralon run --allow-unix-sockets}
 */
public record SessionReport(int landlockAbi, boolean allowUnixSockets) {
    /** The option that leaves the Unix socket filter out. */
    public static final String ALLOW_UNIX_SOCKETS = "--allow-unix-sockets";

    /** This kernel's answer, for a run with or without {@code --allow-unix-sockets}. */
    public static SessionReport of(boolean allowUnixSockets) {
        return new SessionReport(SessionGuard.landlockAbi(), allowUnixSockets);
    }

    /** What the guard holds (for any backend). */
    public SessionGuard.Options options() {
        return options("");
    }

    /**
     * What {@link dev.ralon.linux.Exec#replaceProcess} installs for {@code backend}: under landlock, whose
     * own domain handles file access, the session domain also grants LANDLOCK_ACCESS_FS_REFER beneath / (see
     * {@link SessionGuard.Options#grantRefer()}).
     */
    public SessionGuard.Options options(String backend) {
        return new SessionGuard.Options(!allowUnixSockets, landlockAbi >= SessionGuard.SCOPE_ABI,
                BuiltInBackends.isLandlock(backend));
    }

    /** The guarantees held in the run. */
    public Set<SessionGuarantee> held() {
        return options().holds();
    }

    /** Each guarantee not held, with why, in declaration order. */
    public Map<SessionGuarantee, String> notHeld() {
        Map<SessionGuarantee, String> out = new EnumMap<>(SessionGuarantee.class);
        if (allowUnixSockets) {
            out.put(SessionGuarantee.UNIX_SOCKETS, ALLOW_UNIX_SOCKETS + " was given: the command can reach every Unix"
                    + " socket outside (tmux, D-Bus, systemd --user, ssh-agent, gpg-agent, Docker, X11)");
        }
        if (landlockAbi < SessionGuard.SCOPE_ABI) {
            out.put(SessionGuarantee.SIGNALS, kernelWhy());
            out.put(SessionGuarantee.PTRACE, kernelWhy());
        }
        return out;
    }

    private String kernelWhy() {
        return (landlockAbi == 0 ? "Landlock is not enabled in this kernel" : "this kernel's Landlock ABI is "
                + landlockAbi) + "; scopes need ABI " + SessionGuard.SCOPE_ABI + " (Linux 6.12 or later, with landlock"
                + " in the lsm= boot parameter)";
    }

    /** Why a run must not start here, or null when the kernel can hold signals and ptrace. */
    public String kernelRefusal() {
        if (landlockAbi >= SessionGuard.SCOPE_ABI) {
            return null;
        }
        return "cannot refuse signals and ptrace to processes outside the session: " + kernelWhy();
    }

    /** What the start line adds, e.g. {@code ; session: unix-sockets not refused (--allow-unix-sockets)}; "" if all hold. */
    public String startLineSuffix() {
        Map<SessionGuarantee, String> not = notHeld();
        if (not.isEmpty()) {
            return "";
        }
        List<String> parts = new ArrayList<>();
        if (not.containsKey(SessionGuarantee.UNIX_SOCKETS)) {
            parts.add("unix-sockets (" + ALLOW_UNIX_SOCKETS + ")");
        }
        if (not.containsKey(SessionGuarantee.SIGNALS)) {
            parts.add("signals, ptrace (Landlock ABI " + landlockAbi + " < " + SessionGuard.SCOPE_ABI + ")");
        }
        return "; not refused towards processes outside: " + String.join(", ", parts);
    }

    /** The text lines of {@code --dry-run} and {@code ralon status}. */
    public List<String> lines() {
        List<String> out = new ArrayList<>();
        out.add("session (every backend): refused towards processes outside: " + ids(held()));
        notHeld().forEach((g, why) -> out.add("session: NOT refused: " + g.id() + " (" + g.effect() + "): " + why));
        String refusal = kernelRefusal();
        if (refusal != null) {
            out.add("session: `ralon run` refuses to start here unless --allow-degraded");
        }
        return out;
    }

    /** The JSON object of docs/json.md ("session"). */
    public Map<String, Object> json() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("held", held().stream().sorted().map(SessionGuarantee::id).toList());
        List<Object> not = new ArrayList<>();
        notHeld().forEach((g, why) -> {
            Map<String, Object> e = new LinkedHashMap<>();
            e.put("id", g.id());
            e.put("effect", g.effect());
            e.put("reason", why);
            not.add(e);
        });
        m.put("notHeld", not);
        m.put("allowUnixSockets", allowUnixSockets);
        m.put("landlockAbi", landlockAbi);
        m.put("startRefused", kernelRefusal() != null);
        return m;
    }

    /** Ids in declaration order, or "none". */
    public static String ids(Set<SessionGuarantee> gs) {
        if (gs.isEmpty()) {
            return "none";
        }
        List<String> out = new ArrayList<>();
        for (SessionGuarantee g : EnumSet.copyOf(gs)) {
            out.add(g.id());
        }
        return String.join(", ", out);
    }
}
