// An agent planted app/agent.lock ("version: 1", protecting nothing but itself) next to the module's POM. Policies
// only add: the project's agent.lock above stays in force, so the required path it protects is still protected, and
// both files are checked and named.
def log = new File(basedir, 'build.log').text
def top = new File(basedir, 'agent.lock').toPath().toAbsolutePath().normalize().toString()
def app = new File(basedir, 'app/agent.lock').toPath().toAbsolutePath().normalize().toString()
assert log.contains('BUILD SUCCESS')
assert log.contains('agent.lock OK: ' + top + ', ' + app + ' (1 pattern, ')
assert log.contains('1 required path protected)')
return true
