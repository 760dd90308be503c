package dev.ralon.policy.walk;

import dev.ralon.policy.Rule;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The protected set as the tools that list or count it see it (the Maven plugin): {@link ProtectionVisitor}, except
 * that beneath a directory {@link IgnoredDirectories} names (what git ignores: {@code target/}, {@code node_modules/})
 * only the rules that name that directory go on. A rule names a directory when its leading literal segments
 * ({@link dev.ralon.policy.glob.Glob#literalPrefix()}) spell the directory out: {@code target/**}{@code /*.pem} names
 * {@code target}; {@code **}{@code /*.pem} and {@code *}{@code /classes/*.pem} do not. Beneath a directory no rule
 * names, the walk does not go at all.
 *
 * <p>Never used for enforcement: {@code ralon run} protects what the rules match wherever it is, and never asks git
 * (whoever can write {@code .gitignore} would otherwise decide what is protected).
 */
final class ListingScope implements WalkVisitor<List<Rule>> {
    private final ProtectionVisitor protection;
    private final IgnoredDirectories ignored;

    ListingScope(ProtectionVisitor protection, IgnoredDirectories ignored) {
        this.protection = protection;
        this.ignored = ignored;
    }

    @Override
    public List<Rule> atRoot() {
        return protection.atRoot();
    }

    @Override
    public List<Rule> visit(List<Rule> live, WalkEntry child) {
        List<Rule> beneath = protection.visit(live, child);
        if (beneath == null || !ignored.ignored(child.rel())) {
            return beneath;
        }
        String dir = child.rel() + "/";
        List<Rule> naming = new ArrayList<>();
        for (Rule r : beneath) {
            if (r.glob().literalPrefix().startsWith(dir)) {
                naming.add(r);
            }
        }
        return naming.isEmpty() ? null : naming;
    }

    @Override
    public void cannotList(List<Rule> live, Path dir, Throwable why) {
        protection.cannotList(live, dir, why);
    }

    @Override
    public void leadsOutside(List<Rule> live, String linkRel, Path target) {
        protection.leadsOutside(live, linkRel, target);
    }

    @Override
    public void tooManyThroughLinks(List<Rule> live, String rel, int limit) {
        protection.tooManyThroughLinks(live, rel, limit);
    }
}
