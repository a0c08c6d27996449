package io.cubed.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.dtype.Scalar;
import io.cubed.grid.ChunkGrid;
import io.cubed.storage.ChunkStore;
import io.cubed.storage.StoreOptions;
import io.cubed.storage.zarr.V3Codec;
import io.cubed.storage.zarr.ZarrV3Array;
import io.cubed.storage.zarr.ZarrV3Metadata;
import java.util.List;
import java.util.Set;

/**
 * Test arrays for the jobs: 2-d arrays whose element (i, j) is {@link #value}, written chunk by chunk with the library,
 * some chunks left unwritten, and an element-by-element check of a copy against the same formula.
 */
final class V3Arrays {
    private V3Arrays() {}

    /** The value written at element (i, j): distinct for every element, exact in float32 and int32. */
    static double value(long i, long j) {
        return 100.0 * i + j + 0.5;
    }

    /**
     * Creates a v3 array of {@code dtype} at {@code url} with {@code codecs} and fill value {@code fill}, and writes every
     * stored chunk (shard) but those whose flat index is in {@code skipped}.
     */
    static ZarrV3Array create(
            String url, long[] shape, int[] chunks, DType dtype, Scalar fill, List<V3Codec> codecs, Set<Long> skipped) {
        ZarrV3Metadata m = ZarrV3Metadata.create(shape, chunks, dtype, fill, codecs);
        ZarrV3Array a = ZarrV3Array.create(url, m, false, StoreOptions.empty());
        write(a, skipped);
        return a;
    }

    /** Writes every chunk of {@code a} (either version) but those whose flat index is in {@code skipped}. */
    static void write(ChunkStore a, Set<Long> skipped) {
        ChunkGrid g = a.grid();
        for (long k = 0; k < g.numChunks(); k++) {
            if (skipped.contains(k)) {
                continue;
            }
            long[] c = g.chunkCoordsOf(k);
            long[] off = g.chunkOffset(c);
            int[] shape = g.chunkShapeAt(c);
            Chunk chunk = Chunk.allocate(a.dtype(), shape);
            for (int i = 0; i < shape[0]; i++) {
                for (int j = 0; j < shape[1]; j++) {
                    double v = value(off[0] + i, off[1] + j);
                    int at = i * shape[1] + j;
                    switch (a.dtype()) {
                        case FLOAT64 -> chunk.doubles()[at] = v;
                        case FLOAT32 -> chunk.floats()[at] = (float) v;
                        case INT32 -> chunk.ints()[at] = (int) Math.floor(v);
                        default -> throw new IllegalArgumentException(a.dtype().toString());
                    }
                }
            }
            a.writeChunk(chunk, c);
        }
    }

    /**
     * Checks every element of {@code copy} against the formula, or against {@code fill} where the source chunk (of
     * {@code sourceGrid}) was in {@code skipped}; values compared as doubles, ints as the floor of the formula.
     */
    static void assertValues(ChunkStore copy, ChunkGrid sourceGrid, Set<Long> skipped, double fill) {
        long[] shape = copy.grid().shape();
        Chunk all = copy.readRegion(new long[2], new int[] {(int) shape[0], (int) shape[1]});
        int[] cs = sourceGrid.chunkShape();
        long[] per = sourceGrid.chunksPerAxis();
        for (int i = 0; i < shape[0]; i++) {
            for (int j = 0; j < shape[1]; j++) {
                long k = (i / cs[0]) * per[1] + j / cs[1];
                double want = skipped.contains(k) ? fill : value(i, j);
                int at = i * (int) shape[1] + j;
                double got =
                        switch (copy.dtype()) {
                            case FLOAT64 -> all.doubles()[at];
                            case FLOAT32 -> all.floats()[at];
                            case INT32 -> all.ints()[at];
                            default -> throw new IllegalArgumentException(
                                    copy.dtype().toString());
                        };
                if (copy.dtype() == DType.INT32 && !skipped.contains(k)) {
                    want = Math.floor(want);
                }
                assertThat(Double.valueOf(got))
                        .as("element (%d, %d) of %s", i, j, copy.url())
                        .isEqualTo(Double.valueOf(want));
            }
        }
    }
}
