package io.cubed.jobs.spark;

import io.cubed.array.BlockFunction;
import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;

/** {@code a x + b} for every element x of a float64 chunk; runs in Spark tasks, so it is a named serializable class. */
public record Affine(double a, double b) implements BlockFunction {
    private static final long serialVersionUID = 1L;

    @Override
    public Chunk apply(Chunk[] blocks, long[] blockId) {
        double[] in = blocks[0].doubles();
        Chunk out = Chunk.allocate(DType.FLOAT64, blocks[0].shape());
        double[] o = out.doubles();
        for (int i = 0; i < o.length; i++) {
            o[i] = a * in[i] + b;
        }
        return out;
    }
}
