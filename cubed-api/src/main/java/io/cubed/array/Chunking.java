package io.cubed.array;

import io.cubed.error.InvalidArgumentException;
import io.cubed.grid.ChunkGrid;
import java.util.Arrays;

/** Turns user chunk specifications into chunk grids. */
public final class Chunking {
    private Chunking() {}

    /**
     * The grid of {@code shape} in chunks {@code chunks}: one entry per axis, each a positive length or {@code -1} for
     * the whole axis; a length above the axis length is clipped to it. {@code what} names the array in errors.
     */
    public static ChunkGrid grid(long[] shape, int[] chunks, String what) {
        if (chunks.length != shape.length) {
            throw new InvalidArgumentException("chunks " + Arrays.toString(chunks) + " for " + what + " have "
                    + chunks.length + " entries but its shape " + Arrays.toString(shape) + " has " + shape.length
                    + " axes");
        }
        int[] c = new int[chunks.length];
        for (int i = 0; i < chunks.length; i++) {
            if (shape[i] < 0) {
                throw new InvalidArgumentException(
                        "shape " + Arrays.toString(shape) + " of " + what + " has a negative length");
            }
            long full = Math.max(1, Math.min(shape[i], Integer.MAX_VALUE - 8));
            if (chunks[i] == -1) {
                c[i] = (int) full;
            } else if (chunks[i] < 1) {
                throw new InvalidArgumentException("chunks " + Arrays.toString(chunks) + " for " + what
                        + " must be positive (or -1 for a whole axis), axis " + i + " is " + chunks[i]);
            } else {
                c[i] = (int) Math.min(chunks[i], full);
            }
        }
        return ChunkGrid.of(shape, c);
    }
}
