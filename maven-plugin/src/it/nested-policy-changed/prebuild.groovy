// A real git repository. Then the branch an agent wrote: it plants app/agent.lock ("version: 1") and changes the
// file the project's agent.lock protects, in the module where CI runs agentlock:changed.
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
new File(basedir, 'app/agent.lock').text = 'version: 1\n'
new File(basedir, 'app/application.properties').text = 'server.port=6666\n'
return true
