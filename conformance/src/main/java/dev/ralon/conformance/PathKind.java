package dev.ralon.conformance;

/**
 * The kinds of protected path every attack is made against, each in its own directory {@code c/ATTACK-KIND/} of the
 * attacked project so that one attack's outcome can never hide another's.
 *
 * @since 0.1.0
 */
@dev.ralon.enforcer.spi.Experimental("handed to a third party in each Verdict; kinds may be added in a minor release")
public enum PathKind {
    /** A regular file named literally in agent.lock: {@code c/ID/w/target.txt}. */
    FILE("file", "a file named literally in agent.lock"),
    /** A regular file matched by a glob ({@code c/**}{@code /*.pem}): {@code c/ID/w/target.pem}. */
    GLOB("glob", "a file matched by a glob pattern"),
    /** A file two levels beneath a protected directory: {@code c/ID/locked/sub/target.txt}. */
    NESTED("nested", "a file beneath a protected directory"),
    /** A protected directory itself, with content: {@code c/ID/locked/}. */
    DIRECTORY("directory", "a protected directory"),
    /** The policy file, agent.lock, which always protects itself; attacked one attack at a time. */
    POLICY("policy", "the policy file agent.lock itself"),
    /** A path named literally in agent.lock that does not exist when the run starts: {@code c/ID/w/secret.env}. */
    MISSING("missing", "a literal path that does not exist yet"),
    /**
     * A symbolic link on the way to a protected file: {@code c/ID/lib/door -> ../real} with {@code c/ID/lib/door/*.key}
     * protected (so {@code c/ID/real/target.key} is); the attacked path is the link, the directory on the way its
     * directory {@code c/ID/lib}. Retargeting the link would make the next run protect another file.
     */
    LINKED("linked", "a symbolic link on the way to a protected file");

    private final String id;
    private final String description;

    PathKind(String id, String description) {
        this.id = id;
        this.description = description;
    }

    /** Short lower-case name used in case ids and test names. */
    public String id() {
        return id;
    }

    /** What this kind is, in plain words. */
    public String description() {
        return description;
    }
}
