// The case needs a directory tree without agent.lock above it; one found there would be used instead.
for (def d = basedir.toPath().toAbsolutePath().normalize(); d != null; d = d.parent) {
  assert !java.nio.file.Files.exists(d.resolve("agent.lock")) :
      "agent.lock exists in " + d + ": this IT cannot run below it (move invoker cloneProjectsTo elsewhere)"
}
// onMissing=ignore: no agent.lock, no word about it, build passes.
def log = new File(basedir, 'build.log').text
assert log.contains('BUILD SUCCESS')
assert log =~ /--- agentlock(-maven-plugin)?:\S+:check \(default\)/  // the goal did run (Maven 3.9 shows the prefix)
assert !log.contains('no agent.lock')
assert !log.contains('[WARNING]')
return true
