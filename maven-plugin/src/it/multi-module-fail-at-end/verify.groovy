// Two independent modules share a broken agent.lock; with --fail-at-end both run. The policy error (file:4:5)
// is reported by the first; the second fails with a one-line reference to it instead of repeating it.
def log = new File(basedir, 'build.log').text
def lock = new File(basedir, 'agent.lock').toPath().toAbsolutePath().normalize().toString()
assert log.contains('BUILD FAILURE')
assert log.count(lock + ':4:5: ') == 1
assert log.count('was already checked in this build (module dev.ralon.it:mmf-a) and failed; see the errors reported there') == 1
return true
