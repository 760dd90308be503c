package dev.ralon.spec;

import org.json.JSONArray;
import org.json.JSONObject;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** A temporary fixture tree, removed on close. */
record Fixture(Path root) implements AutoCloseable {
    interface Bytes {
        byte[] of(String resource);
    }

    static Fixture text(String name, String content) throws IOException {
        return create(new JSONArray().put(new JSONObject().put("path", name).put("file", content)), null);
    }

    /**
     * Builds the tree: entries {@code {"path", "file": text}}, {@code {"path", "bytes": vector file}},
     * {@code {"path", "dir": true}}, {@code {"path", "link": target}}; parents are created as directories.
     */
    static Fixture create(JSONArray tree, Bytes bytes) throws IOException {
        Path root = Files.createTempDirectory("agent-lock-vector").toRealPath();
        Fixture fx = new Fixture(root);
        try {
            for (int i = 0; i < tree.length(); i++) {
                JSONObject e = tree.getJSONObject(i);
                Path p = root.resolve(e.getString("path")).normalize();
                if (!p.startsWith(root)) {
                    throw new IOException("fixture path leaves the fixture: " + e.getString("path"));
                }
                if (p.getParent() != null) {
                    Files.createDirectories(p.getParent());
                }
                if (e.has("link")) {
                    Files.createSymbolicLink(p, Path.of(e.getString("link")));
                } else if (e.optBoolean("dir", false)) {
                    Files.createDirectories(p);
                } else if (e.has("bytes")) {
                    Files.write(p, bytes.of(e.getString("bytes")));
                } else {
                    Files.writeString(p, e.getString("file"));
                }
            }
        } catch (IOException | RuntimeException ex) {
            fx.close();
            throw ex;
        }
        return fx;
    }

    @Override
    public void close() {
        try (Stream<Path> s = Files.walk(root)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            // a leftover temporary directory is not a test failure
        }
    }
}
