package io.cubed.array;

import static org.assertj.core.api.Assertions.assertThat;

import io.cubed.Cubed;
import io.cubed.chunk.ArrayRecycler;
import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.dtype.Scalar;
import io.cubed.plan.Spec;
import io.cubed.runtime.LocalExecutor;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Whole computations whose tasks recycle arrays ({@link ArrayRecycler}): stored and decompressed bytes, encoding
 * buffers handed back chunk after chunk, rechunk regions reused task after task on one thread. The tests run with recycled arrays poisoned (NaN, 0x5A bytes), so a value
 * that depended on a stale array would show; every result is checked against a plain Java loop.
 */
class RecyclingComputationTest {
    @TempDir
    Path tmp;

    private Spec spec(int threads) {
        return Spec.builder()
                .workDir(tmp.resolve("work").toString())
                .executor(new LocalExecutor(threads, 1, 0))
                .build();
    }

    private static Chunk random(long seed, int rows, int cols) {
        Random r = new Random(seed);
        Chunk c = Chunk.allocate(DType.FLOAT64, rows, cols);
        for (int i = 0; i < c.size(); i++) {
            c.doubles()[i] = r.nextInt(7) == 0 ? 0.0 : r.nextGaussian() * 100;
        }
        return c;
    }

    @Test
    void elementwiseRechunkAndReductionsOnStoredChunksMatchPlainLoops() {
        for (int threads : new int[] {1, 2}) {
            Spec spec = spec(threads);
            int rows = 45;
            int cols = 38;
            Chunk a = random(1, rows, cols);
            Chunk b = random(2, rows, cols);
            // Stored in the work directory (Blosc), 7 x 5 chunks with uneven edges.
            CubedArray x = Cubed.fromArray(a, spec, 7, 8);
            CubedArray y = Cubed.fromArray(b, spec, 7, 8);
            long reusedBefore = ArrayRecycler.reusedBytes();

            // sqrt(|a + b|) * 2 - a, then column stripes, then per-column means and the total.
            CubedArray z = Elementwise.subtract(
                    Elementwise.multiply(Elementwise.sqrt(Elementwise.abs(Elementwise.add(x, y))), Scalar.ofDouble(2)),
                    x);
            CubedArray stripes = Manipulation.rechunk(z, rows, 3);
            CubedArray colMeans = Statistical.mean(stripes, ReductionOptions.axis(0));
            CubedArray total = Statistical.sum(z);

            Chunk zc = stripes.compute();
            Chunk mc = colMeans.compute();
            Chunk tc = total.compute();

            double[] expected = new double[rows * cols];
            double[] means = new double[cols];
            double sum = 0;
            for (int i = 0; i < rows; i++) {
                for (int j = 0; j < cols; j++) {
                    int k = i * cols + j;
                    double v = Math.sqrt(Math.abs(a.doubles()[k] + b.doubles()[k])) * 2 - a.doubles()[k];
                    expected[k] = v;
                    means[j] += v / rows;
                    sum += v;
                }
            }
            assertThat(zc.doubles()).containsExactly(expected);
            for (int j = 0; j < cols; j++) {
                assertThat(mc.doubles()[j]).isCloseTo(means[j], org.assertj.core.data.Offset.offset(1e-9));
            }
            assertThat(tc.getDouble(0)).isCloseTo(sum, org.assertj.core.data.Offset.offset(1e-7));
            // Tasks after the first on each thread took their arrays back.
            assertThat(ArrayRecycler.reusedBytes() - reusedBefore)
                    .as("bytes recycled with %d threads", threads)
                    .isGreaterThan(0);
        }
    }

    @Test
    void integerAndBooleanChunksRecycleToo() {
        Spec spec = spec(1);
        int n = 203;
        Chunk a = Chunk.allocate(DType.INT64, n);
        Chunk b = Chunk.allocate(DType.INT64, n);
        for (int i = 0; i < n; i++) {
            a.longs()[i] = (long) i * 7919 % 1000 - 500;
            b.longs()[i] = (long) i * 104729 % 333;
        }
        CubedArray x = Cubed.fromArray(a, spec, 10);
        CubedArray y = Cubed.fromArray(b, spec, 10);
        Chunk sum = Elementwise.add(x, y).compute();
        Chunk less = Elementwise.less(x, y).compute();
        for (int i = 0; i < n; i++) {
            assertThat(sum.longs()[i]).isEqualTo(a.longs()[i] + b.longs()[i]);
            assertThat(less.booleans()[i]).isEqualTo(a.longs()[i] < b.longs()[i]);
        }
    }
}
