// A file with four mistakes: all four are reported in one build, each on its own [ERROR] line, file first.
def log = new File(basedir, 'build.log').text
def lock = new File(basedir, 'agent.lock').toPath().toAbsolutePath().normalize().toString()
assert log.contains('BUILD FAILURE')
for (line in 3..6) {
  assert log =~ ('(?m)^\\[ERROR\\] ' + java.util.regex.Pattern.quote(lock + ':' + line + ':') + '\\d+: \\S') : 'line ' + line
}
assert log.contains('on project policy-four-errors: agent.lock ' + lock + ' is not valid: 4 errors (listed above)')
return true
