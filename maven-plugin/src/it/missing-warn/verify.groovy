// The case needs a directory tree without agent.lock above it; one found there would be used instead.
for (def d = basedir.toPath().toAbsolutePath().normalize(); d != null; d = d.parent) {
  assert !java.nio.file.Files.exists(d.resolve("agent.lock")) :
      "agent.lock exists in " + d + ": this IT cannot run below it (move invoker cloneProjectsTo elsewhere)"
}
// No agent.lock anywhere: with the default onMissing=warn, three modules run the check, the build passes, and
// the warning is logged once per build.
def log = new File(basedir, 'build.log').text
assert log.contains('BUILD SUCCESS')
assert log.count('[WARNING] no agent.lock in ') == 1
assert log.contains('[WARNING] no agent.lock in ' + basedir.toPath().toAbsolutePath().normalize() + ' or any parent directory')
return true
