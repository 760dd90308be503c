// agentlock:changed lists the protected modification and both sides of the rename, not the unprotected change: each
// on its own [ERROR] line, the file first (absolute), then the status and the pattern with its place in agent.lock.
def log = new File(basedir, 'build.log').text
def top = basedir.toPath().toRealPath().toString()
assert log.contains('BUILD FAILURE')
assert log.contains('[ERROR] ' + top + '/build.properties: M, protected by "build.properties" (' + top + '/agent.lock:4:5)')
assert log.contains('[ERROR] ' + top + '/app.properties: R from config/app.properties, protected by "config/" (' + top + '/agent.lock:3:5)')
assert log.contains('protected paths changed (the work tree against HEAD): 2 paths (listed above)')
assert !log.contains('notes.txt')
return true
