package io.cubed.storage.zarr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cubed.Cubed;
import io.cubed.array.CubedArray;
import io.cubed.array.Elementwise;
import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.dtype.Scalar;
import io.cubed.error.InvalidArgumentException;
import io.cubed.error.PlanException;
import io.cubed.error.StorageException;
import io.cubed.grid.ChunkGrid;
import io.cubed.plan.Spec;
import io.cubed.runtime.LocalExecutor;
import io.cubed.storage.ChunkStore;
import io.cubed.storage.StoreOptions;
import io.cubed.testing.TreeSnapshot;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An array is created only where nothing but an array is: a directory of other files (a user's directory given by
 * mistake, the working directory named by an empty path) is refused with or without overwrite, before anything there
 * is written or deleted, and overwriting an array deletes only an array's own names.
 */
class OccupiedPlaceTest {
    @TempDir
    Path tmp;

    private static final ChunkGrid GRID = ChunkGrid.of(new long[] {4, 6}, new int[] {2, 3});

    /** A directory holding a user's file and a subdirectory of theirs. */
    private Path usersDirectory(String name) throws Exception {
        Path dir = Files.createDirectories(tmp.resolve(name).resolve("sub"));
        Files.writeString(dir.resolve("notes.txt"), "theirs");
        Files.writeString(tmp.resolve(name).resolve("important.txt"), "theirs");
        return tmp.resolve(name);
    }

    private static void assertUnchanged(Path dir, Map<String, byte[]> before) {
        Map<String, byte[]> after = TreeSnapshot.of(dir);
        assertThat(after.keySet()).isEqualTo(before.keySet());
        for (String k : before.keySet()) {
            assertThat(after.get(k)).as(k).isEqualTo(before.get(k));
        }
    }

    @Test
    void aDirectoryOfOtherFilesIsRefusedInEitherVersionWithOrWithoutOverwrite() throws Exception {
        Path dir = usersDirectory("mine");
        Map<String, byte[]> before = TreeSnapshot.of(dir);
        for (ZarrFormat format : new ZarrFormat[] {ZarrFormat.v2(), ZarrFormat.v3()}) {
            for (boolean overwrite : new boolean[] {false, true}) {
                assertThatThrownBy(() ->
                                format.create(dir.toString(), GRID, DType.FLOAT64, overwrite, StoreOptions.empty()))
                        .isInstanceOf(StorageException.class)
                        .hasMessageContaining("cannot create an array at " + dir)
                        .hasMessageContaining("it is not empty and not a Zarr array: it holds 'important.txt', 'sub'");
                assertThat(Zarr.refusalToCreateArray(dir.toString(), StoreOptions.empty(), overwrite))
                        .contains("'important.txt', 'sub'");
                assertUnchanged(dir, before);
            }
        }
    }

    @Test
    void overwritingAnArrayThatAlsoHoldsOtherFilesIsRefusedAndDeletesNothing() throws Exception {
        for (ZarrFormat format : new ZarrFormat[] {ZarrFormat.v2(), ZarrFormat.v3()}) {
            Path dir = tmp.resolve("array-" + format.version());
            ChunkStore a = format.create(dir.toString(), GRID, DType.FLOAT64, false, StoreOptions.empty());
            a.writeChunk(Chunk.full(DType.FLOAT64, Scalar.ofDouble(7), new int[] {2, 3}), new long[] {1, 1});
            Files.writeString(dir.resolve("README"), "theirs");
            Files.writeString(dir.resolve("notes.md"), "theirs");
            Files.writeString(dir.resolve("old.txt"), "theirs");
            Files.writeString(dir.resolve("x.csv"), "theirs");
            Map<String, byte[]> before = TreeSnapshot.of(dir);
            assertThatThrownBy(() -> format.create(dir.toString(), GRID, DType.INT32, true, StoreOptions.empty()))
                    .isInstanceOf(StorageException.class)
                    .hasMessageContaining("cannot replace the array at " + dir)
                    .hasMessageContaining("besides the array, it holds 'README', 'notes.md', 'old.txt' and 1 more");
            assertUnchanged(dir, before);
        }
    }

    @Test
    void overwritingAnArrayOfItsOwnNamesOnlyReplacesIt() throws Exception {
        // v2 with each separator, v3 with its default chunk keys (c/…): every name is the array's.
        for (String kind : new String[] {"v2", "v2-slash", "v3"}) {
            Path dir = tmp.resolve("own-" + kind);
            ChunkStore a = kind.equals("v3")
                    ? ZarrFormat.v3().create(dir.toString(), GRID, DType.FLOAT64, false, StoreOptions.empty())
                    : ZarrArray.create(
                            dir.toString(),
                            ZarrCreateOptions.builder(GRID.shape(), GRID.chunkShape(), DType.FLOAT64)
                                    .dimensionSeparator(kind.equals("v2") ? "." : "/")
                                    .build());
            for (long i = 0; i < GRID.numChunks(); i++) {
                a.writeChunk(Chunk.full(DType.FLOAT64, Scalar.ofDouble(i), new int[] {2, 3}), GRID.chunkCoordsOf(i));
            }
            ZarrFormat format = kind.equals("v3") ? ZarrFormat.v3() : ZarrFormat.v2();
            DimensionNames.write(a, java.util.List.of("y", "x"));
            ChunkStore b = format.create(dir.toString(), GRID, DType.INT32, true, StoreOptions.empty());
            assertThat(b.dtype()).isEqualTo(DType.INT32);
            // The old chunks are gone: every chunk reads as the fill value.
            assertThat(Zarr.open(dir.toString(), StoreOptions.empty())
                            .readChunk(new long[] {1, 1})
                            .ints())
                    .containsOnly(0);
        }
    }

    @Test
    void chunksWithoutMetadataNeedOverwrite() throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("orphans"));
        Files.write(dir.resolve("0.0"), new byte[] {1, 2, 3});
        Files.write(dir.resolve("1.1"), new byte[] {1, 2, 3});
        assertThatThrownBy(
                        () -> ZarrFormat.v2().create(dir.toString(), GRID, DType.FLOAT64, false, StoreOptions.empty()))
                .isInstanceOf(StorageException.class)
                .hasMessageContaining("it holds chunks ('0.0', '1.1') but no array metadata");
        assertThat(dir.resolve("0.0")).exists();
        ChunkStore a = ZarrFormat.v2().create(dir.toString(), GRID, DType.FLOAT64, true, StoreOptions.empty());
        assertThat(dir.resolve("0.0")).doesNotExist();
        assertThat(a.readChunk(new long[] {0, 0}).doubles()).containsOnly(0.0);
    }

    @Test
    void anEmptyDirectoryTakesAnArray() throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("empty"));
        ChunkStore a = ZarrFormat.v2().create(dir.toString(), GRID, DType.FLOAT64, false, StoreOptions.empty());
        assertThat(a.grid().shape()).containsExactly(4, 6);
    }

    @Test
    void toZarrIntoADirectoryOfOtherFilesIsRefusedBeforeAnyTask() throws Exception {
        Spec spec = Spec.builder()
                .workDir(tmp.resolve("work").toString())
                .executor(new LocalExecutor(2, 1, 0))
                .build();
        Path dir = usersDirectory("target");
        Map<String, byte[]> before = TreeSnapshot.of(dir);
        CubedArray x = io.cubed.array.Creation.ones(new long[] {4, 6}, new int[] {2, 3}, DType.FLOAT64, spec);
        CubedArray y = Elementwise.add(x, Scalar.ofDouble(1));
        assertThatThrownBy(() -> y.toZarr(dir.toString()))
                .isInstanceOf(PlanException.class)
                .hasMessageContaining("writing " + y.name() + ": cannot create an array at " + dir)
                .hasMessageContaining("'important.txt', 'sub'");
        assertUnchanged(dir, before);
        // An empty path would be the working directory: refused, as is no path.
        for (String none : new String[] {"", " ", null}) {
            assertThatThrownBy(() -> y.toZarr(none))
                    .isInstanceOf(InvalidArgumentException.class)
                    .hasMessageContaining("no store location given");
            assertThatThrownBy(() -> Cubed.fromZarr(none, spec))
                    .isInstanceOf(InvalidArgumentException.class)
                    .hasMessageContaining("no store location given");
        }
    }
}
