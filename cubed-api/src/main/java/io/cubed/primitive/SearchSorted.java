package io.cubed.primitive;

import io.cubed.chunk.Chunk;
import io.cubed.chunk.Selection;
import io.cubed.dtype.DType;
import java.util.Arrays;

/**
 * {@code searchsorted} of the values of one chunk of {@code x2} in a sorted 1-d {@code x1}, with bounded memory and
 * reads: inputs are (0) the chunk of {@code x2}, (1) the first element of every chunk of {@code x1} as one small
 * array, and (2) every chunk of {@code x1}, listed but read only when needed. For each value the first elements say
 * which chunk {@code k} of {@code x1} holds its insertion point (every chunk before {@code k} lies wholly below it,
 * every chunk after it not); the task groups its values by {@code k}, reads each needed chunk of {@code x1} once, and
 * binary-searches in it: the answer is {@code k·chunk + rank in chunk k}.
 */
public final class SearchSorted implements KeyFunction, ChunkFunction {
    private static final long serialVersionUID = 1L;

    private final long x1Chunks;
    private final int x1Chunk;
    private final DType common;
    private final boolean right;

    /**
     * Searches in an {@code x1} of {@code x1Chunks} chunks of {@code x1Chunk} elements, comparing as {@code common};
     * {@code right}: the last suitable index (side "right") instead of the first.
     */
    public SearchSorted(long x1Chunks, int x1Chunk, DType common, boolean right) {
        this.x1Chunks = x1Chunks;
        this.x1Chunk = x1Chunk;
        this.common = common;
        this.right = right;
    }

    @Override
    public long[][][] inputKeys(long[] outputCoords) {
        long[][] all = new long[Math.toIntExact(x1Chunks)][];
        for (int k = 0; k < all.length; k++) {
            all[k] = new long[] {k};
        }
        return new long[][][] {{outputCoords.clone()}, {{0}}, all};
    }

    @Override
    public Chunk[] apply(ChunkArgs args, long[] outputCoords) {
        Chunk v = args.chunk(0);
        long[] bounds = Selection.sortKeys(args.chunk(1), common);
        long[] keys = Selection.sortKeys(v, common);
        long[] out = new long[keys.length];
        long[] packed = new long[keys.length];
        int m = 0;
        for (int i = 0; i < keys.length; i++) {
            int k = Selection.rank(bounds, 0, bounds.length, keys[i], right) - 1;
            if (k >= 0) {
                packed[m++] = ((long) k << 32) | i;
            }
        }
        Arrays.sort(packed, 0, m);
        int g = 0;
        while (g < m) {
            int k = (int) (packed[g] >>> 32);
            long[] chunk = Selection.sortKeys(args.chunk(2, k), common);
            for (; g < m && (int) (packed[g] >>> 32) == k; g++) {
                int i = (int) packed[g];
                out[i] = (long) k * x1Chunk + Selection.rank(chunk, 0, chunk.length, keys[i], right);
            }
        }
        return new Chunk[] {Chunk.wrap(DType.INT64, v.shape(), out)};
    }
}
