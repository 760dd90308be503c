// Maven's JVM under LC_ALL=C reads file names as ASCII: docs/café.clé cannot be named, so the check fails and says
// why and what to do, rather than pass with the file silently unprotected.
def log = new File(basedir, 'build.log').text
assert log.contains('BUILD FAILURE')
assert log.contains('cannot read the name of ')
assert log.contains('docs/caf\\xC3\\xA9.cl\\xC3\\xA9')
assert log.contains('LC_ALL=C.UTF-8 mvn')
return true
