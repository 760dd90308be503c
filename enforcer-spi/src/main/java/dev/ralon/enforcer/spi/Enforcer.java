package dev.ralon.enforcer.spi;

import java.util.EnumSet;
import java.util.Set;

/**
 * A backend that makes the protected paths of an agent.lock read-only to the kernel for a command and everything it
 * spawns. Implementations are found with {@link java.util.ServiceLoader}: list the class in
 * {@code META-INF/services/dev.ralon.enforcer.spi.Enforcer} (and {@code provides} it in module-info, if you have one).
 *
 * <h2>Life cycle</h2>
 * The host ({@code ralon run}) calls, in this order: {@link #probe()}; {@link #plan} with the expanded protected set
 * (each, for a third party's backend, on a thread of the host's, bounded: a probe that has not returned within 3 s, a
 * plan within 15 s, is given up, reported in one line, and the backend passed over); then, only when the plan is
 * enforceable (or the user explicitly accepted a degraded run), {@link #prepare}, on the thread that will exec (not
 * bounded: it restricts that thread); then it execs the returned {@link Launch} in place with
 * {@code Exec} (Ralon's native layer), after the exec hygiene described there. No supervisor of the backend's
 * own: the Launch execs in place; a backend that declares {@link Guarantee#LEFTOVERS} runs the command beneath PID 1
 * of a PID namespace of its own (the chain of {@code SessionContainer} (Ralon's native layer), which passes
 * signals on), any other runs the command as the
 * process ralon was started as. The last step of
 * that hygiene is the host's terminal guard (a seccomp filter refusing ioctl TIOCSTI/TIOCLINUX, inherited by the
 * Launch and everything it execs); installing it sets no_new_privs when the process lacks CAP_SYS_ADMIN in its user
 * namespace, so a Launch that relies on a set-user-ID helper gains nothing from it.
 *
 * <h2>Contract</h2>
 * <ul>
 *   <li>{@link #name()} is unique among discovered enforcers, matches {@code [a-z][a-z0-9-]{1,31}}, and is not
 *       reserved: {@code mount}, {@code landlock}, {@code noop} and every name starting {@code ralon-} belong to the
 *       Ralon project (classes under {@code dev.ralon.}). Discovery refuses duplicates and reserved names.</li>
 *   <li>{@link #guarantees()} lists exactly what is enforced when {@link #probe()} says available and a plan has no
 *       refusals: the conformance kit attacks every listed guarantee for real, and checks every unlisted one is really
 *       breakable (claims must match reality in both directions).</li>
 *   <li>{@link #coveredKinds()} lists the kinds of existing path the declared guarantees hold for. The host decides
 *       what a plan leaves uncovered from the declarations, not from the plan (host-side admission): a protected path
 *       of a kind not listed is refused by the host, and a {@link ProtectedPath.Kind#MISSING} path is protected
 *       against creation only when {@link Guarantee#CREATE_MISSING} is declared.</li>
 *   <li>{@link #probe()} has no lasting effect on the host and is quick (it may start a short-lived child).</li>
 *   <li>{@link #plan} has no effect at all; it never throws for a protected set it cannot enforce: it returns a plan
 *       whose {@link Plan#refusals()} say why.</li>
 *   <li>{@link #prepare} either sets up everything the plan promises and returns what to exec, or throws
 *       {@link EnforcementException} having started nothing. It must fail closed: a failing system call is an
 *       exception, never a warning.</li>
 *   <li>Any method may be called more than once. A method that throws (anything, {@link Error}s included) gets
 *       the backend excluded from the run with one line naming its jar; other backends keep working.</li>
 * </ul>
 *
 * <p>Methods added in later versions will have defaults, so that an enforcer compiled against this version keeps
 * loading (see {@link Stable}).
 *
 * @since 0.1.0
 */
@Stable(since = "0.1.0")
public interface Enforcer {

    /** Unique short name used with {@code ralon run --backend NAME}. */
    String name();

    /** One line saying how this backend enforces, for {@code ralon status}. Default: the name. */
    default String description() {
        return name();
    }

    /**
     * How strong this backend is when several are available; {@code ralon run} without {@code --backend} picks the
     * available backend with the highest rank. Ours: mount 300, landlock 200, noop 0 (never picked by default).
     * Third-party backends should stay between 1 and 99 unless their guarantees are a superset of ours. Default: 1
     * (chosen only when no built-in backend is available).
     */
    default int rank() {
        return 1;
    }

    /** Whether this host can enforce with this backend, and if not why and what would fix it. */
    Probe probe();

    /** The guarantees this backend makes when available and the plan has no refusals. */
    Set<Guarantee> guarantees();

    /**
     * The kinds of existing protected path for which {@link #guarantees()} hold. Default: {@code FILE} and
     * {@code DIRECTORY}; declare {@code SYMLINK} (the link itself cannot be removed, renamed or replaced) and
     * {@code OTHER} (devices, fifos, sockets) only when the conformance kit's attacks on them fail.
     * {@link ProtectedPath.Kind#MISSING} is not a kind here: it is {@link Guarantee#CREATE_MISSING}. A protected path
     * of a kind not listed makes the host refuse the run (unless {@code --allow-degraded}).
     *
     * @since 0.1.0
     */
    default Set<ProtectedPath.Kind> coveredKinds() {
        return EnumSet.of(ProtectedPath.Kind.FILE, ProtectedPath.Kind.DIRECTORY);
    }

    /**
     * The errors (errno names as errno(3) spells them, e.g. {@code "EROFS"}) with which a write this backend refuses
     * fails, most common first. The host tells the command ({@code RALON_DENIED_ERRNOS}) and, when one of them reads
     * like "try again" ({@code EBUSY}), the user at start, so that an agent does not retry a refusal. Default: none
     * said.
     *
     * @since 0.1.0
     */
    default java.util.List<String> deniedErrors() {
        return java.util.List.of();
    }

    /**
     * Whether a command run under this backend is refused mount(2) (and so cannot start a sandbox of its own that
     * mounts: bubblewrap, and the sandboxes Codex and Claude Code start with it). The host tells the user at start
     * when the command is a known coding agent, with what to do instead. Default: false (nothing said).
     *
     * @since 0.1.0
     */
    @Experimental("what a backend refuses besides writes to protected paths")
    default boolean deniesMount() {
        return false;
    }

    /**
     * Whether {@link #prepare(Plan, Command, Confinement)} can give the session a {@link Confinement.Copy}: a
     * copy-on-write view of the home directory whose changes never reach the real one. The host asks for a copy only
     * when this says yes; otherwise the home directory stays read-only outside the areas. Default: no.
     *
     * @since 0.1.0
     */
    @Experimental("the session's copy of the home directory")
    default boolean copiesHome() {
        return false;
    }

    /** Turns a protected set into a plan. Pure: changes nothing. */
    Plan plan(ProtectedSet protectedSet);

    /**
     * Applies the plan for the command, on the calling thread, and returns what the host must exec. Restrictions the
     * enforcer places on the calling thread (Landlock, no_new_privs) survive that exec.
     *
     * @throws EnforcementException when anything the plan promised could not be set up; nothing was started
     */
    Launch prepare(Plan plan, Command command) throws EnforcementException;

    /**
     * {@link #prepare(Plan, Command)} with the session's writable areas: a backend that declares
     * {@link Guarantee#WRITES_OUTSIDE} makes everything outside {@code confinement}'s areas read-only to the command
     * and everything it spawns (writes, creation, removal, renames), when {@link Confinement#confined()}; what it
     * cannot set up is an {@link EnforcementException}, nothing started. Default: the confinement is ignored, which is
     * right for a backend that does not declare that guarantee (the host refuses such a run unless the user opted
     * out with {@code --write-anywhere}).
     *
     * @since 0.1.0
     */
    @Experimental("the session's confinement of writes")
    default Launch prepare(Plan plan, Command command, Confinement confinement) throws EnforcementException {
        return prepare(plan, command);
    }
}
