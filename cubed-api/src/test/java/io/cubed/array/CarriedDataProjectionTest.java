package io.cubed.array;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cubed.Cubed;
import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.error.MemoryBudgetExceededException;
import io.cubed.plan.Computation;
import io.cubed.plan.FusionOptions;
import io.cubed.plan.Spec;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Data that travels inside task functions ({@code asarray}'s array, {@code take}'s index list) counts in the projected
 * memory of the operations whose tasks carry it: a plan whose data and chunks together exceed {@code allowedMem} is
 * refused before anything runs, naming the operation and the bytes, and one just under runs.
 */
class CarriedDataProjectionTest {
    @TempDir
    Path tmp;

    private Spec spec(long allowed) {
        return Spec.builder()
                .workDir(tmp.resolve("work").toString())
                .allowedMem(allowed)
                .reservedMem(0)
                .build();
    }

    private static Chunk doubles(int n) {
        double[] d = new double[n];
        for (int k = 0; k < n; k++) {
            d[k] = k * 0.5 - 7;
        }
        return Chunk.wrap(DType.FLOAT64, new int[] {n}, d);
    }

    @Test
    void asarrayDataAndChunksOverAllowedMemAreRefusedAtPlanTime() {
        Spec spec = spec(1_000_000);
        // 62 500 float64: 500 000 bytes, the most asarray takes with 1 MB. In chunks of 31 250 (250 000 bytes) a task
        // of negative holds the data (500 000), its input chunk (generated: no read copy, 250 000) and its output chunk
        // with a write copy (500 000): 1 250 000 bytes.
        CubedArray big = Elementwise.negative(Cubed.asarray(doubles(62_500), spec, 31_250));
        assertThatThrownBy(big::compute)
                .isInstanceOf(MemoryBudgetExceededException.class)
                .hasMessageContaining("exceeds allowedMem (1.0 MB)")
                .hasMessageContaining(big.node().op().id() + " negative")
                .hasMessageContaining("of which 500.0 kB (500000 bytes) is data its tasks carry");
        assertThat(tmp.resolve("work").toFile().list()).isNullOrEmpty();
        // In chunks of 15 625 (125 000 bytes): 500 000 + 125 000 + 250 000 = 875 000 bytes. It runs.
        CubedArray fits = Elementwise.negative(Cubed.asarray(doubles(62_500), spec, 15_625));
        Computation c = Computation.prepare(spec, List.of(fits.node()), Map.of(), FusionOptions.defaults());
        assertThat(c.projectedMemBytes().get(fits.node().op())).isEqualTo(500_000 + 125_000 + 2 * 125_000);
        double[] got = fits.compute().doubles();
        for (int k = 0; k < got.length; k++) {
            assertThat(got[k]).isEqualTo(-(k * 0.5 - 7));
        }
    }

    @Test
    void anAsarrayReadByAFusedChainIsCountedOnce() {
        Spec spec = spec(100_000_000);
        CubedArray a = Cubed.asarray(doubles(10_000), spec, 1_000);
        // negative(a) fused into add(·, a): one task function reads a's chunks through both, and holds a once.
        CubedArray z = Elementwise.add(Elementwise.negative(a), a);
        Computation fused = Computation.prepare(spec, List.of(z.node()), Map.of(), FusionOptions.defaults());
        assertThat(fused.isFused(z.node().op().inputs().get(0).op())).isTrue();
        long chunk = 8_000;
        long tile = 1_000 * 8; // the chunk is one tile
        // The data (80 000) once; the chain by tiles: a's chunk twice (generated: no copies) with a tile buffer each,
        // negative's and add's result tiles, and the output chunk with its write copy.
        assertThat(fused.projectedMemBytes().get(z.node().op()))
                .isEqualTo(80_000 + 2 * (chunk + tile) + 2 * tile + 2 * chunk);
        double[] got = z.compute().doubles();
        for (int k = 0; k < got.length; k++) {
            assertThat(got[k]).isEqualTo(0.0);
        }
    }

    @Test
    void twoAsarraysReadByAFusedChainAreCountedTwice() {
        Spec spec = spec(100_000_000);
        CubedArray a = Cubed.asarray(doubles(10_000), spec, 1_000);
        double[] bd = new double[10_000];
        for (int k = 0; k < bd.length; k++) {
            bd[k] = 3.0 * k;
        }
        CubedArray b = Cubed.asarray(Chunk.wrap(DType.FLOAT64, new int[] {10_000}, bd), spec, 1_000);
        // negative(a) fused into add(·, b): one task function carries both arrays, 80 000 bytes each.
        CubedArray z = Elementwise.add(Elementwise.negative(a), b);
        Computation fused = Computation.prepare(spec, List.of(z.node()), Map.of(), FusionOptions.defaults());
        assertThat(fused.isFused(z.node().op().inputs().get(0).op())).isTrue();
        long chunk = 8_000;
        long tile = 1_000 * 8;
        // Both arrays' data; the chain by tiles as in anAsarrayReadByAFusedChainIsCountedOnce (a's and b's chunks with
        // a tile buffer each, two result tiles, the output chunk with its write copy).
        assertThat(fused.projectedMemBytes().get(z.node().op()))
                .isEqualTo(2 * 80_000 + 2 * (chunk + tile) + 2 * tile + 2 * chunk);
        double[] got = z.compute().doubles();
        for (int k = 0; k < got.length; k++) {
            assertThat(got[k]).isEqualTo(-(k * 0.5 - 7) + 3.0 * k);
        }
    }

    @Test
    void anAsarrayReadByTwoStagesIsCountedInEach() {
        Spec spec = spec(100_000_000);
        CubedArray a = Cubed.asarray(doubles(10_000), spec, 1_000);
        // Two operations that run apart (nothing to fuse: a is no operation's output): every task of each carries a.
        CubedArray y = Elementwise.negative(a);
        CubedArray z = Elementwise.multiply(Elementwise.negative(a), Elementwise.negative(a));
        Computation c = Computation.prepare(spec, List.of(y.node(), z.node()), Map.of(), FusionOptions.defaults());
        long chunk = 8_000;
        // y's task: a's data, a's chunk (generated: no copies), the output chunk with its write copy.
        assertThat(c.projectedMemBytes().get(y.node().op())).isEqualTo(80_000 + chunk + 2 * chunk);
        // z's task, the two negatives fused into the multiplication, reads a twice and carries it once.
        assertThat(c.projectedMemBytes().get(z.node().op()))
                .isEqualTo(80_000 + 2 * (chunk + chunk) + 3 * chunk + 2 * chunk);
        List<Chunk> got = Cubed.compute(List.of(y, z), ComputeOptions.builder().build());
        for (int k = 0; k < 10_000; k++) {
            double v = k * 0.5 - 7;
            assertThat(got.get(0).doubles()[k]).isEqualTo(-v);
            assertThat(got.get(1).doubles()[k]).isEqualTo(v * v);
        }
    }

    @Test
    void siblingReductionsOfOneAsarrayCarryItOnce() {
        // sum(a) and mean(a, axis=0) over one asarray run as one stage reading a once: its task function carries a
        // once. The same plan over ones() of the same grid and type (generated, carrying nothing) is the reference:
        // the stage's figure differs by a's bytes, once (it was twice: each sibling's figure counted them).
        Spec spec = spec(100_000_000);
        int rows = 400;
        int cols = 50;
        double[] d = new double[rows * cols];
        for (int k = 0; k < d.length; k++) {
            d[k] = (k % 17) - 8;
        }
        long data = 8L * rows * cols;
        CubedArray a = Cubed.asarray(Chunk.wrap(DType.FLOAT64, new int[] {rows, cols}, d), spec, 50, cols);
        CubedArray ones = Creation.ones(new long[] {rows, cols}, new int[] {50, cols}, DType.FLOAT64, spec);
        long carried = stageFigure(a, spec);
        long reference = stageFigure(ones, spec);
        assertThat(carried - reference).isEqualTo(data);

        // With allowedMem twice the data (the most asarray then takes), the stage with the data once fits, and the
        // siblings run together; counted twice, the data alone filled allowedMem and they were kept apart. Their values
        // are those of a plain loop.
        assertThat(reference + data).isLessThanOrEqualTo(2 * data);
        Spec tight = spec(2 * data);
        CubedArray t = Cubed.asarray(Chunk.wrap(DType.FLOAT64, new int[] {rows, cols}, d), tight, 50, cols);
        CubedArray total = Statistical.sum(t);
        CubedArray colMean = Statistical.mean(t, ReductionOptions.axis(0));
        Computation c =
                Computation.prepare(tight, List.of(total.node(), colMean.node()), Map.of(), FusionOptions.defaults());
        assertThat(c.fusionDecisions()).anyMatch(s -> s.startsWith("runs ") && s.contains("once"));
        assertThat(c.statistics().maxProjectedMemBytes()).isEqualTo(reference + data);
        List<Chunk> got =
                Cubed.compute(List.of(total, colMean), ComputeOptions.builder().build());
        double sum = 0;
        double[] mean = new double[cols];
        for (int i = 0; i < rows; i++) {
            for (int j = 0; j < cols; j++) {
                sum += d[i * cols + j];
                mean[j] += d[i * cols + j];
            }
        }
        assertThat(got.get(0).doubles()[0]).isEqualTo(sum);
        for (int j = 0; j < cols; j++) {
            assertThat(got.get(1).doubles()[j]).isCloseTo(mean[j] / rows, org.assertj.core.data.Offset.offset(1e-12));
        }
    }

    /** The largest projected task of computing sum(x) and mean(x, axis=0) together, checked to share x's reads. */
    private static long stageFigure(CubedArray x, Spec spec) {
        Computation c = Computation.prepare(
                spec,
                List.of(
                        Statistical.sum(x).node(),
                        Statistical.mean(x, ReductionOptions.axis(0)).node()),
                Map.of(),
                FusionOptions.defaults());
        assertThat(c.fusionDecisions()).anyMatch(s -> s.startsWith("runs ") && s.contains("once"));
        return c.statistics().maxProjectedMemBytes();
    }

    @Test
    void takesIndexListCountsInItsProjection() {
        Spec spec = spec(2_000_000);
        CubedArray x = Creation.arange(0, 100_000, 1, 25_000, DType.FLOAT64, spec);
        long[] fewer = new long[100_000];
        long[] more = new long[125_000];
        for (int k = 0; k < more.length; k++) {
            long v = (k * 7919L) % 100_000;
            more[k] = v;
            if (k < fewer.length) {
                fewer[k] = v;
            }
        }
        CubedArray small = Indexing.take(x, fewer, 0);
        CubedArray large = Indexing.take(x, more, 0);
        Spec roomy = spec(100_000_000);
        long smallProjected = Computation.inspect(roomy, List.of(small.node()), FusionOptions.defaults())
                .projectedMemBytes()
                .get(small.node().op());
        long largeProjected = Computation.inspect(roomy, List.of(large.node()), FusionOptions.defaults())
                .projectedMemBytes()
                .get(large.node().op());
        // Both have output chunks of 25 000 elements reading any of x's 4 chunks: the same figure but for the index
        // lists they carry, 8 bytes an index.
        assertThat(largeProjected - smallProjected).isEqualTo(8L * (125_000 - 100_000));
        assertThat(smallProjected).isLessThanOrEqualTo(2_000_000);
        assertThat(largeProjected).isGreaterThan(2_000_000);
        assertThatThrownBy(large::compute)
                .isInstanceOf(MemoryBudgetExceededException.class)
                .hasMessageContaining(large.node().op().id() + " take")
                .hasMessageContaining("of which 1.0 MB (1000000 bytes) is data its tasks carry");
        double[] got = small.compute().doubles();
        for (int k = 0; k < got.length; k++) {
            assertThat(got[k]).isEqualTo((double) fewer[k]);
        }
    }
}
