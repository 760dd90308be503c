// A pattern that matches nothing is a warning by default; the build passes.
def log = new File(basedir, 'build.log').text
def lock = new File(basedir, 'agent.lock').toPath().toAbsolutePath().normalize().toString()
assert log.contains('BUILD SUCCESS')
assert log.contains('[WARNING] ' + lock + ':4:5: pattern "secrets/*.pem" matches nothing')
assert log.contains('[INFO] agent.lock OK: ' + lock)
return true
