// Discovery stops at the repository's root: the agent.lock above repo/ is another project's. It is broken, so the
// build would fail if it were loaded; it is neither loaded nor walked (its **/*.pem would count keys/outside.pem), and
// one line says it was left out (2 protected paths: secrets/ and the policy itself). Both goals judge by the repository's own file only.
def log = new File(basedir, 'build.log').text
def repo = new File(basedir, 'repo').toPath().toRealPath().toString()
def outer = new File(basedir, 'agent.lock').toPath().toRealPath().toString()
assert log.contains('BUILD SUCCESS')
assert log.contains('agent.lock OK: ' + repo + '/agent.lock (1 pattern, 2 protected paths on disk)')
assert log.count('agent.lock ' + outer + ' not checked: above the repository ' + repo + ' (ralon still enforces it there)') == 1
assert log.contains('agent.lock ' + repo + '/agent.lock: no protected path changed')
assert !log.contains('[ERROR]')
return true
