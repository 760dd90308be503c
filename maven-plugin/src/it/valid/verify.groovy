// A valid agent.lock: the build passes and the check says what it checked.
def log = new File(basedir, 'build.log').text
def lock = new File(basedir, 'agent.lock').toPath().toAbsolutePath().normalize().toString()
assert log.contains('BUILD SUCCESS')
assert log.contains('[INFO] agent.lock OK: ' + lock + ' (2 patterns, ')
assert !log.contains('[WARNING]')
return true
