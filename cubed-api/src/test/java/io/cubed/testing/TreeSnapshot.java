package io.cubed.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/** Every regular file under a directory with its bytes, by relative path: to check that nothing there changed. */
public final class TreeSnapshot {
    private TreeSnapshot() {}

    /** The files under {@code dir} (recursively) and their bytes, sorted by path relative to {@code dir}. */
    public static Map<String, byte[]> of(Path dir) {
        Map<String, byte[]> out = new TreeMap<>();
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.filter(Files::isRegularFile).toList()) {
                out.put(dir.relativize(p).toString(), Files.readAllBytes(p));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }
}
