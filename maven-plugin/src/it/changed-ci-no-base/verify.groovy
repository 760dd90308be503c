// Under CI=true without a base the guard does not compare HEAD with itself and pass: it fails, in one line saying
// what to pass and fetch.
def log = new File(basedir, 'build.log').text
assert log.contains('BUILD FAILURE')
assert log =~ /(?m)^\[ERROR\] Failed to execute goal \S+:changed \(default-cli\) on project changed-ci-no-base: agentlock: no base revision given and CI=true: .*-Dagentlock\.base=origin\/main .*fetch-depth: 0.*$/
assert !log.contains('no protected path changed')
return true
