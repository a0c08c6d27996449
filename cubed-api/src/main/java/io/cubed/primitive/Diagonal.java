package io.cubed.primitive;

import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.grid.ChunkGrid;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One diagonal of the last two axes ({@code diagonal}): output element {@code (..., i)} is input element
 * {@code (..., rowStart + i, colStart + i)}. An output chunk covers a run of the diagonal no longer than the smaller
 * chunk length of the two matrix axes, so it crosses at most one row and one column chunk boundary: it reads at most
 * three input chunks (those the run passes through, in order, one at a time) and never the chunks off the diagonal.
 */
public final class Diagonal implements KeyFunction, ChunkFunction {
    private static final long serialVersionUID = 1L;

    private final DType dtype;
    private final ChunkGrid in;
    private final ChunkGrid out;
    private final long rowStart;
    private final long colStart;

    /**
     * The diagonal starting at element {@code (rowStart, colStart)} of each matrix of an array of {@code dtype} on grid
     * {@code in} (rank 2 or more), written to grid {@code out} (the batch axes of {@code in} with their chunks, then
     * the diagonal).
     */
    public Diagonal(DType dtype, ChunkGrid in, ChunkGrid out, long rowStart, long colStart) {
        this.dtype = dtype;
        this.in = in;
        this.out = out;
        this.rowStart = rowStart;
        this.colStart = colStart;
    }

    /** Diagonal positions {@code [from, to)} of output chunk {@code coords}. */
    private long[] run(long[] coords) {
        int last = out.ndim() - 1;
        long from = out.chunkOffset(coords)[last];
        return new long[] {from, from + out.chunkShapeAt(coords)[last]};
    }

    @Override
    public long[][][] inputKeys(long[] outputCoords) {
        int nd = in.ndim();
        long cm = in.chunkShape(nd - 2);
        long cn = in.chunkShape(nd - 1);
        long[] run = run(outputCoords);
        List<long[]> keys = new ArrayList<>();
        long i = run[0];
        while (i < run[1]) {
            long rc = (rowStart + i) / cm;
            long cc = (colStart + i) / cn;
            long[] key = Arrays.copyOf(outputCoords, nd);
            key[nd - 2] = rc;
            key[nd - 1] = cc;
            keys.add(key);
            i = Math.min(run[1], Math.min((rc + 1) * cm - rowStart, (cc + 1) * cn - colStart));
        }
        return new long[][][] {keys.toArray(new long[0][])};
    }

    @Override
    public Chunk[] apply(ChunkArgs args, long[] outputCoords) {
        int nd = in.ndim();
        int[] shape = out.chunkShapeAt(outputCoords);
        Chunk result = Chunk.allocate(dtype, shape);
        int len = shape[nd - 2];
        int matrices = 1;
        for (int a = 0; a < nd - 2; a++) {
            matrices *= shape[a];
        }
        long[] run = run(outputCoords);
        int slots = dtype.slotsPerElement();
        for (int k = 0; k < args.count(0); k++) {
            long[] key = args.key(0, k);
            Chunk c = args.chunk(0, k);
            long[] off = in.chunkOffset(key);
            int rows = c.shape(nd - 2);
            int cols = c.shape(nd - 1);
            long rowOff = off[nd - 2];
            long colOff = off[nd - 1];
            long from = Math.max(run[0], Math.max(rowOff - rowStart, colOff - colStart));
            long to = Math.min(run[1], Math.min(rowOff + rows - rowStart, colOff + cols - colStart));
            for (int m = 0; m < matrices; m++) {
                for (long i = from; i < to; i++) {
                    int src = (m * rows + (int) (rowStart + i - rowOff)) * cols + (int) (colStart + i - colOff);
                    int dst = m * len + (int) (i - run[0]);
                    System.arraycopy(c.data(), src * slots, result.data(), dst * slots, slots);
                }
            }
        }
        return new Chunk[] {result};
    }
}
