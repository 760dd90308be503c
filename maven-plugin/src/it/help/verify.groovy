// mvn agentlock:help describes the check goal and its parameters.
def log = new File(basedir, 'build.log').text
assert log.contains('BUILD SUCCESS')
assert log.contains('agentlock:check')
for (p in ['skip', 'policyFile', 'onMissing', 'failOnUnmatched', 'required']) {
  assert log.contains(p) : p
}
assert log.contains('agentlock.failOnUnmatched')
return true
