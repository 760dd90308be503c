// The protected change fails the build, on its own [ERROR] line, file first; main's own change is not blamed.
def log = new File(basedir, 'build.log').text
def top = basedir.toPath().toRealPath().toString()
assert log.contains('BUILD FAILURE')
assert log.contains('[ERROR] ' + top + '/config/app.properties: M, protected by "config/" (' + top + '/agent.lock:3:5)')
assert !log.contains(top + '/build.properties')
assert log.contains('protected paths changed (the work tree against HEAD^1): 1 path (listed above)')
return true
