// -Dagentlock.required=pom.xml,.github/workflows/ci.yml: ci.yml is not covered, so the build fails naming it.
def log = new File(basedir, 'build.log').text
def lock = new File(basedir, 'agent.lock').toPath().toAbsolutePath().normalize().toString()
assert log.contains('BUILD FAILURE')
assert log.contains(lock + ': required path ".github/workflows/ci.yml" is not protected')
assert !log.contains('required path "pom.xml"')
assert log.contains('MojoFailureException')
return true
