// agentlock:changed ran git twice (work tree against HEAD, index against HEAD) and ran none of the planted helpers;
// both found the staged protected change. failOnError=false: reported as warnings, the build goes on.
def log = new File(basedir, 'build.log').text
def top = basedir.toPath().toRealPath().toString()
def marker = new File(basedir.parentFile, basedir.name + '-PWNED')
assert !marker.exists() : 'agentlock:changed ran a planted helper: ' + marker.text
assert log.contains('BUILD SUCCESS')
assert log.count('[WARNING] ' + top + '/secret.txt: M, protected by "secret.txt" (' + top + '/agent.lock:3:5)') == 2
assert log.contains('protected paths changed (the work tree against HEAD): 1 path (listed above) (agentlock.failOnError=false: the build goes on)')
assert log.contains('protected paths changed (the index against HEAD): 1 path (listed above) (agentlock.failOnError=false: the build goes on)')
assert !log.contains('notes.txt')
return true
