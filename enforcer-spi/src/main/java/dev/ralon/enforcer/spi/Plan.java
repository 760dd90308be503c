package dev.ralon.enforcer.spi;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * What an enforcer will do for one {@link ProtectedSet}, in a form a person can read before anything happens
 * ({@code ralon run --dry-run}) and the enforcer can later apply. Built with {@link #builder(String)}, so that
 * later versions can add to it without breaking an enforcer compiled against this one.
 *
 * <p>A plan is <em>enforceable</em> when {@link #refusals()} is empty. The host never applies a plan with refusals
 * unless the user explicitly opted in ({@code --allow-degraded}), and then prints every refusal and every guarantee
 * in {@link #missing()} before the command starts. The host adds refusals of its own (host-side admission: a path
 * whose kind the backend does not declare it covers, an incomplete expansion): an enforcer's plan is one input of the
 * decision, never the whole of it.
 *
 * @since 0.1.0
 */
@Stable(since = "0.1.0")
public final class Plan {
    private final String backend;
    private final List<Step> steps;
    private final List<Path> createRestricted;
    private final List<String> warnings;
    private final List<String> notes;
    private final List<Refusal> refusals;
    private final Object payload;

    private Plan(Builder b) {
        this.backend = b.backend;
        this.steps = List.copyOf(b.steps);
        this.createRestricted = List.copyOf(b.createRestricted);
        this.warnings = List.copyOf(b.warnings);
        this.notes = List.copyOf(b.notes);
        this.refusals = List.copyOf(b.refusals);
        this.payload = b.payload;
    }

    /**
     * A builder for a plan of the backend named {@code backend} (the enforcer's {@link Enforcer#name()}).
     *
     * @since 0.1.0
     */
    public static Builder builder(String backend) {
        return new Builder(backend);
    }

    /** The enforcer's name. */
    public String backend() {
        return backend;
    }

    /** Every action, in order: each mount, each rule, each namespace. */
    public List<Step> steps() {
        return steps;
    }

    /**
     * Directories that are not protected but in which nothing can be created, removed or renamed while the sandbox
     * runs (a side effect of the backend, as with Landlock; empty for the mount backend). The host shows them.
     */
    public List<Path> createRestricted() {
        return createRestricted;
    }

    /**
     * Things the user should know that do not weaken a declared guarantee, each one line: the host says them at every
     * start, {@code ralon run --quiet} included (a hard link whose other names stay writable, a directory it could not
     * examine). What only explains the plan belongs in {@link #notes()}.
     */
    public List<String> warnings() {
        return warnings;
    }

    /**
     * What explains the plan without asking anything of the user, each one line (a side effect the host also reads
     * from {@link #createRestricted()}, how a missing path is kept from being created): the host shows them in
     * {@code ralon run --dry-run} and {@code --verbose}, and counts them on the start line otherwise.
     *
     * @since 0.1.0
     */
    public List<String> notes() {
        return notes;
    }

    /** Why this plan cannot keep the backend's declared guarantees; empty when it can. */
    public List<Refusal> refusals() {
        return refusals;
    }

    /** The declared guarantees this plan cannot keep: the union of what its refusals lose. */
    public Set<Guarantee> missing() {
        Set<Guarantee> m = EnumSet.noneOf(Guarantee.class);
        for (Refusal r : refusals) {
            m.addAll(r.lost());
        }
        return Collections.unmodifiableSet(m);
    }

    /** True when the backend can keep every guarantee it declares for this protected set. */
    public boolean enforceable() {
        return refusals.isEmpty();
    }

    /**
     * The backend-private data carried from {@link Enforcer#plan} to {@link Enforcer#prepare}, as {@code type}. The
     * host never looks inside.
     *
     * @throws IllegalArgumentException when the plan carries no payload or one of another type (a plan made by
     *                                  another backend, or by another version of this one)
     * @since 0.1.0
     */
    public <T> T payload(Class<T> type) {
        if (!type.isInstance(payload)) {
            throw new IllegalArgumentException("plan of backend " + backend + " carries "
                    + (payload == null ? "no payload" : "a " + payload.getClass().getName()) + ", not a "
                    + type.getName());
        }
        return type.cast(payload);
    }

    /** Whether the plan carries a payload of {@code type}. */
    public boolean hasPayload(Class<?> type) {
        return type.isInstance(payload);
    }

    @Override
    public String toString() {
        return "Plan[" + backend + ", " + steps.size() + " steps, " + refusals.size() + " refusals]";
    }

    /**
     * Builds a {@link Plan}. Not thread-safe; {@link #build()} may be called more than once.
     *
     * @since 0.1.0
     */
    @Stable(since = "0.1.0")
    public static final class Builder {
        private final String backend;
        private final List<Step> steps = new ArrayList<>();
        private final List<Path> createRestricted = new ArrayList<>();
        private final List<String> warnings = new ArrayList<>();
        private final List<String> notes = new ArrayList<>();
        private final List<Refusal> refusals = new ArrayList<>();
        private Object payload;

        private Builder(String backend) {
            this.backend = Objects.requireNonNull(backend, "backend");
        }

        /** Adds a step: {@code action} on {@code path} (null when it acts on no path), {@code detail} in plain words. */
        public Builder step(String action, Path path, String detail) {
            return step(new Step(action, path, detail));
        }

        /** Adds a step. */
        public Builder step(Step step) {
            steps.add(Objects.requireNonNull(step, "step"));
            return this;
        }

        /** Adds a directory that becomes create-restricted (see {@link Plan#createRestricted()}). */
        public Builder createRestricted(Path directory) {
            createRestricted.add(Objects.requireNonNull(directory, "directory"));
            return this;
        }

        /** Adds directories that become create-restricted. */
        public Builder createRestricted(List<Path> directories) {
            directories.forEach(this::createRestricted);
            return this;
        }

        /** Adds a note (see {@link Plan#notes()}). */
        public Builder note(String note) {
            notes.add(Objects.requireNonNull(note, "note"));
            return this;
        }

        /** Adds a warning (see {@link Plan#warnings()}). */
        public Builder warning(String warning) {
            warnings.add(Objects.requireNonNull(warning, "warning"));
            return this;
        }

        /** Adds a refusal. */
        public Builder refuse(Refusal refusal) {
            refusals.add(Objects.requireNonNull(refusal, "refusal"));
            return this;
        }

        /** Adds a refusal about {@code path}: {@code reason} in one line, the declared guarantees it costs. */
        public Builder refuse(Path path, String reason, Set<Guarantee> lost) {
            return refuse(Refusal.of(path, reason, lost));
        }

        /** Adds a refusal about no path in particular (the host, the kernel, a limit). */
        public Builder refuse(String reason, Set<Guarantee> lost) {
            return refuse(Refusal.of(null, reason, lost));
        }

        /** Sets the backend-private payload (see {@link Plan#payload(Class)}); null for none. */
        public Builder payload(Object payload) {
            this.payload = payload;
            return this;
        }

        /** The plan. */
        public Plan build() {
            return new Plan(this);
        }
    }

    /**
     * One action of a plan. Built through {@link #of}: a final class, not a record, so that it can grow.
     *
     * @since 0.1.0
     */
    @Stable(since = "0.1.0")
    public static final class Step {
        private final String action;
        private final Path path;
        private final String detail;

        private Step(String action, Path path, String detail) {
            this.action = Objects.requireNonNull(action, "action");
            this.path = path;
            this.detail = Objects.requireNonNull(detail, "detail");
        }

        /**
         * A step.
         *
         * @param action a short verb phrase, stable for JSON consumers: e.g. "bind-readonly", "landlock-rule",
         *               "unshare"
         * @param path   the path it acts on, or null when it acts on none
         * @param detail what exactly, in plain words (flags, access rights, why)
         * @return the step
         */
        public static Step of(String action, Path path, String detail) {
            return new Step(action, path, detail);
        }

        /** A short verb phrase, stable for JSON consumers. */
        public String action() {
            return action;
        }

        /** The path it acts on, or null when it acts on none. */
        public Path path() {
            return path;
        }

        /** What exactly, in plain words. */
        public String detail() {
            return detail;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Step t && action.equals(t.action) && Objects.equals(path, t.path)
                    && detail.equals(t.detail);
        }

        @Override
        public int hashCode() {
            return Objects.hash(action, path, detail);
        }

        @Override
        public String toString() {
            return path == null ? action + " " + detail : action + " " + path + (detail.isEmpty() ? "" : " (" + detail + ")");
        }
    }

    /**
     * Why a plan cannot keep a declared guarantee: the path concerned (or none), the reason in one line, and the
     * guarantees lost by it.
     *
     * @since 0.1.0
     */
    @Stable(since = "0.1.0")
    public static final class Refusal {
        private final Path path;
        private final String reason;
        private final Set<Guarantee> lost;

        private Refusal(Path path, String reason, Set<Guarantee> lost) {
            this.path = path;
            this.reason = Objects.requireNonNull(reason, "reason");
            if (reason.indexOf('\n') >= 0) {
                throw new IllegalArgumentException("a refusal is one line: " + reason);
            }
            this.lost = lost.isEmpty() ? Set.of() : Collections.unmodifiableSet(EnumSet.copyOf(lost));
        }

        /**
         * A refusal about {@code path} (null: about no path in particular).
         *
         * @param reason one line in plain words; it should name the path when there is one
         * @param lost   the declared guarantees this costs (empty when unknown: the host then assumes all of them)
         */
        public static Refusal of(Path path, String reason, Set<Guarantee> lost) {
            return new Refusal(path, reason, lost);
        }

        /** The path concerned, or null. */
        public Path path() {
            return path;
        }

        /** The reason, one line. */
        public String reason() {
            return reason;
        }

        /** The declared guarantees this refusal costs. */
        public Set<Guarantee> lost() {
            return lost;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Refusal r && Objects.equals(path, r.path) && reason.equals(r.reason)
                    && lost.equals(r.lost);
        }

        @Override
        public int hashCode() {
            return Objects.hash(path, reason, lost);
        }

        /** The reason. */
        @Override
        public String toString() {
            return reason;
        }
    }
}
