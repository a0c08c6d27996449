package io.cubed.storage.zarr;

import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.storage.StoreOptions;
import io.cubed.storage.zarr.blosc.BloscCname;
import io.cubed.storage.zarr.blosc.BloscShuffle;
import java.util.Arrays;
import java.util.UUID;

/** Test data written to new in-memory Zarr arrays, chunk by chunk. */
public final class StoredArrays {
    private StoredArrays() {}

    /**
     * {@code data} in a new in-memory Zarr v2 array of {@code chunks}, compressed with Blosc-LZ4 (level 5) with
     * {@code shuffle} in blocks of {@code blocksize} bytes (0: c-blosc's choice).
     */
    public static ZarrArray blosc(Chunk data, int[] chunks, BloscShuffle shuffle, int blocksize) {
        return blosc("memory://stored-" + UUID.randomUUID() + "/x.zarr", data, chunks, shuffle, blocksize);
    }

    /** As {@link #blosc(Chunk, int[], BloscShuffle, int)}, in a new array at {@code url} (a directory, say). */
    public static ZarrArray blosc(String url, Chunk data, int[] chunks, BloscShuffle shuffle, int blocksize) {
        long[] shape = Arrays.stream(data.shape()).asLongStream().toArray();
        ZarrArray z = ZarrArray.create(
                url,
                ZarrCreateOptions.builder(shape, chunks, data.dtype())
                        .compressor(new Compressor.Blosc(BloscCname.LZ4, 5, shuffle, blocksize))
                        .build());
        write(z, data);
        return z;
    }

    /** Writes {@code data}, the whole array's elements, into {@code z} chunk by chunk (edge chunks clipped). */
    public static void write(io.cubed.storage.ChunkStore z, Chunk data) {
        for (long i = 0; i < z.grid().numChunks(); i++) {
            long[] c = z.grid().chunkCoordsOf(i);
            int[] size = z.grid().chunkShapeAt(c);
            int[] from = Arrays.stream(z.grid().chunkOffset(c))
                    .mapToInt(v -> (int) v)
                    .toArray();
            Chunk chunk = Chunk.allocate(data.dtype(), size);
            Chunk.copyRegion(data, from, chunk, new int[size.length], size);
            z.writeChunk(chunk, c);
        }
    }

    /**
     * A new float64 Zarr array of {@code rows} × {@code cols} in {@code chunks} at {@code url}, whose element (i, j) is
     * {@code rowStep} × i + j.
     */
    public static ZarrArray ramp(String url, long rows, long cols, int[] chunks, double rowStep) {
        return ramp(url, rows, cols, chunks, rowStep, StoreOptions.empty());
    }

    /** As {@link #ramp(String, long, long, int[], double)}, on a store opened with {@code storeOptions}. */
    public static ZarrArray ramp(
            String url, long rows, long cols, int[] chunks, double rowStep, StoreOptions storeOptions) {
        return float64(url, rows, cols, chunks, storeOptions, (i, j) -> rowStep * i + j);
    }

    /** The value of element (i, j) of an array {@link #float64} writes. */
    @FunctionalInterface
    public interface Element {
        double at(long i, long j);
    }

    /**
     * A new float64 Zarr array of {@code rows} × {@code cols} in {@code chunks} at {@code url}, on a store opened with
     * {@code storeOptions}, whose element (i, j) is {@code element.at(i, j)}, written chunk by chunk.
     */
    public static ZarrArray float64(
            String url, long rows, long cols, int[] chunks, StoreOptions storeOptions, Element element) {
        ZarrArray z = ZarrArray.create(
                url,
                ZarrCreateOptions.builder(new long[] {rows, cols}, chunks, DType.FLOAT64)
                        .build(),
                storeOptions);
        for (long i = 0; i < z.grid().numChunks(); i++) {
            long[] c = z.grid().chunkCoordsOf(i);
            long[] off = z.grid().chunkOffset(c);
            int[] s = z.grid().chunkShapeAt(c);
            Chunk chunk = Chunk.allocate(DType.FLOAT64, s);
            for (int r = 0; r < s[0]; r++) {
                for (int k = 0; k < s[1]; k++) {
                    chunk.doubles()[r * s[1] + k] = element.at(off[0] + r, off[1] + k);
                }
            }
            z.writeChunk(chunk, c);
        }
        return z;
    }
}
