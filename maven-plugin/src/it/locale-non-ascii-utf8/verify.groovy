// The same project under LC_ALL=C.UTF-8: docs/café.clé is matched by "docs/*.clé".
// docs/ goes in any case, by the shell: a later build whose JVM cannot name docs/café.clé (no UTF-8 locale) could
// not clean this clone for the next run
try {
    def log = new File(basedir, 'build.log').text
    assert log.contains('BUILD SUCCESS')
    assert log.contains('(1 pattern, 2 protected paths on disk)')
} finally {
    def rm = ['sh', '-c', 'rm -rf docs'].execute(null, basedir)
    rm.waitForProcessOutput(System.out, System.err)
}
return true
