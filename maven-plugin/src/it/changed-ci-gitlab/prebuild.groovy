// The documented GitLab recipe: a merge request pipeline (detached at the merge request's head) with GIT_DEPTH: 0,
// -Dagentlock.base=origin/$CI_MERGE_REQUEST_TARGET_BRANCH_NAME. A merge request that changes a protected file.
evaluate(new File(itLib, 'git-fixture.groovy'))
ciCheckout(makeUpstream(['config/app.properties': 'app=2\n']), 'refs/merge-requests/1/head', 0)
return true
