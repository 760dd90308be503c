// -Dagentlock.skip=true: the (broken) agent.lock is not read and the build passes.
def log = new File(basedir, 'build.log').text
assert log.contains('BUILD SUCCESS')
assert log.contains('[INFO] agent.lock check skipped (agentlock.skip)')
assert !log.contains('protected')
return true
