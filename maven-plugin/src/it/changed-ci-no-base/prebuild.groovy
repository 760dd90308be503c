// What actions/checkout makes for a pull request by default: the merge commit, one commit deep, detached.
evaluate(new File(itLib, 'git-fixture.groovy'))
ciCheckout(makeUpstream(['config/app.properties': 'app=2\n']), 'refs/pull/1/merge', 1)
return true
