// The other documented GitHub Actions recipe: fetch-depth: 2 and -Dagentlock.base=HEAD^1, the merge commit's first
// parent (main as the pull request will be merged into it). A pull request that changes a protected file.
evaluate(new File(itLib, 'git-fixture.groovy'))
ciCheckout(makeUpstream(['config/app.properties': 'app=2\n']), 'refs/pull/1/merge', 2)
return true
