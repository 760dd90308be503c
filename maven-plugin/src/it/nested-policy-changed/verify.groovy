// The planted nested agent.lock only adds: the change to the file the project's agent.lock protects is found.
def log = new File(basedir, 'build.log').text
def top = new File(basedir, 'agent.lock').toPath().toAbsolutePath().normalize().toString()
assert log.contains('BUILD FAILURE')
def root = basedir.toPath().toRealPath().toString()
assert log.contains('protected paths changed (the work tree against HEAD): 2 paths (listed above)')
assert log.contains('[ERROR] ' + root + '/app/application.properties: M, protected by "app/application.properties" ('
    + top + ':3:')
return true
