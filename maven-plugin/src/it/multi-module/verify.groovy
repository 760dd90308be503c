// One agent.lock above four modules that all run the check: it is checked and reported once, by the first
// module; the other modules find it by walking up and only say it was already checked.
def log = new File(basedir, 'build.log').text
def lock = new File(basedir, 'agent.lock').toPath().toAbsolutePath().normalize().toString()
assert log.contains('BUILD SUCCESS')
assert log.count('agent.lock OK: ' + lock) == 1
assert log.count('pattern "keys/**" matches nothing') == 1
assert log.count('agent.lock ' + lock + ' was already checked in this build (module dev.ralon.it:multi-module): OK') == 3
return true
