// `mvn agentlock:check` in a project that does not declare the plugin: the prefix resolves through the
// <pluginGroup>dev.ralon</pluginGroup> of settings.xml, because the plugin was installed by Maven 3.9, which writes
// the group-level metadata (maven-metadata-local.xml) that maps the prefix to the plugin. Installed by Maven 3.8 with
// maven-install-plugin 3.x this fails with "No plugin found for prefix 'agentlock'".
def log = new File(basedir, 'build.log').text
def lock = basedir.toPath().toAbsolutePath().normalize().resolve('agent.lock').toString()
assert !log.contains('No plugin found for prefix')
assert log.contains('BUILD SUCCESS')
assert log.contains('[INFO] agent.lock OK: ' + lock + ' (1 pattern, ')
return true
