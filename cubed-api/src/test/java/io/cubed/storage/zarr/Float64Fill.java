package io.cubed.storage.zarr;

import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.grid.ChunkGrid;

/** Test data: every chunk of a 2-d float64 array written from a function of the element's position. */
public final class Float64Fill {
    /** The value at row {@code i}, column {@code j}. */
    @FunctionalInterface
    public interface Element {
        double at(long i, long j);
    }

    private Float64Fill() {}

    /** Writes every chunk of the 2-d float64 array {@code a} (edge chunks clipped) with {@code value}. */
    public static void writeAll(ZarrArray a, Element value) {
        ChunkGrid g = a.grid();
        for (long c = 0; c < g.numChunks(); c++) {
            long[] coords = g.chunkCoordsOf(c);
            long[] off = g.chunkOffset(coords);
            int[] shape = g.chunkShapeAt(coords);
            double[] v = new double[shape[0] * shape[1]];
            for (int r = 0; r < shape[0]; r++) {
                for (int k = 0; k < shape[1]; k++) {
                    v[r * shape[1] + k] = value.at(off[0] + r, off[1] + k);
                }
            }
            a.writeChunk(Chunk.wrap(DType.FLOAT64, shape, v), coords);
        }
    }
}
