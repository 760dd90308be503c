// repo/ is a git repository of its own, nested under a directory whose agent.lock belongs to another project.
evaluate(new File(itLib, 'git-fixture.groovy'))
def repo = new File(basedir, 'repo')
gitIn(repo, ['init', '-q'])
gitIn(repo, ['add', '-A'])
gitIn(repo, ['commit', '-qm', 'base'])
return true
