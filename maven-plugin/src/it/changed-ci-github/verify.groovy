// Judged against the merge base of origin/main and the merge commit: only the docs change, so it passes, although
// main changed build.properties since the branch left it.
def log = new File(basedir, 'build.log').text
assert log.contains('BUILD SUCCESS')
assert log.contains('no protected path changed (the work tree against origin/main)')
return true
