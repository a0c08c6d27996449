package io.cubed.array;

import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.primitive.ChunkArgs;
import java.util.List;

/**
 * One output chunk of a matrix product {@code ij = ik · kj} (float64): sums the products of the chunks along k. A
 * named, serializable {@link BlockwiseFunction} for the tests of every executor (a lambda would capture the test).
 */
public record BlockMatMul() implements BlockwiseFunction {
    private static final long serialVersionUID = 1L;

    @Override
    public Chunk apply(ChunkArgs args, long[] blockId) {
        List<Chunk> as = args.chunks(0);
        List<Chunk> bs = args.chunks(1);
        int rows = as.get(0).shape(0);
        int cols = bs.get(0).shape(1);
        Chunk out = Chunk.allocate(DType.FLOAT64, rows, cols);
        for (int k = 0; k < as.size(); k++) {
            Chunk a = as.get(k);
            Chunk b = bs.get(k);
            int inner = a.shape(1);
            for (int r = 0; r < rows; r++) {
                for (int c = 0; c < cols; c++) {
                    double s = 0;
                    for (int t = 0; t < inner; t++) {
                        s += a.doubles()[r * inner + t] * b.doubles()[t * cols + c];
                    }
                    out.doubles()[r * cols + c] += s;
                }
            }
        }
        return out;
    }
}
