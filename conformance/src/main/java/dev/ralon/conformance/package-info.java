/**
 * The enforcer conformance kit: {@link dev.ralon.conformance.ConformanceKit} attacks an enforcer for real through
 * {@code ralon run} and turns what changed on disk into JUnit 5 tests, one per (attack × kind of protected path),
 * checking declared guarantees hold and undeclared ones are really breakable. The catalogue is
 * {@link dev.ralon.conformance.Attacks}; attacks the shell cannot make run in
 * {@link dev.ralon.conformance.attack.AttackProgram}. {@link dev.ralon.conformance.GuaranteeTable} renders the README's
 * guarantee table from the declarations. Guide: docs/writing-an-enforcer.md; catalogue and results:
 * docs/conformance.md.
 */
package dev.ralon.conformance;
