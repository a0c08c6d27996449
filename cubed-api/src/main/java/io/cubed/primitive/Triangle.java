package io.cubed.primitive;

import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.grid.ChunkGrid;

/**
 * The lower ({@code tril}) or upper ({@code triu}) triangle of the last two axes: elements with {@code col − row ≤ k}
 * (lower) or {@code ≥ k} (upper) are kept, the others are zero. A chunk entirely outside the triangle reads nothing;
 * the others copy the kept run of every row from the input chunk of the same position.
 */
public final class Triangle implements KeyFunction, ChunkFunction {
    private static final long serialVersionUID = 1L;

    private final DType dtype;
    private final ChunkGrid grid;
    private final boolean lower;
    private final long k;

    /** Keeps the lower ({@code lower}) or upper triangle relative to diagonal {@code k} of {@code dtype} arrays on {@code grid}. */
    public Triangle(DType dtype, ChunkGrid grid, boolean lower, long k) {
        this.dtype = dtype;
        this.grid = grid;
        this.lower = lower;
        this.k = k;
    }

    /** The kept columns {@code [from, to)} of local row {@code r}, for a chunk at {@code off} with {@code cols}. */
    private long[] kept(long row, long colOff, int cols) {
        long from;
        long to;
        if (lower) {
            from = 0;
            to = Math.min(cols, row + k - colOff + 1);
        } else {
            from = Math.max(0, row + k - colOff);
            to = cols;
        }
        return new long[] {Math.max(0, from), Math.max(Math.max(0, from), to)};
    }

    private boolean empty(long[] coords) {
        int nd = grid.ndim();
        long[] off = grid.chunkOffset(coords);
        int[] shape = grid.chunkShapeAt(coords);
        for (long r = off[nd - 2]; r < off[nd - 2] + shape[nd - 2]; r++) {
            long[] run = kept(r, off[nd - 1], shape[nd - 1]);
            if (run[1] > run[0]) {
                return false;
            }
        }
        return true;
    }

    @Override
    public long[][][] inputKeys(long[] outputCoords) {
        return new long[][][] {empty(outputCoords) ? new long[0][] : new long[][] {outputCoords.clone()}};
    }

    @Override
    public Chunk[] apply(ChunkArgs args, long[] outputCoords) {
        int[] shape = grid.chunkShapeAt(outputCoords);
        int nd = shape.length;
        Chunk out = Chunk.allocate(dtype, shape);
        if (args.count(0) == 0) {
            return new Chunk[] {out};
        }
        Chunk in = args.chunk(0);
        long[] off = grid.chunkOffset(outputCoords);
        int rows = shape[nd - 2];
        int cols = shape[nd - 1];
        int slots = in.dtype().slotsPerElement();
        int matrices = rows * cols == 0 ? 0 : out.size() / (rows * cols);
        for (int m = 0; m < matrices; m++) {
            for (int r = 0; r < rows; r++) {
                long[] run = kept(off[nd - 2] + r, off[nd - 1], cols);
                int start = (m * rows + r) * cols + (int) run[0];
                int n = (int) (run[1] - run[0]);
                if (n > 0) {
                    System.arraycopy(in.data(), start * slots, out.data(), start * slots, n * slots);
                }
            }
        }
        return new Chunk[] {out};
    }
}
