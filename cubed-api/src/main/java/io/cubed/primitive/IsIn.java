package io.cubed.primitive;

import io.cubed.chunk.Chunk;
import io.cubed.chunk.Selection;
import io.cubed.dtype.DType;
import io.cubed.grid.ChunkGrid;
import java.util.Arrays;
import java.util.Iterator;

/**
 * {@code isin}: for one chunk of {@code x1}, whether each element equals some element of {@code x2}. The task reads the
 * chunks of {@code x2} one at a time, sorts each one's keys and binary-searches every element of its {@code x1} chunk
 * not found yet; it holds one chunk of each input. NaN equals nothing, {@code -0.0} equals {@code 0.0}.
 */
public final class IsIn implements KeyFunction, ChunkFunction {
    private static final long serialVersionUID = 1L;

    private final ChunkGrid x2;
    private final DType common;
    private final boolean invert;

    /** Membership in an {@code x2} on grid {@code x2}, comparing as {@code common}; {@code invert}: not in. */
    public IsIn(ChunkGrid x2, DType common, boolean invert) {
        this.x2 = x2;
        this.common = common;
        this.invert = invert;
    }

    @Override
    public long[][][] inputKeys(long[] outputCoords) {
        long[][] all = new long[Math.toIntExact(x2.numChunks())][];
        for (int k = 0; k < all.length; k++) {
            all[k] = x2.chunkCoordsOf(k);
        }
        return new long[][][] {{outputCoords.clone()}, all};
    }

    @Override
    public Chunk[] apply(ChunkArgs args, long[] outputCoords) {
        Chunk a = args.chunk(0);
        long[] keys = Selection.sortKeys(a, common);
        boolean floating = common.kind() == DType.Kind.FLOAT;
        boolean[] found = new boolean[keys.length];
        Iterator<Chunk> chunks = args.iterator(1);
        while (chunks.hasNext()) {
            long[] b = Selection.sortKeys(chunks.next(), common);
            Arrays.sort(b);
            for (int i = 0; i < keys.length; i++) {
                if (!found[i] && !(floating && keys[i] == Selection.NAN_KEY)) {
                    found[i] = Arrays.binarySearch(b, keys[i]) >= 0;
                }
            }
        }
        if (invert) {
            for (int i = 0; i < found.length; i++) {
                found[i] = !found[i];
            }
        }
        return new Chunk[] {Chunk.wrap(DType.BOOL, a.shape(), found)};
    }
}
