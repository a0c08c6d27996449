package io.cubed.storage;

import io.cubed.chunk.Chunk;
import io.cubed.error.InvalidArgumentException;
import io.cubed.grid.ChunkGrid;
import java.util.Arrays;

/** Operations on any {@link ChunkStore} that need nothing but its chunks. */
public final class ChunkStores {
    private ChunkStores() {}

    /**
     * Reads the box of {@code shape} elements at element {@code offset} of {@code store}, one chunk at a time with
     * {@link ChunkStore#readChunkInto}; the box must lie inside the array.
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
        readBoxInto(store, offset, shape, new Chunk[] {out}, new long[][] {offset.clone()});
        return out;
    }

    /**
     * Reads every chunk of {@code store} that overlaps the box of {@code shape} elements at element {@code offset},
     * one at a time, with {@link ChunkStore#readChunkInto} into {@code targets} (each chunk goes straight into them
     * where the store can: no decoded chunk in between). The targets receive the chunks' overlap with themselves:
     * pass targets inside the box, or boxes made of whole chunks.
     */
    public static void readBoxInto(
            ChunkStore store, long[] offset, int[] shape, Chunk[] targets, long[][] targetOffsets) {
        forEachChunkIn(store.grid(), offset, shape, coords -> store.readChunkInto(coords, targets, targetOffsets));
    }

    /**
     * Calls {@code visit} with the coordinates (a new array each time) of every chunk of {@code grid} that overlaps the
     * box of {@code shape} elements at element {@code offset}, in C order; none for an empty box.
     */
    public static void forEachChunkIn(
            ChunkGrid grid, long[] offset, int[] shape, java.util.function.Consumer<long[]> visit) {
        int nd = grid.ndim();
        long[] first = new long[nd];
        long[] last = new long[nd];
        for (int i = 0; i < nd; i++) {
            if (shape[i] <= 0) {
                return;
            }
            first[i] = offset[i] / grid.chunkShape(i);
            last[i] = (offset[i] + shape[i] - 1) / grid.chunkShape(i);
        }
        long[] coords = first.clone();
        while (true) {
            visit.accept(coords.clone());
            int axis = nd - 1;
            while (axis >= 0) {
                if (++coords[axis] <= last[axis]) {
                    break;
                }
                coords[axis] = first[axis];
                axis--;
            }
            if (axis < 0) {
                return;
            }
        }
    }

    /** Copies {@code src} (at element {@code srcOffset}) into each of {@code targets} it overlaps. */
    public static void copyOverlaps(Chunk src, long[] srcOffset, Chunk[] targets, long[][] targetOffsets) {
        for (int k = 0; k < targets.length; k++) {
            copyOverlap(src, srcOffset, targets[k], targetOffsets[k]);
        }
    }

    /**
     * The box where {@code a}, of {@code aShape} at element {@code aOffset}, and {@code b}, of {@code bShape} at
     * {@code bOffset}, overlap: {start in a, start in b, extent} per axis, or null when they do not overlap.
     */
    public static int[][] overlap(long[] aOffset, int[] aShape, long[] bOffset, int[] bShape) {
        int nd = aOffset.length;
        if (bOffset.length != nd || aShape.length != nd || bShape.length != nd) {
            throw new InvalidArgumentException(
                    "cannot overlap boxes of ranks " + aOffset.length + " and " + bOffset.length);
        }
        int[][] box = new int[3][nd];
        for (int i = 0; i < nd; i++) {
            long lo = Math.max(aOffset[i], bOffset[i]);
            long hi = Math.min(aOffset[i] + aShape[i], bOffset[i] + bShape[i]);
            if (hi <= lo) {
                return null;
            }
            box[0][i] = (int) (lo - aOffset[i]);
            box[1][i] = (int) (lo - bOffset[i]);
            box[2][i] = (int) (hi - lo);
        }
        return box;
    }

    /**
     * Copies the part of {@code src} (whose first element is element {@code srcOffset} of an array) that lies inside
     * {@code dst} (at {@code dstOffset} of the same array); nothing when they do not overlap.
     */
    public static void copyOverlap(Chunk src, long[] srcOffset, Chunk dst, long[] dstOffset) {
        int[][] box = overlap(srcOffset, src.shape(), dstOffset, dst.shape());
        if (box != null) {
            Chunk.copyRegion(src, box[0], dst, box[1], box[2]);
        }
    }
}
