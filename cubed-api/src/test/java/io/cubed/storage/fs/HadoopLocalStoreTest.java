package io.cubed.storage.fs;

import static org.assertj.core.api.Assertions.assertThat;

import io.cubed.storage.Store;
import io.cubed.storage.StoreOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The store contract on {@link HadoopStore} over Hadoop's local {@code file://} file system. */
class HadoopLocalStoreTest extends StoreContract {
    static final StoreOptions HADOOP = StoreOptions.empty().with(Stores.BACKEND_OPTION, "hadoop");

    @TempDir
    Path dir;

    private Path root;

    @Override
    protected Store newStore() {
        root = dir.resolve("store.zarr");
        Store s = Stores.open(root.toUri().toString(), HADOOP);
        assertThat(io.cubed.storage.RetryingStore.unwrapAll(s)).isInstanceOf(HadoopStore.class);
        return s;
    }

    @Override
    protected boolean expectedObjectStore() {
        return false;
    }

    @Override
    protected void assertTempFilesGone() {
        assertThat(LocalStoreTest.tempFilesBelow(root)).isEmpty();
    }

    @Test
    void valuesArePlainFilesReadableByLocalStore() throws IOException {
        store.put("a/.zarray", bytes("meta"));
        store.put("a/0.0", bytes("chunk"));
        assertThat(Files.readAllBytes(root.resolve("a/0.0"))).isEqualTo(bytes("chunk"));
        try (Stream<Path> files = Files.walk(root)) {
            assertThat(files.filter(Files::isRegularFile)
                            .map(p -> root.relativize(p).toString()))
                    .as("no checksum side files")
                    .containsExactlyInAnyOrder("a/.zarray", "a/0.0");
        }
        assertThat(new LocalStore(root).list("")).containsExactly("a/.zarray", "a/0.0");
        assertThat(store.uri()).isEqualTo(new LocalStore(root).uri());
    }

    /** With rename, a value in pieces goes to its temporary file piece by piece, through the retrying wrapper too. */
    @Test
    void writesPiecesAsTheyCome() {
        assertThat(store).isInstanceOf(io.cubed.storage.RetryingStore.class);
        assertThat(store.putsInPieces()).isTrue();
        store.put("a/0.0", out -> {
            out.write(java.nio.ByteBuffer.wrap(bytes("one ")));
            // The first piece is in the temporary file already, which nobody lists.
            try (Stream<Path> files = Files.walk(root)) {
                assertThat(files.filter(Files::isRegularFile)
                                .map(p -> p.getFileName().toString())
                                .filter(n -> n.startsWith(LocalStore.TEMP_PREFIX)))
                        .hasSize(1);
            }
            assertThat(store.list("")).isEmpty();
            out.write(java.nio.ByteBuffer.wrap(bytes("two")));
        });
        assertThat(store.get("a/0.0")).isEqualTo(bytes("one two"));
        assertTempFilesGone();
    }

    @Test
    void unfinishedWritesAreNotListed() throws IOException {
        store.put("a/0.0", bytes("chunk"));
        Files.write(root.resolve("a").resolve(LocalStore.TEMP_PREFIX + "0.1-123"), bytes("partial"));
        assertThat(store.list("")).containsExactly("a/0.0");
    }

    @Test
    void plainPathsGoThroughHadoopWhenAsked() {
        store.put("k", bytes("v"));
        Store byPath = Stores.open(root.toString(), HADOOP);
        assertThat(io.cubed.storage.RetryingStore.unwrapAll(byPath)).isInstanceOf(HadoopStore.class);
        assertThat(byPath.get("k")).isEqualTo(bytes("v"));
        byPath.close();
    }
}
