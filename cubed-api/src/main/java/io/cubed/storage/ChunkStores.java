package io.cubed.storage;

import io.cubed.chunk.Chunk;
import io.cubed.error.InvalidArgumentException;
import io.cubed.grid.ChunkGrid;
import java.util.Arrays;

/** Operations on any {@link ChunkStore} that need nothing but its chunks. */
public final class ChunkStores {
    private ChunkStores() {}

    /**
     * Reads the box of {@code shape} elements at element {@code offset} of {@code store}, one chunk at a time; the box
     * must lie inside the array.
     */
    public static Chunk readRegion(ChunkStore store, long[] offset, int[] shape) {
        ChunkGrid grid = store.grid();
        int nd = grid.ndim();
        if (offset.length != nd || shape.length != nd) {
            throw new InvalidArgumentException("region at " + Arrays.toString(offset) + " of shape "
                    + Arrays.toString(shape) + " must have the rank " + nd + " of " + store.url());
        }
        for (int i = 0; i < nd; i++) {
            if (offset[i] < 0 || shape[i] < 0 || offset[i] + shape[i] > grid.shape(i)) {
                throw new InvalidArgumentException("region at " + Arrays.toString(offset) + " of shape "
                        + Arrays.toString(shape) + " is outside " + store.url() + " of shape "
                        + Arrays.toString(grid.shape()));
            }
        }
        Chunk out = Chunk.allocate(store.dtype(), shape);
        if (out.size() == 0) {
            return out;
        }
        long[] first = new long[nd];
        long[] last = new long[nd];
        for (int i = 0; i < nd; i++) {
            first[i] = offset[i] / grid.chunkShape(i);
            last[i] = (offset[i] + shape[i] - 1) / grid.chunkShape(i);
        }
        long[] coords = first.clone();
        while (true) {
            Chunk c = store.readChunk(coords);
            long[] chunkStart = grid.chunkOffset(coords);
            int[] srcOff = new int[nd];
            int[] dstOff = new int[nd];
            int[] extent = new int[nd];
            for (int i = 0; i < nd; i++) {
                long lo = Math.max(offset[i], chunkStart[i]);
                long hi = Math.min(offset[i] + shape[i], chunkStart[i] + c.shape(i));
                srcOff[i] = (int) (lo - chunkStart[i]);
                dstOff[i] = (int) (lo - offset[i]);
                extent[i] = (int) (hi - lo);
            }
            Chunk.copyRegion(c, srcOff, out, dstOff, extent);
            int axis = nd - 1;
            while (axis >= 0) {
                if (++coords[axis] <= last[axis]) {
                    break;
                }
                coords[axis] = first[axis];
                axis--;
            }
            if (axis < 0) {
                return out;
            }
        }
    }
}
