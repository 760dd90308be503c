// Maven's JVM under LC_ALL=C reads file names as ASCII: docs/café.clé cannot be named, so the check fails and says
// why and what to do, rather than pass with the file silently unprotected.
// docs/ goes in any case, by the shell: a later build whose JVM cannot name docs/café.clé (no UTF-8 locale) could
// not clean this clone for the next run
try {
    def log = new File(basedir, 'build.log').text
    assert log.contains('BUILD FAILURE')
    assert log.contains('cannot read the name of ')
    assert log.contains('docs/caf\\xC3\\xA9.cl\\xC3\\xA9')
    assert log.contains('LC_ALL=C.UTF-8 mvn')
} finally {
    def rm = ['sh', '-c', 'rm -rf docs'].execute(null, basedir)
    rm.waitForProcessOutput(System.out, System.err)
}
return true
