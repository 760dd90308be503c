package dev.ralon.policy.walk;

import java.nio.file.Path;

/**
 * One job done during the one walk of a policy's tree ({@link TreeWalker}): the protected set
 * ({@link ProtectionVisitor}) or the "would match deeper" advice ({@link AdviceVisitor}).
 *
 * <p>A visitor's state {@code S} is what it knows about a directory (for protection: the rules that can still match
 * beneath it). {@code null} means the visitor has nothing to do beneath that directory; the walker lists a directory
 * only while some visitor's state there is not null, and reads an entry's type only when a visitor asks for it
 * ({@link WalkEntry#attributes()}), so a visitor that returns early costs no system call.
 *
 * @param <S> the visitor's state for one directory
 */
interface WalkVisitor<S> {
    /** The state at the root, before it is listed; null when nothing in the tree concerns this visitor. */
    S atRoot();

    /**
     * Visits {@code child}, an entry of a directory in state {@code state} (never null). Returns the state beneath the
     * child, which the walker uses when the child is a directory or a symbolic link to one inside the root; null when
     * nothing beneath it concerns this visitor. A visitor may {@link WalkEntry#skip()} the child: the visitors after
     * it then do not see it, and the walker does not enter it.
     */
    S visit(S state, WalkEntry child);

    /** Listing {@code dir}, a directory in state {@code state}, failed for {@code why} (not because it vanished). */
    default void cannotList(S state, Path dir, Throwable why) {
    }

    /**
     * {@code linkRel}, a symbolic link in whose state ({@code state}, what {@link #visit} returned for it) this visitor
     * would go on, leads to {@code target}, a directory outside the root: the walk does not follow it.
     */
    default void leadsOutside(S state, String linkRel, Path target) {
    }

    /**
     * The walk has listed {@code limit} entries beneath symbolic links and enters none from here on; {@code rel} is
     * where this visitor (in {@code state}) would have gone on first. Told once per walk ({@link TreeWalker}).
     */
    default void tooManyThroughLinks(S state, String rel, int limit) {
    }
}
