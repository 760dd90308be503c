// docs/café.clé, created by the shell from its bytes (this JVM may not be able to name it: the outer build's locale)
def p = ['sh', '-c', 'mkdir -p docs && printf x > "$(printf "docs/caf\\303\\251.cl\\303\\251")"'].execute(null, basedir)
p.waitForProcessOutput(System.out, System.err)
assert p.exitValue() == 0
return true
