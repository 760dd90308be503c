// Three independent modules built in parallel (-T 3) share one agent.lock: whichever gets there first checks and
// reports it; the others wait for that result and only say it was already checked.
def log = new File(basedir, 'build.log').text
def lock = new File(basedir, 'agent.lock').toPath().toAbsolutePath().normalize().toString()
assert log.contains('BUILD SUCCESS')
assert !log.contains('@threadSafe')
assert log.count('agent.lock OK: ' + lock + ' (2 patterns, ') == 1
assert log.count('pattern "keys/**" matches nothing') == 1
assert log.count('agent.lock ' + lock + ' was already checked in this build (module dev.ralon.it:mmp-') == 2
return true
