// The same project under LC_ALL=C.UTF-8: docs/café.clé is matched by "docs/*.clé".
def log = new File(basedir, 'build.log').text
assert log.contains('BUILD SUCCESS')
assert log.contains('(1 pattern, 2 protected paths on disk)')
return true
