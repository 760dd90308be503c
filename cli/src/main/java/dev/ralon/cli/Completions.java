package dev.ralon.cli;

import dev.ralon.enforcer.spi.Enforcer;
import dev.ralon.host.Backends;
import picocli.CommandLine.ITypeConverter;

import java.util.Iterator;

/**
 * What {@code ralon generate-completion} completes beyond option names: backend names (the backends this build
 * discovers), hook formats, and file names for the arguments that are paths (declared with {@code type = Path.class}
 * and {@link Verbatim}, so picocli's bash script completes files while the command still gets the words as typed).
 */
final class Completions {
    private Completions() {
    }

    /** The backends this build discovers (service loader), for {@code --backend}. */
    static final class BackendNames implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            return Backends.discover().all().stream().map(Enforcer::name).iterator();
        }
    }

    /**
     * Keeps an argument as typed (a String). Declared with {@code type = Path.class} on a String parameter, it makes
     * picocli's completion script complete file names, without turning the words into normalised {@code Path}s
     * (check prints the paths as given, identically with and without picocli).
     */
    static final class Verbatim implements ITypeConverter<Object> {
        @Override
        public Object convert(String value) {
            return value;
        }
    }
}
