// A docs-only branch, checked out with its whole history; main has changed a protected file since the branch left it.
evaluate(new File(itLib, 'git-fixture.groovy'))
def up = makeUpstream(['docs.md': '# Notes\nMore docs.\n'])
ciCheckout(up, 'refs/heads/pr', 0)
return true
