/**
 * The runner of the agent.lock v1 test vectors: {@link dev.ralon.spec.VectorRunner} asks any implementation every
 * vector through the command protocol of docs/spec.md section 12 and tallies the answers per vector file. Split by
 * job: {@code Vectors} reads the vector files, {@code Fixture} builds a question's tree, {@code Implementation} runs
 * the implementation and reads its {@code Answer}, {@code Judge} judges an answer against the vector (pure), and
 * {@code Tally} counts. The normative data beside it are resources, not code: the JSON Schema
 * ({@code dev/ralon/spec/v1/agent-lock.schema.json}) and the vectors ({@code dev/ralon/spec/v1/vectors/}:
 * {@code policies.json} with the files under {@code policies/}, {@code match.json}, {@code e2e.json}).
 *
 * <p>In the data flow (agent.lock, Policy, protected set, Plan, Enforcer, exec) it is the reference for the first
 * three steps: what a file means and what it protects, independent of Ralon's code. Depends on org.json only, and on
 * no Ralon module. Used by policy-core's tests (the vectors, and the schema its shape check is held to), by the cli
 * ({@code ralon schema} prints the schema; {@code SpecVectorsE2ETest} runs this runner against {@code ralon check}),
 * and by any other implementation of the format.
 *
 * <p>Where new things go: a new vector is an entry in one of the vector files (for {@code policies.json}, with its
 * file under {@code vectors/policies/}) naming a section of docs/spec.md or docs/spec-patterns.md that exists; a
 * change to a rule, a position or a vector raises the spec's {@code Revision:} and every vector file's
 * {@code spec-revision} together ({@code VectorSectionsTest} checks both). A new kind of question is read in
 * {@code Vectors}, asked in {@code VectorRunner} and judged in {@code Judge}.
 */
package dev.ralon.spec;
