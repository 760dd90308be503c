// -Dagentlock.failOnUnmatched=true: a pattern that matches nothing fails the build.
def log = new File(basedir, 'build.log').text
def lock = new File(basedir, 'agent.lock').toPath().toAbsolutePath().normalize().toString()
assert log.contains('BUILD FAILURE')
// the problem on its own [ERROR] line, file first (what IDEs and CI annotators match), then a one-line summary
assert log =~ ('(?m)^\\[ERROR\\] ' + java.util.regex.Pattern.quote(lock + ':4:5: pattern "secrets/*.pem" matches nothing'))
assert log.contains('on project unmatched-fail: agent.lock ' + lock + ': 1 problem (listed above)')
assert log.contains('MojoFailureException')
assert !log.contains('agent.lock OK')
return true
