package io.cubed.primitive;

import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.grid.ChunkGrid;
import java.util.Iterator;

/**
 * The chunk function of a rechunk copy stage: allocates the output chunk and copies into it the overlapping part of
 * each input chunk, reading the input chunks one at a time, so a task holds one input chunk and the output chunk.
 * Serializable.
 */
public final class RechunkChunkFunction implements ChunkFunction {
    private static final long serialVersionUID = 1L;

    private final DType dtype;
    private final ChunkGrid input;
    private final ChunkGrid output;

    /** Copies {@code dtype} elements from chunks of {@code input} into chunks of {@code output} (same shape). */
    public RechunkChunkFunction(DType dtype, ChunkGrid input, ChunkGrid output) {
        this.dtype = dtype;
        this.input = input;
        this.output = output;
    }

    @Override
    public Chunk[] apply(ChunkArgs args, long[] outputCoords) {
        long[] outOffset = output.chunkOffset(outputCoords);
        Chunk out = Chunk.allocate(dtype, output.chunkShapeAt(outputCoords));
        Iterator<Chunk> chunks = args.iterator(0);
        int k = 0;
        while (chunks.hasNext()) {
            // The input chunk is passed straight to place(): no local variable keeps it alive during the next read.
            place(chunks.next(), input.chunkOffset(args.key(0, k++)), out, outOffset);
        }
        return new Chunk[] {out};
    }

    /** Copies the part of {@code in} (at element {@code inOffset}) inside {@code out} (at {@code outOffset}). */
    static void place(Chunk in, long[] inOffset, Chunk out, long[] outOffset) {
        int nd = out.ndim();
        int[] src = new int[nd];
        int[] dst = new int[nd];
        int[] extent = new int[nd];
        for (int i = 0; i < nd; i++) {
            long lo = Math.max(inOffset[i], outOffset[i]);
            long hi = Math.min(inOffset[i] + in.shape(i), outOffset[i] + out.shape(i));
            src[i] = (int) (lo - inOffset[i]);
            dst[i] = (int) (lo - outOffset[i]);
            extent[i] = (int) Math.max(0, hi - lo);
        }
        Chunk.copyRegion(in, src, out, dst, extent);
    }
}
