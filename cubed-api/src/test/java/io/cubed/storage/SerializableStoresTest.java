package io.cubed.storage;

import static org.assertj.core.api.Assertions.assertThat;

import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.dtype.Scalar;
import io.cubed.grid.ChunkGrid;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import org.junit.jupiter.api.Test;

/** Chunk stores travel inside task functions to Spark executors: they survive Java serialization and still read. */
class SerializableStoresTest {
    @SuppressWarnings("unchecked")
    static <T> T roundTrip(T value) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(value);
        }
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            return (T) in.readObject();
        }
    }

    @Test
    void gridsAndVirtualArraysRoundTrip() throws Exception {
        ChunkGrid grid = ChunkGrid.of(new long[] {5, 4}, new int[] {2, 3});
        assertThat(roundTrip(grid)).isEqualTo(grid).hasSameHashCodeAs(grid);
        ChunkStore full = roundTrip(VirtualArray.full(grid, DType.FLOAT64, Scalar.ofDouble(1.5)));
        assertThat(full.readChunk(new long[] {2, 1}).doubles()).containsExactly(1.5);
        ChunkStore arange = roundTrip(VirtualArray.arange(0, 1, 10, 4, DType.INT64));
        assertThat(arange.readChunk(new long[] {2}).longs()).containsExactly(8, 9);
        Chunk data = Chunk.wrap(DType.INT32, new int[] {2, 2}, new int[] {1, 2, 3, 4});
        ChunkStore mem = roundTrip(VirtualArray.inMemory(data, ChunkGrid.of(new long[] {2, 2}, new int[] {1, 2})));
        assertThat(mem.readChunk(new long[] {1, 0}).ints()).containsExactly(3, 4);
        ChunkStore regrouped =
                roundTrip(RegroupedChunkStore.of(VirtualArray.arange(0, 1, 10, 2, DType.INT64), new int[] {4}));
        assertThat(regrouped.readChunk(new long[] {1}).longs()).containsExactly(4, 5, 6, 7);
    }
}
