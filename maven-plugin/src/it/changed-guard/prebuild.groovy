// A real git repository: commit, then change a protected file, rename one out of a protected directory,
// and change an unprotected one.
def run(List<String> cmd) {
    def p = cmd.execute(null, basedir)
    p.waitForProcessOutput(System.out, System.err)
    assert p.exitValue() == 0 : "failed: " + cmd
}
run(['git', 'init', '-q'])
run(['git', 'config', 'user.email', 'it@example.org'])
run(['git', 'config', 'user.name', 'it'])
run(['git', 'add', '-A'])
run(['git', 'commit', '-qm', 'base'])
new File(basedir, 'build.properties').text = 'v=2\n'
run(['git', 'mv', 'config/app.properties', 'app.properties'])
new File(basedir, 'notes.txt').text = 'more notes\n'
return true
