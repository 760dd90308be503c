// mvn agentlock:check with <policyFile>config/agent.lock</policyFile>: that file is checked, relative to the
// project's base directory, and the broken agent.lock next to the POM is not read.
def log = new File(basedir, 'build.log').text
def lock = new File(basedir, 'config/agent.lock').toPath().toAbsolutePath().normalize().toString()
assert log.contains('BUILD SUCCESS')
assert log.contains('[INFO] agent.lock OK: ' + lock + ' (1 pattern, ')
return true
