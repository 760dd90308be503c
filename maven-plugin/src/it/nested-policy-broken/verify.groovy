// A broken agent.lock planted below the project's: it is in force, so the check fails naming it (it can stop the
// build, never make the check skip the project's policy).
def log = new File(basedir, 'build.log').text
def app = new File(basedir, 'app/agent.lock').toPath().toAbsolutePath().normalize().toString()
assert log.contains('BUILD FAILURE')
assert log.contains(app + ':')
return true
