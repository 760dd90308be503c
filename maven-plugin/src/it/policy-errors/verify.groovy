// Every module's agent.lock has one kind of policy error. Each module's build fails (MojoFailureException) with
// the absolute file, the line and column of the error, and the reason; no module reports OK.
def log = new File(basedir, 'build.log').text
assert log.contains('BUILD FAILURE')
assert !log.contains('agent.lock OK')
assert !log.contains('MojoExecutionException')
def cases = [   // module, line, column, reason
  ['yaml-syntax', 4, 2, /invalid YAML/],
  ['unknown-key', 2, 1, /unknown key "protected"/],
  ['bad-version', 3, 10, /unsupported version 2/],
  ['absolute-pattern', 4, 5, /"\/etc\/passwd".*(leading .\/.|absolute)/],
  ['dotdot', 3, 5, /"\.\.\/secrets\/key\.pem".*.\.\.. segment/],
  ['negation', 4, 6, /negation is not supported/],
  ['duplicate-key', 4, 1, /duplicate key "version"/],
  ['invalid-class', 3, 13, /character class that is never closed/],
]
for (c in cases) {
  def (name, line, col, reason) = c
  def lock = new File(basedir, name + '/agent.lock').toPath().toAbsolutePath().normalize().toString()
  def m = log =~ ('(?m)^\\[ERROR\\] Failed to execute goal dev\\.ralon:agentlock-maven-plugin:\\S+:check \\(default\\) on project '
      + name + ': (\\S+):(\\d+):(\\d+): (.+?) -> \\[Help 1\\]\r?$')
  assert m.find() : name + ': no file:line:column error line in build.log'
  assert m.group(1) == lock : name
  assert m.group(2) == line.toString() : name + ': line ' + m.group(2)
  assert m.group(3) == col.toString() : name + ': column ' + m.group(3)
  assert m.group(4) =~ reason : name + ': reason ' + m.group(4)
  assert !m.find() : name + ': error reported twice'
}
assert log.count('on project ') == cases.size() : 'one error per module, nothing else failed'
return true
