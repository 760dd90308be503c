// required paths all covered (a file pattern, a directory pattern covering files beneath it, even one that
// does not exist yet): the build passes.
def log = new File(basedir, 'build.log').text
assert log.contains('BUILD SUCCESS')
assert log.contains('3 required paths protected)')
return true
