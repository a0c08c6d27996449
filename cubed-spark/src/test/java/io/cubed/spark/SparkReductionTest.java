package io.cubed.spark;

import static org.assertj.core.api.Assertions.assertThat;

import io.cubed.Cubed;
import io.cubed.array.CubedArray;
import io.cubed.array.LinearAlgebra;
import io.cubed.array.ReductionOptions;
import io.cubed.array.Searching;
import io.cubed.array.Statistical;
import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.plan.Spec;
import java.nio.file.Path;
import java.util.List;
import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Tree reductions, scans and matmul run on Spark (their task functions travel to executors) and equal plain loops. */
class SparkReductionTest {
    @TempDir
    Path tmp;

    private final JavaSparkContext jsc = SparkTestContext.get();

    private Spec sparkSpec() {
        return SparkExecutor.create(jsc)
                .specBuilder()
                .workDir(tmp.resolve("work").toString())
                .build();
    }

    @Test
    void reductionsScansAndMatmulOnSparkEqualPlainLoops() {
        Spec spec = sparkSpec();
        int rows = 23;
        int cols = 7;
        double[] d = new double[rows * cols];
        for (int i = 0; i < rows; i++) {
            for (int j = 0; j < cols; j++) {
                d[i * cols + j] = 10.0 * i + j;
            }
        }
        d[5 * cols + 3] = 1e6; // the maximum
        CubedArray x = Cubed.fromArray(Chunk.wrap(DType.FLOAT64, new int[] {rows, cols}, d), spec, 2, 3);
        List<Chunk> r = Cubed.compute(List.of(
                Statistical.mean(x, ReductionOptions.axis(0)),
                Statistical.var(x, ReductionOptions.axis(1).correction(1)),
                Searching.argmax(x),
                Statistical.cumulativeSum(x, ReductionOptions.axis(0)),
                LinearAlgebra.matmul(LinearAlgebra.matrixTranspose(x), x)));
        for (int j = 0; j < cols; j++) {
            double sum = 0;
            for (int i = 0; i < rows; i++) {
                sum += d[i * cols + j];
            }
            assertThat(r.get(0).doubles()[j]).isCloseTo(sum / rows, org.assertj.core.data.Offset.offset(1e-9));
        }
        for (int i = 0; i < rows; i++) {
            double m = 0;
            for (int j = 0; j < cols; j++) {
                m += d[i * cols + j];
            }
            m /= cols;
            double ss = 0;
            for (int j = 0; j < cols; j++) {
                ss += (d[i * cols + j] - m) * (d[i * cols + j] - m);
            }
            double v = ss / (cols - 1);
            assertThat(r.get(1).doubles()[i]).isCloseTo(v, org.assertj.core.data.Offset.offset(1e-12 * Math.max(1, v)));
        }
        assertThat(r.get(2).longs()).containsExactly(5L * cols + 3);
        double run = 0;
        for (int i = 0; i < rows; i++) {
            run += d[i * cols + 4];
            assertThat(r.get(3).doubles()[i * cols + 4]).isEqualTo(run);
        }
        double g = 0;
        for (int i = 0; i < rows; i++) {
            g += d[i * cols + 2] * d[i * cols + 6];
        }
        assertThat(r.get(4).shape()).containsExactly(cols, cols);
        assertThat(r.get(4).doubles()[2 * cols + 6]).isCloseTo(g, org.assertj.core.data.Offset.offset(1e-6 * g));
    }

    /** Sibling first rounds that read the same chunks run as one stage on Spark too, reading each chunk once. */
    @Test
    void siblingReductionsShareTheirReadsOnSpark() {
        Spec spec = sparkSpec();
        int rows = 23;
        int cols = 7;
        double[] d = new double[rows * cols];
        for (int k = 0; k < d.length; k++) {
            d[k] = Math.sin(k) * 100;
        }
        CubedArray x = Cubed.fromArray(Chunk.wrap(DType.FLOAT64, new int[] {rows, cols}, d), spec, 2, cols);
        java.util.Set<String> stages = java.util.concurrent.ConcurrentHashMap.newKeySet();
        List<Chunk> r = Cubed.compute(
                List.of(Statistical.sum(x), Statistical.mean(x, ReductionOptions.axis(0))),
                new io.cubed.runtime.Callback() {
                    @Override
                    public void onOperationStart(OperationStart e) {
                        stages.add(e.stage().description());
                    }
                });
        assertThat(stages)
                .anyMatch(s -> s.contains("sum round 1/") && s.contains("mean round 1/") && s.contains("once"));
        double total = 0;
        double[] mean = new double[cols];
        for (int i = 0; i < rows; i++) {
            for (int j = 0; j < cols; j++) {
                total += d[i * cols + j];
                mean[j] += d[i * cols + j];
            }
        }
        assertThat(r.get(0).doubles()[0]).isCloseTo(total, org.assertj.core.data.Offset.offset(1e-9));
        for (int j = 0; j < cols; j++) {
            assertThat(r.get(1).doubles()[j]).isCloseTo(mean[j] / rows, org.assertj.core.data.Offset.offset(1e-12));
        }
    }
}
