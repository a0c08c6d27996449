package io.cubed.storage.zarr;

import io.cubed.chunk.Chunk;
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
        return z;
    }
}
