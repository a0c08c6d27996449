package io.cubed.storage;

import static org.assertj.core.api.Assertions.assertThat;

import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.grid.ChunkGrid;
import io.cubed.storage.zarr.ZarrArray;
import io.cubed.storage.zarr.ZarrCreateOptions;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Reading a regrouped view's chunks into targets, against a plain loop over the element index. */
class RegroupedChunkStoreTest {
    private static final long[] SHAPE = {7, 5};

    /** A 7 x 5 int32 Zarr array in 2 x 2 chunks whose element (i, j) is 5 i + j. */
    private static ZarrArray source() {
        ZarrArray a = ZarrArray.create(
                "memory://regrouped-test-" + UUID.randomUUID(),
                ZarrCreateOptions.builder(SHAPE, new int[] {2, 2}, DType.INT32).build());
        ChunkGrid g = a.grid();
        for (long i = 0; i < g.numChunks(); i++) {
            long[] coords = g.chunkCoordsOf(i);
            a.writeChunk(box(g.chunkOffset(coords), g.chunkShapeAt(coords)), coords);
        }
        return a;
    }

    /** The box of {@code shape} at {@code offset} of the reference array. */
    private static Chunk box(long[] offset, int[] shape) {
        Chunk c = Chunk.allocate(DType.INT32, shape);
        for (int i = 0; i < shape[0]; i++) {
            for (int j = 0; j < shape[1]; j++) {
                c.ints()[i * shape[1] + j] = (int) ((offset[0] + i) * SHAPE[1] + offset[1] + j);
            }
        }
        return c;
    }

    private static void assertReadIntoMatches(ChunkStore view) {
        ChunkGrid targetGrid = ChunkGrid.of(SHAPE, new int[] {3, 3});
        int n = (int) targetGrid.numChunks();
        Chunk[] targets = new Chunk[n];
        long[][] offsets = new long[n][];
        for (int t = 0; t < n; t++) {
            long[] coords = targetGrid.chunkCoordsOf(t);
            offsets[t] = targetGrid.chunkOffset(coords);
            targets[t] = Chunk.full(DType.INT32, io.cubed.dtype.Scalar.ofLong(-1), targetGrid.chunkShapeAt(coords));
        }
        ChunkGrid g = view.grid();
        for (long i = 0; i < g.numChunks(); i++) {
            view.readChunkInto(g.chunkCoordsOf(i), targets, offsets);
        }
        for (int t = 0; t < n; t++) {
            assertThat(targets[t].ints())
                    .as("target at %s", java.util.Arrays.toString(offsets[t]))
                    .containsExactly(box(offsets[t], targets[t].shape()).ints());
        }
    }

    @Test
    void regroupedChunksReadIntoTargetsGiveTheArray() {
        ChunkStore view = RegroupedChunkStore.of(source(), new int[] {4, 4});
        assertThat(view).isInstanceOf(RegroupedChunkStore.class);
        assertReadIntoMatches(view);
    }

    @Test
    void oneRegroupedChunkGoesOnlyWhereItOverlaps() {
        ChunkStore view = RegroupedChunkStore.of(source(), new int[] {4, 4});
        Chunk target = Chunk.full(DType.INT32, io.cubed.dtype.Scalar.ofLong(-1), 7, 5);
        view.readChunkInto(new long[] {1, 0}, new Chunk[] {target}, new long[][] {{0, 0}});
        for (int i = 0; i < 7; i++) {
            for (int j = 0; j < 5; j++) {
                int expected = i >= 4 && j < 4 ? 5 * i + j : -1;
                assertThat(target.ints()[5 * i + j]).as("(%d, %d)", i, j).isEqualTo(expected);
            }
        }
    }

    @Test
    void storesWithoutTheirOwnReadIntoReadTheChunkAndCopy() {
        // VirtualArray keeps ChunkStore's default: read the chunk, copy the overlap.
        int[] data = new int[35];
        for (int i = 0; i < data.length; i++) {
            data[i] = i;
        }
        ChunkStore mem = VirtualArray.inMemory(
                Chunk.wrap(DType.INT32, new int[] {7, 5}, data), ChunkGrid.of(SHAPE, new int[] {2, 4}));
        assertReadIntoMatches(mem);
    }

    @Test
    void aChunkThatReachesTheEndOfTheAxisIsTakenThoughNoMultipleOfTheStoredOne() {
        // 7 rows in stored chunks of 2: 7 (the whole axis) is no multiple of 2 but holds 3 whole chunks and the edge.
        ChunkStore whole = RegroupedChunkStore.of(source(), new int[] {7, 4});
        assertThat(whole.grid().chunksPerAxis()).containsExactly(1, 2);
        assertThat(whole.readChunk(new long[] {0, 1}).ints())
                .containsExactly(box(new long[] {0, 4}, new int[] {7, 1}).ints());
        assertReadIntoMatches(whole);
        // Through fromZarr: -1 for the whole axis.
        ZarrArray a = source();
        io.cubed.plan.Spec spec = io.cubed.plan.Spec.builder()
                .workDir(System.getProperty("java.io.tmpdir") + "/regrouped-" + UUID.randomUUID())
                .build();
        io.cubed.array.CubedArray x = io.cubed.Cubed.fromZarr(a.url(), spec, -1, 4);
        assertThat(x.chunkShape()).containsExactly(7, 4);
        assertThat(x.compute().ints())
                .containsExactly(box(new long[] {0, 0}, new int[] {7, 5}).ints());
        // A chunk short of the end must still be a multiple.
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> RegroupedChunkStore.of(source(), new int[] {3, 2}))
                .hasMessageContaining("must be multiples of its stored chunks [2, 2] (axis 0)");
    }
}
