// A policyFile that does not exist is an execution error (onMissing only applies to the search).
def log = new File(basedir, 'build.log').text
assert log.contains('BUILD FAILURE')
assert log =~ /(?m)^\[ERROR\] Failed to execute goal dev\.ralon:agentlock-maven-plugin:\S+:check \(default\) on project policy-file-absent: .*no\/such\/agent\.lock.*/
assert log.contains('MojoExecutionException')
return true
