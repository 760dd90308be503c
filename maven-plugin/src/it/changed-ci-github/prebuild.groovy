// The documented GitHub Actions recipe: actions/checkout with fetch-depth: 0 (the merge commit, all branches),
// -Dagentlock.base=origin/${{ github.base_ref }}. A docs-only pull request.
evaluate(new File(itLib, 'git-fixture.groovy'))
ciCheckout(makeUpstream(['docs.md': '# Notes\nMore docs.\n']), 'refs/pull/1/merge', 0)
return true
