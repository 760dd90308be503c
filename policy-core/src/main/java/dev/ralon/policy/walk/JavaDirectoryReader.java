package dev.ralon.policy.walk;

import java.io.IOException;
import java.nio.file.DirectoryIteratorException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** {@link DirectoryReader#JAVA}, and where the installed reader is kept. */
final class JavaDirectoryReader implements DirectoryReader {
    static final JavaDirectoryReader INSTANCE = new JavaDirectoryReader();
    static volatile DirectoryReader installed = INSTANCE;

    private JavaDirectoryReader() {
    }

    /**
     * @throws IOException                as {@link Files#newDirectoryStream(Path)}
     * @throws DirectoryIteratorException when reading the listing failed part-way (e.g. EIO; its cause says why)
     */
    @Override
    public List<Listed> list(Path dir) throws IOException {
        List<Listed> out = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
            for (Path c : ds) {
                // the path from the listing keeps the name's bytes (FileNames.undecodable compares with them)
                out.add(new Listed(c.getFileName().toString(), c, Type.UNKNOWN));
            }
        }
        return out;
    }
}
