// The case needs a directory tree without agent.lock above it; one found there would be used instead.
for (def d = basedir.toPath().toAbsolutePath().normalize(); d != null; d = d.parent) {
  assert !java.nio.file.Files.exists(d.resolve("agent.lock")) :
      "agent.lock exists in " + d + ": this IT cannot run below it (move invoker cloneProjectsTo elsewhere)"
}
// onMissing=fail: no agent.lock fails the build.
def log = new File(basedir, 'build.log').text
assert log.contains('BUILD FAILURE')
assert log.contains('on project missing-fail: no agent.lock in ' + basedir.toPath().toAbsolutePath().normalize() + ' or any parent directory (agentlock.onMissing=fail)')
assert log.contains('MojoFailureException')
return true
