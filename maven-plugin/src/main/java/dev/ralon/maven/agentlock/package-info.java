/**
 * The Maven plugin {@code agentlock-maven-plugin} and its two goals: {@link dev.ralon.maven.agentlock.CheckMojo}
 * ({@code mvn agentlock:check}: the policies in force are valid, their patterns match something, required paths are
 * protected) and {@link dev.ralon.maven.agentlock.ChangedMojo} ({@code mvn agentlock:changed}: a branch changed no
 * protected path). What they share is each one class: {@code AgentlockMojo} (skip switches, the adoption mode, one
 * {@code [ERROR]} line per problem, which policies judge a module), {@code PolicyCheck} (the check, free of Maven
 * types), {@code BuildState} (work done once per build), {@code Sarif} (the SARIF log both goals write),
 * {@code Flag} (strict booleans) and {@code RequiredPath}. See docs/maven-plugin.md.
 *
 * <p>In the data flow (agent.lock, Policy, protected set, Plan, Enforcer, exec) it stops at the protected set: it
 * loads the policy files of the repository ({@code PolicyDiscovery.inRepositoryTree}, {@code PolicySet}), expands
 * them or asks git what changed ({@code ChangedPaths}), and reports; it plans and enforces nothing. Depends on
 * policy-core (and enforcer-spi for its status marker), with maven-plugin-api and maven-core provided by Maven;
 * nothing in Ralon depends on it.
 *
 * <p>Where new things go: a new goal is a public class {@code XMojo extends AgentlockMojo} with
 * {@code @Mojo(name = "x")}, its logic in a class free of Maven types that a unit test can call; a boolean parameter
 * is declared as a {@code String} and read with {@code Flag}. Each behaviour gets an invoker integration test, a
 * directory under maven-plugin/src/it/ (a {@code pom.xml}, the {@code agent.lock} files, a {@code verify.groovy}
 * that reads {@code build.log}), and its place in docs/maven-plugin.md.
 *
 * <p>Internal ({@link dev.ralon.enforcer.spi.Internal}): a user's contract is the goals and their parameters
 * (docs/maven-plugin.md), not these types.
 */
@dev.ralon.enforcer.spi.Internal("public for Maven, which instantiates the mojos; the goals and parameters are the"
        + " contract, not the classes")
package dev.ralon.maven.agentlock;
