// An agent's session: it stages a protected change, changes an unprotected file, and plants in the repository every
// helper git can be told to run (fsmonitor, clean/process filters via .gitattributes and .git/info/attributes,
// external diff, textconv, a diff driver command, a pager, a hooks directory, an included config file). Each leaves
// a marker file outside the project when run.
evaluate(new File(itLib, 'git-fixture.groovy'))
def marker = new File(basedir.parentFile, basedir.name + '-PWNED')
marker.delete()
def leave = "echo ran >> " + marker.absolutePath
def run = "sh -c '" + leave + "'"                   // fsmonitor, external diff, diff command, pager
def filter = "sh -c '" + leave + "; cat'"           // a clean filter copies stdin to stdout
def textconv = "sh -c '" + leave + "; cat \"\$0\"'" // textconv gets the file name
gitIn(basedir, ['init', '-q'])
gitIn(basedir, ['add', 'agent.lock', 'secret.txt', 'notes.txt', 'pom.xml'])
gitIn(basedir, ['commit', '-qm', 'base'])
new File(basedir, 'secret.txt').text = 'changed by the agent\n'
gitIn(basedir, ['add', 'secret.txt'])
Thread.sleep(1100) // a later mtime second: notes.txt is stat-dirty, so git compares content
new File(basedir, 'notes.txt').text = 'notes changed by the agent\n'
new File(basedir, '.gitattributes').text = '* filter=x diff=d\n'
writeFile(basedir, '.git/info/attributes', '*.txt filter=y\n')
['core.fsmonitor', 'filter.x.process', 'diff.external', 'diff.d.command', 'core.pager'].each {
    gitIn(basedir, ['config', it, run])
}
gitIn(basedir, ['config', 'filter.x.clean', filter])
gitIn(basedir, ['config', 'diff.d.textconv', textconv])
gitIn(basedir, ['config', 'core.hooksPath', basedir.parentFile.absolutePath])
def included = new File(basedir.parentFile, basedir.name + '-included.cfg')
included.text = '[filter "y"]\n\tclean = "' + filter.replace('"', '\\"') + '"\n'
gitIn(basedir, ['config', 'include.path', included.absolutePath])
// the plants are real: plain git runs them
def p = ['git', 'diff', 'HEAD'].execute(null, basedir)
p.waitForProcessOutput(new StringBuilder(), new StringBuilder())
assert marker.exists() : 'plain git did not run the planted helpers'
marker.delete()
return true
