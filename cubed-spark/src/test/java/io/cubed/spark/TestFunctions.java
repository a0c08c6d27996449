package io.cubed.spark;

import io.cubed.array.BlockFunction;
import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;

/** Named, serializable user functions for the Spark tests (lambdas would capture the test instance). */
final class TestFunctions {
    private TestFunctions() {}

    /** Every element times {@code factor} (float64). */
    record Times(double factor) implements BlockFunction {
        private static final long serialVersionUID = 1L;

        @Override
        public Chunk apply(Chunk[] blocks, long[] blockId) {
            Chunk in = blocks[0];
            Chunk out = Chunk.allocate(DType.FLOAT64, in.shape());
            double[] a = in.doubles();
            double[] o = out.doubles();
            for (int i = 0; i < o.length; i++) {
                o[i] = a[i] * factor;
            }
            return out;
        }
    }

    /** The element-wise sum of the blocks (float64, same shapes). */
    record Sum() implements BlockFunction {
        private static final long serialVersionUID = 1L;

        @Override
        public Chunk apply(Chunk[] blocks, long[] blockId) {
            Chunk out = Chunk.allocate(DType.FLOAT64, blocks[0].shape());
            double[] o = out.doubles();
            for (Chunk b : blocks) {
                double[] d = b.doubles();
                for (int i = 0; i < o.length; i++) {
                    o[i] += d[i];
                }
            }
            return out;
        }
    }

    /** {@code a x + b} for every element x (float64), after sleeping {@code millis}: a task that takes a while. */
    record SlowAffine(double a, double b, long millis) implements BlockFunction {
        private static final long serialVersionUID = 1L;

        @Override
        public Chunk apply(Chunk[] blocks, long[] blockId) {
            try {
                Thread.sleep(millis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted", e);
            }
            return new Affine(a, b).apply(blocks, blockId);
        }
    }

    /** {@code a x + b} for every element x (float64). */
    record Affine(double a, double b) implements BlockFunction {
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
}
