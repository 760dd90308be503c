// agentlock:changed lists the protected modification and both sides of the rename, not the unprotected change: each
// on its own [ERROR] line, the file first (absolute), then the status and the pattern with its place in agent.lock.
def log = new File(basedir, 'build.log').text
def top = basedir.toPath().toRealPath().toString()
assert log.contains('BUILD FAILURE')
assert log.contains('[ERROR] ' + top + '/build.properties: M, protected by "build.properties" (' + top + '/agent.lock:4:5)')
assert log.contains('[ERROR] ' + top + '/app.properties: R from config/app.properties, protected by "config/" (' + top + '/agent.lock:3:5)')
assert log.contains('protected paths changed (the work tree against HEAD): 2 paths (listed above)')
assert !log.contains('notes.txt')

// the same findings as SARIF (agentlock.changed.sarifFile): one error per changed path, located at the path, the
// protecting pattern's place in agent.lock as a related location
def sarif = new groovy.json.JsonSlurper().parse(new File(basedir, 'target/changed.sarif'))
def results = sarif.runs[0].results
def uri = { String rel -> new File(top, rel).toPath().toUri().toString() }
assert results.size() == 2 : results
def byUri = results.collectEntries { [(it.locations[0].physicalLocation.artifactLocation.uri): it] }
assert byUri.keySet() == [uri('build.properties'), uri('app.properties')] as Set : byUri.keySet()
def modified = byUri[uri('build.properties')]
assert modified.ruleId == 'protected-path-changed' && modified.level == 'error'
// the work tree's rule and the base revision's (HEAD:agent.lock, not a file on disk: no location of its own)
assert modified.message.text == 'M, protected by "build.properties" (' + top + '/agent.lock:4:5), "build.properties" (HEAD:agent.lock:4:5) (in worktree)'
assert modified.relatedLocations*.physicalLocation*.region == [[startLine: 4, startColumn: 5]]
assert modified.relatedLocations[0].physicalLocation.artifactLocation.uri == uri('agent.lock')
def renamed = byUri[uri('app.properties')]
assert renamed.message.text.startsWith('R from config/app.properties, protected by "config/"')
assert renamed.relatedLocations*.physicalLocation*.region == [[startLine: 3, startColumn: 5]]
return true
