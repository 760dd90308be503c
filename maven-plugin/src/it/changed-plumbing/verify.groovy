// agentlock:changed gives the answers of ralon check --changed (the same ChangedPaths): the workflow the commit
// changed through git's objects (the file on disk unchanged), and the ignored code-running configuration, with where
// each change is; the ignored build output is not reported.
def log = new File(basedir, 'build.log').text
def top = basedir.toPath().toRealPath().toString()
assert log.contains('BUILD FAILURE')
assert log.contains('[ERROR] ' + top + '/.github/workflows/ci.yml: M, protected by ".github/workflows/" (' + top + '/agent.lock:3:5)')
assert log =~ /ci\.yml: M, .* \(in commits, worktree\)/
assert log.contains('[ERROR] ' + top + '/.mvn/jvm.config: A, code-running configuration: options of every mvn\'s JVM (-javaagent runs code) (in ignored)')
assert log.contains('protected paths changed (the work tree against HEAD~1): 2 paths (listed above)')
assert !log.contains('x.class')
return true
