package io.cubed.array;

import io.cubed.chunk.ReduceFunction;
import io.cubed.dtype.DType;
import io.cubed.grid.ChunkGrid;
import io.cubed.plan.OpNode;
import io.cubed.primitive.Diagonal;
import java.util.Arrays;
import java.util.List;

/**
 * The diagonals of the matrices in an array's last two axes ({@code diagonal}) and their sums ({@code trace}), for
 * {@link LinearAlgebra}.
 */
final class Diagonals {
    private Diagonals() {}

    /** {@link LinearAlgebra#diagonal(CubedArray, long)}: one gather per output chunk, through {@link Diagonal}. */
    static CubedArray diagonal(CubedArray x, long offset) {
        LinalgChecks.checkMatrixStack("diagonal of " + Layout.describe(x), x);
        int nd = x.ndim();
        long m = x.shape()[nd - 2];
        long n = x.shape()[nd - 1];
        long rowStart = offset < 0 ? -offset : 0;
        long colStart = offset > 0 ? offset : 0;
        long len = rowStart >= m || colStart >= n ? 0 : Math.min(m - rowStart, n - colStart);
        int[] chunks = x.chunkShape();
        long[] shape = Arrays.copyOf(x.shape(), nd - 1);
        shape[nd - 2] = len;
        int[] outChunks = Arrays.copyOf(chunks, nd - 1);
        outChunks[nd - 2] = Math.min(chunks[nd - 2], chunks[nd - 1]);
        ChunkGrid grid = Chunking.grid(shape, outChunks, "diagonal of " + x.name());
        Diagonal f = new Diagonal(x.dtype(), x.chunks(), grid, rowStart, colStart);
        OpNode op = OpNode.blockwise(
                "diagonal",
                List.of(x.node()),
                f,
                f,
                new int[] {1},
                0,
                List.of(x.dtype()),
                List.of(grid),
                "diagonal " + offset
                        + ": each task reads the chunks its run of the diagonal passes through (at most 3)");
        return CubedArray.of(op.outputs().get(0), x.spec());
    }

    /** {@link LinearAlgebra#trace(CubedArray, long, DType)}: the diagonal, then a tree sum along it. */
    static CubedArray trace(CubedArray x, long offset, DType dtype) {
        String what = "trace of " + Layout.describe(x);
        LinalgChecks.checkNumeric(what, "trace", x);
        LinalgChecks.checkMatrixStack(what, x);
        return Reduction.reduce(
                diagonal(x, offset),
                ReduceFunction.SUM,
                ReductionOptions.axis(-1).dtype(dtype),
                "trace sum");
    }
}
