// agent.lock exists but cannot be read as a file: an execution error (MojoExecutionException), not a policy failure.
def log = new File(basedir, 'build.log').text
def lock = new File(basedir, 'agent.lock').toPath().toAbsolutePath().normalize().toString()
assert log.contains('BUILD FAILURE')
assert log =~ /(?m)^\[ERROR\] Failed to execute goal dev\.ralon:agentlock-maven-plugin:\S+:check \(default\) on project policy-not-a-file: \Q${lock}\E.*/
assert log.contains('MojoExecutionException')
assert !log.contains('MojoFailureException')
return true
