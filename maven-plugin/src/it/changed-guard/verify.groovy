// agentlock:changed lists the protected modification and both sides of the rename, not the unprotected change.
def log = new File(basedir, 'build.log').text
assert log.contains('BUILD FAILURE')
assert log.contains('protected paths changed (the work tree against HEAD)')
assert log.contains('  M build.properties: protected by "build.properties" (line 4)')
assert log.contains('  R config/app.properties -> app.properties: protected by "config/" (line 3)')
assert !log.contains('notes.txt')
return true
