// -Dagentlock.failOnUnmatched=true: a pattern that matches nothing fails the build.
def log = new File(basedir, 'build.log').text
def lock = new File(basedir, 'agent.lock').toPath().toAbsolutePath().normalize().toString()
assert log.contains('BUILD FAILURE')
assert log.contains('on project unmatched-fail: ' + lock + ':4:5: pattern "secrets/*.pem" matches nothing')
assert log.contains('MojoFailureException')
assert !log.contains('agent.lock OK')
return true
