// agent.lock files below the module's directory are in force (docs/spec.md §2.2), as ralon run enforces them: the
// broken lib/deep/agent.lock (not a module, never on the way up) fails the check with its own position.
def log = new File(basedir, 'build.log').text
def deep = new File(basedir, 'lib/deep/agent.lock').toPath().toAbsolutePath().normalize().toString()
assert log.contains('BUILD FAILURE')
assert log.contains(deep + ':3:5:') : 'the nested file and its position are named'
return true
