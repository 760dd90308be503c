// Shared by the changed-* cases (evaluated by their prebuild.groovy; `itLib` and `basedir` come from the invoker):
// a real upstream repository, and the checkout a CI system makes of it in the case's own directory.
import groovy.io.FileType

gitIn = { File dir, List<String> args ->
    def cmd = ['git', '-c', 'user.email=it@example.org', '-c', 'user.name=it', '-c', 'commit.gpgsign=false',
               '-c', 'init.defaultBranch=main'] + args
    def out = new StringBuilder()
    def err = new StringBuilder()
    def p = cmd.execute(null, dir)
    p.waitForProcessOutput(out, err)
    assert p.exitValue() == 0 : "failed: " + cmd + "\n" + err
    return out.toString().trim()
}

writeFile = { File dir, String rel, String text ->
    def f = new File(dir, rel)
    f.parentFile.mkdirs()
    f.text = text
}

// The project (the case's files, not the invoker's) committed on main; a branch `pr` that makes `prChanges`; then main
// moves on with a protected change of its own (build.properties), which the branch must not be blamed for. Also what
// GitHub and GitLab publish for the pull/merge request: refs/pull/1/head, refs/merge-requests/1/head (the branch) and
// refs/pull/1/merge (the merge commit, first parent main).
makeUpstream = { Map<String, String> prChanges ->
    def up = new File(basedir.parentFile, basedir.name + '-upstream')
    up.deleteDir()
    up.mkdirs()
    def skip = ['build.log', 'invoker.properties', 'prebuild.groovy', 'verify.groovy']
    basedir.eachFileRecurse(FileType.FILES) { f ->
        def rel = basedir.toPath().relativize(f.toPath()).toString()
        if (!skip.contains(rel) && !rel.startsWith('.git/') && !rel.startsWith('target/')) {
            writeFile(up, rel, f.text)
        }
    }
    gitIn(up, ['init', '-q'])
    gitIn(up, ['add', '-A'])
    gitIn(up, ['commit', '-qm', 'base'])
    gitIn(up, ['checkout', '-qb', 'pr'])
    prChanges.each { rel, text -> writeFile(up, rel, text) }
    gitIn(up, ['add', '-A'])
    gitIn(up, ['commit', '-qm', 'the pull request'])
    gitIn(up, ['checkout', '-q', 'main'])
    writeFile(up, 'build.properties', 'v=main moved on\n')
    gitIn(up, ['commit', '-qam', 'main moves on'])
    gitIn(up, ['update-ref', 'refs/pull/1/head', 'pr'])
    gitIn(up, ['update-ref', 'refs/merge-requests/1/head', 'pr'])
    gitIn(up, ['checkout', '-q', '--detach', 'main'])
    gitIn(up, ['merge', '-q', '--no-ff', '-m', 'Merge pr into main', 'pr'])
    gitIn(up, ['update-ref', 'refs/pull/1/merge', 'HEAD'])
    gitIn(up, ['checkout', '-q', 'main'])
    return up
}

// The checkout a CI system makes in the case's directory, as actions/checkout does it: init, fetch `ref` with
// `depth` commits of history (0: all history and every branch, as fetch-depth: 0 or GIT_DEPTH: 0), check it out
// detached. A file:// URL, because git ignores --depth for a plain local path.
ciCheckout = { File up, String ref, int depth ->
    gitIn(basedir, ['init', '-q'])
    gitIn(basedir, ['remote', 'add', 'origin', 'file://' + up.absolutePath])
    def fetch = ['fetch', '-q', '--no-tags']
    if (depth > 0) {
        fetch += ['--depth=' + depth, 'origin', '+' + ref + ':refs/remotes/ci/checkout']
    } else {
        fetch += ['origin', '+refs/heads/*:refs/remotes/origin/*', '+' + ref + ':refs/remotes/ci/checkout']
    }
    gitIn(basedir, fetch)
    gitIn(basedir, ['checkout', '-q', '--force', '--detach', 'refs/remotes/ci/checkout'])
}
