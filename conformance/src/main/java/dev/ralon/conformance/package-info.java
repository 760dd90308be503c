/**
 * The enforcer conformance kit: {@link dev.ralon.conformance.ConformanceKit} attacks an enforcer for real through
 * {@code ralon run} and turns what changed on disk into JUnit 5 tests, one per (attack × kind of protected path),
 * checking declared guarantees hold and undeclared ones are really breakable. The catalogue is
 * {@link dev.ralon.conformance.Attacks}; attacks the shell cannot make run in
 * {@link dev.ralon.conformance.attack.AttackProgram}. {@link dev.ralon.conformance.GuaranteeTable} renders the README's
 * guarantee table from the declarations. Guide: docs/writing-an-enforcer.md; catalogue and results:
 * docs/conformance.md.
 *
 * <p>Status, per type (the package has none, so that each type's is the only one): the third party's API is
 * {@link dev.ralon.enforcer.spi.Experimental} since 0.1.0, namely {@code ConformanceKit} (its builder, {@code Report}
 * and {@code Verdict}) and the types a verdict hands over, {@code Attack} and {@code PathKind}; the rest is
 * {@link dev.ralon.enforcer.spi.Internal} ({@code Attacks}, {@code GuaranteeTable}, the package
 * {@code dev.ralon.conformance.attack}). A new public type here says its status on itself.
 */
package dev.ralon.conformance;
