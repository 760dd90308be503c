package dev.ralon.cli;

import picocli.CommandLine.Command;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;

/** {@code ralon schema}: prints the agent.lock v1 JSON Schema, for editors (yaml-language-server) and CI. */
@Command(name = "schema", mixinStandardHelpOptions = true,
        description = {"Print the agent.lock v1 JSON Schema (draft-07).",
                "Save it next to agent.lock and point the file's first line at it:",
                "  # yaml-language-server: $schema=./agent.lock.schema.json"})
final class SchemaCommand implements Callable<Integer> {
    static final String RESOURCE = "/dev/ralon/spec/v1/agent-lock.schema.json";

    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        try (InputStream in = SchemaCommand.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw CliException.error("the schema is missing from this build: " + RESOURCE);
            }
            spec.commandLine().getOut().print(new String(in.readAllBytes(), StandardCharsets.UTF_8));
            spec.commandLine().getOut().flush();
        }
        return ExitCodes.OK;
    }
}
