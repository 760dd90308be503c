// The default shallow checkout does not have the base: one line says so and what to fetch, never git's exit status.
def log = new File(basedir, 'build.log').text
assert log.contains('BUILD FAILURE')
assert log =~ /(?m)^\[ERROR\] Failed to execute goal \S+:changed \(default-cli\) on project changed-ci-shallow: agentlock: unknown revision "origin\/main" in this shallow clone: fetch it .*fetch-depth: 0 in actions\/checkout.*$/
assert !log.contains('exit status')
return true
