package io.cubed.storage.zarr;

import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.dtype.Scalar;
import io.cubed.error.InvalidArgumentException;
import java.util.Arrays;

/**
 * The chunk a caller sees against the chunk a Zarr array stores, in either version: a chunk written must have the
 * array's dtype and the shape of its place in the grid; an edge chunk, smaller than the grid's chunk shape, is stored
 * at full size with the fill value past the array's edge, and read back clipped to its shape.
 */
final class EdgeChunks {
    private EdgeChunks() {}

    /**
     * Checks that {@code chunk}, written to the chunk {@code where} (its URL) of a {@code dtype} array, has that dtype
     * and the chunk's {@code shape} (clipped at the array's edge).
     */
    static void checkWritten(Chunk chunk, DType dtype, int[] shape, String where) {
        if (chunk.dtype() != dtype) {
            throw new InvalidArgumentException(
                    "cannot write a " + chunk.dtype() + " chunk to " + where + ", a " + dtype + " array");
        }
        if (!Arrays.equals(shape, chunk.shape())) {
            throw new InvalidArgumentException("chunk " + where + " has shape " + Arrays.toString(shape)
                    + " but the chunk written has shape " + Arrays.toString(chunk.shape()));
        }
    }

    /**
     * {@code chunk} itself when it has {@code fullShape}, else a chunk of that shape: {@code chunk}, then fill; its array
     * may be one an earlier write handed back, and goes back the same way once written.
     */
    static Chunk padded(Chunk chunk, int[] fullShape, Scalar fill) {
        int[] shape = chunk.shape();
        if (Arrays.equals(shape, fullShape)) {
            return chunk;
        }
        // Written and handed back ({@link io.cubed.chunk.ArrayRecycler}) by the caller: an array the thread's earlier
        // writes gave back serves, not a new chunk-sized one each time.
        Chunk full = Chunk.allocateForTaskToOverwrite(chunk.dtype(), fullShape);
        full.fill(fill);
        Chunk.copyRegion(chunk, new int[shape.length], full, new int[shape.length], shape);
        return full;
    }

    /** {@code full} itself when it has {@code shape}, else a new chunk of its first {@code shape} elements per axis. */
    static Chunk clipped(Chunk full, int[] shape) {
        if (Arrays.equals(shape, full.shape())) {
            return full;
        }
        Chunk clipped = Chunk.allocate(full.dtype(), shape);
        Chunk.copyRegion(full, new int[shape.length], clipped, new int[shape.length], shape);
        return clipped;
    }
}
