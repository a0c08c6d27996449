package io.cubed.storage.fs;

import static org.assertj.core.api.Assertions.assertThat;

import io.cubed.storage.Store;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The store contract on {@link LocalStore}, plus what only a directory on disk shows. */
class LocalStoreTest extends StoreContract {
    @TempDir
    Path dir;

    private Path root;

    @Override
    protected Store newStore() {
        root = dir.resolve("store.zarr");
        return new LocalStore(root);
    }

    @Override
    protected boolean expectedObjectStore() {
        return false;
    }

    @Override
    protected void assertTempFilesGone() {
        assertThat(tempFilesBelow(root)).isEmpty();
    }

    static List<Path> tempFilesBelow(Path root) {
        if (!Files.exists(root)) {
            return List.of();
        }
        try (Stream<Path> walk = Files.walk(root)) {
            return walk.filter(p -> p.getFileName().toString().startsWith(LocalStore.TEMP_PREFIX))
                    .toList();
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void valuesAreFilesAtTheKeyPath() throws IOException {
        store.put("a/0.0", bytes("chunk"));
        assertThat(Files.readAllBytes(root.resolve("a").resolve("0.0"))).isEqualTo(bytes("chunk"));
        assertThat(store.uri()).isEqualTo(root.toUri().toString().replaceAll("/$", ""));
    }

    @Test
    void unfinishedWritesAreNotListed() throws IOException {
        store.put("a/0.0", bytes("chunk"));
        Files.write(root.resolve("a").resolve(LocalStore.TEMP_PREFIX + "0.1-123"), bytes("partial"));
        assertThat(store.list("")).containsExactly("a/0.0");
        assertThat(store.list("a")).containsExactly("a/0.0");
    }

    @Test
    void storesOpenPlainPathsAndFileUrisAsLocalStores() {
        store.put("k", bytes("v"));
        Store byPath = Stores.open(root.toString());
        Store byUri = Stores.open(root.toUri().toString());
        assertThat(byPath).isInstanceOf(LocalStore.class);
        assertThat(byUri).isInstanceOf(LocalStore.class);
        assertThat(byPath.get("k")).isEqualTo(bytes("v"));
        assertThat(byUri.get("k")).isEqualTo(bytes("v"));
        assertThat(byUri.uri()).isEqualTo(store.uri());
    }

    @Test
    void getRangeOfADirectoryIsNull() {
        store.put("d/k", bytes("v"));
        assertThat(store.getRange("d", 0, 1)).isNull();
    }

    @Test
    void putFailsWhenADirectoryIsAtTheKey() {
        store.put("d/k", bytes("v"));
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> store.put("d", bytes("x")))
                .isInstanceOf(io.cubed.error.StorageException.class)
                .hasMessageContaining("'d'")
                .hasMessageContaining(store.uri());
        assertThat(store.list("")).containsExactly("d/k");
        assertTempFilesGone();
    }

    @Test
    void deletePrefixRemovesALargeNestedTreeOnSeveralThreads() throws IOException {
        // More files than the calling thread deletes alone, in nested chunk directories as '/'-separated Zarr keys.
        int n = 0;
        for (int i = 0; i < 12; i++) {
            for (int j = 0; j < 25; j++) {
                store.put("arr.zarr/" + i + "/" + j, bytes("chunk " + i + "." + j));
                n++;
            }
        }
        store.put("arr.zarr/.zarray", bytes("{}"));
        store.put("arr.zarr2/0", bytes("sibling"));
        assertThat(n).isGreaterThan(4 * LocalStore.PARALLEL_DELETE_FILES);
        store.deletePrefix("arr.zarr");
        assertThat(store.list("")).containsExactly("arr.zarr2/0");
        assertThat(Files.exists(root.resolve("arr.zarr")))
                .as("directories go too")
                .isFalse();
        store.deletePrefix("");
        assertThat(store.list("")).isEmpty();
    }

    @Test
    void valuesOfVaryingLengthsShareOneRecycledArray() {
        byte[] shorter = new byte[100_000];
        byte[] longer = new byte[150_000];
        java.util.Arrays.fill(shorter, (byte) 1);
        java.util.Arrays.fill(longer, (byte) 2);
        store.put("a/0", longer);
        store.put("a/1", shorter);
        try (io.cubed.chunk.ArrayRecycler.Scope s = io.cubed.chunk.ArrayRecycler.open("op-1 read", 1 << 20)) {
            Store.Bytes first = store.getTransient("a/0", 200_000);
            assertThat(first.length()).isEqualTo(150_000);
            assertThat(first.array()).hasSize(200_000);
            assertThat(java.util.Arrays.copyOf(first.array(), first.length())).isEqualTo(longer);
            io.cubed.chunk.ArrayRecycler.giveBack(first.array());
            Store.Bytes second = store.getTransient("a/1", 200_000);
            assertThat(second.array()).isSameAs(first.array());
            assertThat(second.length()).isEqualTo(100_000);
            assertThat(java.util.Arrays.copyOf(second.array(), second.length())).isEqualTo(shorter);
            // A value longer than the capacity gets an array of its own length.
            assertThat(store.getTransient("a/0", 1000).array()).hasSize(150_000);
            assertThat(store.getTransient("missing", 1000)).isNull();
        } finally {
            io.cubed.chunk.ArrayRecycler.releaseIdle();
        }
    }
}
