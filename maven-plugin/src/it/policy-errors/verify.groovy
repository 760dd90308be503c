// Every module's agent.lock has one kind of policy error. Each module's build fails (MojoFailureException); the
// error is logged on its own line: the absolute file, the line and column of the error, and the reason.
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
  // each error on its own line, file first: [ERROR] /abs/agent.lock:L:C: reason
  def m = log =~ ('(?m)^\\[ERROR\\] ' + java.util.regex.Pattern.quote(lock) + ':(\\d+):(\\d+): (.+?)\r?$')
  assert m.find() : name + ': no [ERROR] file:line:column line in build.log'
  assert log.contains('on project ' + name + ': agent.lock ' + lock + ' is not valid: 1 error (listed above)') : name
  assert m.group(1) == line.toString() : name + ': line ' + m.group(1)
  assert m.group(2) == col.toString() : name + ': column ' + m.group(2)
  assert m.group(3) =~ reason : name + ': reason ' + m.group(3)
  assert !m.find() : name + ': error reported twice'
}
assert log.count('on project ') == cases.size() : 'one error per module, nothing else failed'
return true
