package dev.ralon.enforcer.mount;

import dev.ralon.enforcer.spi.Command;
import dev.ralon.enforcer.spi.Confinement;
import dev.ralon.enforcer.spi.EnforcementException;
import dev.ralon.enforcer.spi.Enforcer;
import dev.ralon.enforcer.spi.Guarantee;
import dev.ralon.enforcer.spi.Launch;
import dev.ralon.enforcer.spi.Plan;
import dev.ralon.enforcer.spi.Probe;
import dev.ralon.enforcer.spi.ProtectedPath;
import dev.ralon.enforcer.spi.ProtectedSet;

import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * The {@code mount} backend: read-only bind mounts in an unprivileged user and mount namespace, locked by a second
 * user namespace.
 *
 * <h2>Exec chain (no process is left beside the command: every link execs the next in the same pid)</h2>
 * <ol>
 *   <li>the host execs {@code unshare --user --map-root-user --mount --propagation private -- JAVA ... MountStage
 *       PLAN_FILE SHA256 -- CMD...} (a JVM cannot enter a user namespace itself: unshare(2) refuses CLONE_NEWUSER in
 *       a multithreaded process, kernel/fork.c check_unshare_flags);</li>
 *   <li>{@link MountStage}, root in user namespace 1, binds every directory on the way to a protected path onto
 *       itself (writable: it only becomes a mount point, which cannot be renamed or removed: rename(2)/rmdir(2)
 *       EBUSY), then every protected path onto itself read-only;</li>
 *   <li>it execs {@code unshare --user --mount --map-user=UID --map-group=GID -- CMD}: creating a mount namespace owned
 *       by a less privileged user namespace locks every inherited mount (mount_namespaces(7), "restrictions on mount
 *       namespaces": MNT_LOCKED, read-only and the other flags locked), and the command runs as the invoking user's
 *       own uid and gid.</li>
 * </ol>
 *
 * <h2>Guarantees</h2>
 * {@link Guarantee#MODIFY_CONTENT}, {@link Guarantee#DELETE}, {@link Guarantee#RENAME_AWAY},
 * {@link Guarantee#RENAME_OVER}, {@link Guarantee#CREATE_INSIDE}, {@link Guarantee#ANCESTOR_RENAME} and
 * {@link Guarantee#METADATA}. Not {@link Guarantee#CREATE_MISSING}: a mount needs an existing target, and making one
 * would create the protected path on the host; a protected path that does not exist is refused in the plan.
 *
 * <h2>Parts</h2>
 * This class is the SPI facade; {@link MountProbe} finds out whether the chain works here, {@link MountPlanner} turns
 * the protected set into ordered binds, {@link MountLaunch} writes the {@link PlanFile} and builds the chain, and in
 * the stage's JVM {@link MountStage} reads it and {@link Mounts} makes the binds.
 */
public final class MountEnforcer implements Enforcer {
    static final Set<Guarantee> GUARANTEES = Collections.unmodifiableSet(EnumSet.of(
            Guarantee.MODIFY_CONTENT, Guarantee.DELETE, Guarantee.RENAME_AWAY, Guarantee.RENAME_OVER,
            Guarantee.CREATE_INSIDE, Guarantee.ANCESTOR_RENAME, Guarantee.METADATA, Guarantee.LEFTOVERS,
            Guarantee.WRITES_OUTSIDE));

    private final MountProbe probe = new MountProbe();

    @Override
    public String name() {
        return "mount";
    }

    @Override
    public String description() {
        return "read-only bind mounts in an unprivileged user+mount namespace, locked by a nested user namespace";
    }

    /** Every kind of existing path: a bind mount of the link itself or of the device/fifo/socket node (the mount lands on the object, not on what a link points to). */
    @Override
    public Set<ProtectedPath.Kind> coveredKinds() {
        return EnumSet.of(ProtectedPath.Kind.FILE, ProtectedPath.Kind.DIRECTORY, ProtectedPath.Kind.SYMLINK,
                ProtectedPath.Kind.OTHER);
    }

    /**
     * A read-only bind refuses writes with EROFS ({@code mnt_want_write}, fs/namespace.c); a mount point cannot be
     * unlinked, renamed away or over: EBUSY (rename(2), unlink(2)), which reads like "try again" and is not.
     */
    @Override
    public List<String> deniedErrors() {
        return List.of("EROFS", "EBUSY");
    }

    /**
     * Yes: confined, the home directory is an overlay whose upper layer is the copy's ({@link Mounts#confine}); the
     * areas beneath it are put back over it, the real places.
     */
    @Override
    public boolean copiesHome() {
        return true;
    }

    @Override
    public int rank() {
        return 300;
    }

    @Override
    public Set<Guarantee> guarantees() {
        return GUARANTEES;
    }

    /**
     * Available when the kernel has the new mount API (5.12 for mount_setattr), util-linux {@code unshare} knows
     * {@code --map-user} (2.36), and an unprivileged process can create a user+mount namespace and a second one inside
     * it ({@link MountProbe}: checked by running the chain itself, once per process).
     */
    @Override
    public Probe probe() {
        return probe.probe();
    }

    /** What {@link #plan} carries to {@link #prepare}: the ordered mounts. */
    record Payload(List<PlanFile.Entry> entries) {
    }

    /** See {@link MountPlanner}. */
    @Override
    public Plan plan(ProtectedSet policySet) {
        return MountPlanner.plan(name(), policySet);
    }

    /** See {@link MountLaunch}; without a confinement (the conformance kit's plain runs, an embedding program). */
    @Override
    public Launch prepare(Plan plan, Command command) throws EnforcementException {
        return MountLaunch.prepare(plan, command, probe, Confinement.NONE);
    }

    /** See {@link MountLaunch} and {@link Mounts#confine}: everything outside the areas is made read-only. */
    @Override
    public Launch prepare(Plan plan, Command command, Confinement confinement) throws EnforcementException {
        return MountLaunch.prepare(plan, command, probe, confinement);
    }
}
