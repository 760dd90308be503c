// The planted nested agent.lock only adds: the change to the file the project's agent.lock protects is found.
def log = new File(basedir, 'build.log').text
def top = new File(basedir, 'agent.lock').toPath().toAbsolutePath().normalize().toString()
assert log.contains('BUILD FAILURE')
assert log.contains('protected paths changed (the work tree against HEAD), see ' + top + ', ')
assert log.contains('M app/application.properties: protected by "app/application.properties" (' + top + ' line 3)')
return true
