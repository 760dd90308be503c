// The branch's protected change fails the build; main's change since the branch left it is not blamed.
def log = new File(basedir, 'build.log').text
def top = basedir.toPath().toRealPath().toString()
assert log.contains('BUILD FAILURE')
assert log.contains('[ERROR] ' + top + '/config/app.properties: M, protected by "config/" (' + top + '/agent.lock:3:5)')
assert !log.contains(top + '/build.properties')
return true
