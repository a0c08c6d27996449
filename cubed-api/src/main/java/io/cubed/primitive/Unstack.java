package io.cubed.primitive;

import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.grid.ChunkGrid;
import java.util.Iterator;

/**
 * Splits an array along one axis into one output per index, in one operation: the task of an output chunk position
 * reads the input chunks along {@code axis} one at a time and copies each slab into the output it belongs to. A task
 * holds one input chunk and one chunk of every output.
 */
public final class Unstack implements KeyFunction, ChunkFunction {
    private static final long serialVersionUID = 1L;

    private final DType dtype;
    private final ChunkGrid in;
    private final int axis;
    private final ChunkGrid out;

    /** Unstacks {@code in} along {@code axis}; {@code out} is the grid of every output ({@code in} without the axis). */
    public Unstack(DType dtype, ChunkGrid in, int axis, ChunkGrid out) {
        this.dtype = dtype;
        this.in = in;
        this.axis = axis;
        this.out = out;
    }

    private long[] inKey(long[] outputCoords, long k) {
        long[] key = new long[in.ndim()];
        for (int i = 0, o = 0; i < key.length; i++) {
            key[i] = i == axis ? k : outputCoords[o++];
        }
        return key;
    }

    @Override
    public long[][][] inputKeys(long[] outputCoords) {
        long n = in.chunksPerAxis(axis);
        long[][] keys = new long[Math.toIntExact(n)][];
        for (int k = 0; k < n; k++) {
            keys[k] = inKey(outputCoords, k);
        }
        return new long[][][] {keys};
    }

    @Override
    public Chunk[] apply(ChunkArgs args, long[] outputCoords) {
        int n = Math.toIntExact(in.shape(axis));
        int[] shape = out.chunkShapeAt(outputCoords);
        int[] view = new int[in.ndim()];
        for (int i = 0, o = 0; i < view.length; i++) {
            view[i] = i == axis ? 1 : shape[o++];
        }
        Chunk[] results = new Chunk[n];
        Iterator<Chunk> chunks = args.iterator(0);
        int c = in.chunkShape(axis);
        for (int k = 0; chunks.hasNext(); k++) {
            Chunk src = chunks.next();
            for (int p = 0; p < src.shape(axis); p++) {
                Chunk dst = Chunk.allocate(dtype, view);
                int[] from = new int[view.length];
                from[axis] = p;
                Chunk.copyRegion(src, from, dst, new int[view.length], view);
                results[k * c + p] = Chunk.wrap(dtype, shape, dst.data());
            }
        }
        return results;
    }
}
