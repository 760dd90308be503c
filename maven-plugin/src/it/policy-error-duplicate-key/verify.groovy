// agent.lock has a policy error: the build fails (MojoFailureException) with file:line:column and the reason.
def log = new File(basedir, 'build.log').text
def lock = new File(basedir, 'agent.lock').toPath().toAbsolutePath().normalize().toString()
assert log.contains('BUILD FAILURE')
def m = log =~ /(?m)^\[ERROR\] Failed to execute goal dev\.ralon:agentlock-maven-plugin:\S+:check \(default\) on project policy-error-duplicate-key: (\S+):(\d+):(\d+): (.+?) -> \[Help 1\]\r?$/
assert m.find() : 'no file:line:column error line in build.log'
assert m.group(1) == lock
assert m.group(2) == '4' : "line: " + m.group(2)
assert m.group(3) == '1' : "column: " + m.group(3)
assert m.group(4) =~ /duplicate key "version"/ : "reason: " + m.group(4)
assert log.contains('MojoFailureException')
assert !log.contains('agent.lock OK')
return true
