package io.cubed.array;

import static org.assertj.core.api.Assertions.assertThat;

import io.cubed.Cubed;
import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.dtype.Scalar;
import io.cubed.plan.Computation;
import io.cubed.plan.FusionOptions;
import io.cubed.plan.OpNode;
import io.cubed.plan.Spec;
import io.cubed.runtime.Callback;
import io.cubed.runtime.LocalExecutor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The optimizer: known topologies before and after fusion, limits, memory, overrides, identical results. */
class FusionTest {
    /** Fusion on, whatever the spec's default (the suite also runs with -Dcubed.optimize=false). */
    private static final ComputeOptions ON =
            ComputeOptions.builder().optimize(true).build();

    @TempDir
    Path tmp;

    private Spec spec() {
        return Spec.builder()
                .workDir(tmp.resolve("work").toString())
                .executor(new LocalExecutor(2, 1, 0))
                .build();
    }

    /** Counts stages, tasks and bytes written. */
    static final class Counter implements Callback {
        final AtomicLong stages = new AtomicLong();
        final AtomicLong tasks = new AtomicLong();
        final AtomicLong written = new AtomicLong();
        final AtomicLong read = new AtomicLong();

        @Override
        public void onOperationStart(OperationStart event) {
            stages.incrementAndGet();
        }

        @Override
        public void onTaskEnd(TaskEnd event) {
            tasks.incrementAndGet();
            written.addAndGet(event.result().bytesWritten());
            read.addAndGet(event.result().bytesRead());
        }
    }

    private static Chunk data3x3() {
        Chunk c = Chunk.allocate(DType.FLOAT64, 3, 3);
        for (int i = 0; i < 9; i++) {
            c.doubles()[i] = i - 4.5;
        }
        return c;
    }

    @Test
    void negativeAstypeNegativeBecomesOneStage() {
        // Cubed's test_fuse_unary_op: 3 operations of 4 tasks unoptimized, 1 of 4 optimized.
        Spec spec = spec();
        CubedArray a = Cubed.asarray(data3x3(), spec, 2, 2);
        CubedArray b = Elementwise.negative(a);
        CubedArray c = Elementwise.astype(b, DType.FLOAT32);
        CubedArray d = Elementwise.negative(c);

        Counter plain = new Counter();
        float[] unfused = d.compute(ComputeOptions.builder().optimize(false).build(), plain)
                .floats();
        assertThat(plain.stages.get()).isEqualTo(3);
        assertThat(plain.tasks.get()).isEqualTo(12);

        Counter opt = new Counter();
        float[] fused = d.compute(ON, opt).floats();
        assertThat(opt.stages.get()).isEqualTo(1);
        assertThat(opt.tasks.get()).isEqualTo(4);
        // Only the output is written: 9 float32 values.
        assertThat(opt.written.get()).isEqualTo(9 * 4);
        assertThat(plain.written.get()).isEqualTo(9 * 8 + 9 * 4 + 9 * 4);
        // The fused task reads what computing its chunks read: the float64 input, not the float32 chunks it computed.
        assertThat(opt.read.get()).isEqualTo(9 * 8);
        assertThat(plain.read.get()).isEqualTo(9 * 8 + 9 * 8 + 9 * 4);
        assertThat(fused).containsExactly(unfused);
        for (int i = 0; i < 9; i++) {
            assertThat(fused[i]).isEqualTo((float) (i - 4.5));
        }
        assertThat(d.explain(ON))
                .contains("1 operations (2 more fused into them), 4 tasks")
                .contains("fuses op-");
    }

    @Test
    void aDiamondKeepsTheSharedArrayAndFusesTheRest() {
        Spec spec = spec();
        CubedArray x = Cubed.asarray(data3x3(), spec, 2, 2);
        CubedArray a = Elementwise.add(x, Scalar.ofDouble(10)); // read by two operations: stored
        CubedArray b = Elementwise.negative(a);
        CubedArray c = Elementwise.sqrt(a);
        CubedArray d = Elementwise.add(b, c);
        Computation comp = Computation.prepare(spec, List.of(d.node()), Map.of(), FusionOptions.defaults());
        assertThat(comp.isFused(a.node().op())).isFalse();
        assertThat(comp.isFused(b.node().op())).isTrue();
        assertThat(comp.isFused(c.node().op())).isTrue();
        assertThat(comp.fusionDecisions()).anyMatch(s -> s.contains("has 2 readers") || s.contains("2 readers"));
        Counter opt = new Counter();
        double[] got = d.compute(ON, opt).doubles();
        assertThat(opt.stages.get()).isEqualTo(2);
        for (int i = 0; i < 9; i++) {
            double v = i - 4.5 + 10;
            assertThat(got[i]).isEqualTo(-v + Math.sqrt(v));
        }
    }

    @Test
    void theSourceArrayLimitStopsFusion() {
        Spec spec = spec();
        CubedArray[] xs = new CubedArray[6];
        for (int k = 0; k < xs.length; k++) {
            xs[k] = Creation.full(new long[] {4}, Scalar.ofDouble(k + 1), new int[] {2}, DType.FLOAT64, spec);
        }
        // ((x0 + x1) + (x2 + x3)) + (x4 + x5): fusing everything would read 6 sources.
        CubedArray left = Elementwise.add(Elementwise.add(xs[0], xs[1]), Elementwise.add(xs[2], xs[3]));
        CubedArray total = Elementwise.add(left, Elementwise.add(xs[4], xs[5]));
        Computation comp = Computation.prepare(spec, List.of(total.node()), Map.of(), FusionOptions.defaults());
        assertThat(comp.fusionDecisions()).anyMatch(s -> s.contains("source arrays, over the limit of 4"));
        assertThat(total.compute(ON).doubles()).containsOnly(21.0);
        Computation loose = Computation.prepare(
                spec,
                List.of(total.node()),
                Map.of(),
                new FusionOptions(
                        true, 6, FusionOptions.DEFAULT_MAX_INPUT_BLOCKS, java.util.Set.of(), java.util.Set.of()));
        assertThat(loose.plan().ops().stream().filter(op -> !loose.isFused(op))).hasSize(1);
    }

    @Test
    void fusionIsRefusedWhenTheFusedTaskWouldExceedTheBudget() {
        Spec spec = Spec.builder()
                .workDir(tmp.resolve("w").toString())
                .allowedMem(1_000_000)
                .reservedMem(0)
                .build();
        CubedArray x = Creation.ones(new long[] {100}, new int[] {10}, DType.FLOAT64, spec);
        // Each map needs 700 kB of working memory. Alone each fits 1 MB; fused, z's task holds its own 700 kB while
        // it computes a chunk of y with y's 700 kB (y's chunk is an input of z), which is over the budget.
        MapBlocksOptions heavy =
                MapBlocksOptions.builder(DType.FLOAT64).extraMemBytes(700_000).build();
        CubedArray y = Blockwise.mapBlocks((b, id) -> b[0], heavy, x);
        CubedArray z = Blockwise.mapBlocks((b, id) -> b[0], heavy, y);
        Computation comp = Computation.prepare(spec, List.of(z.node()), Map.of(), FusionOptions.defaults());
        OpNode yOp = y.node().op();
        assertThat(comp.isFused(yOp)).isFalse();
        assertThat(comp.fusionDecisions()).anyMatch(s -> s.contains("over allowedMem"));
        // With room for both, it fuses, and the fused figure is z's own plus y's working set.
        Spec roomy = spec.toBuilder().allowedMem(2_000_000).build();
        CubedArray x2 = Creation.ones(new long[] {100}, new int[] {10}, DType.FLOAT64, roomy);
        CubedArray y2 = Blockwise.mapBlocks((b, id) -> b[0], heavy, x2);
        CubedArray z2 = Blockwise.mapBlocks((b, id) -> b[0], heavy, y2);
        Computation c2 = Computation.prepare(roomy, List.of(z2.node()), Map.of(), FusionOptions.defaults());
        assertThat(c2.isFused(y2.node().op())).isTrue();
        // z: input y chunk (80 B, in memory: no copies) + 700 000 + output 80 B with one write copy;
        // plus y's working set: its virtual input (80 B) + 700 000.
        assertThat(c2.projectedMemBytes().get(z2.node().op())).isEqualTo(80 + 700_000 + 160 + 80 + 700_000);
    }

    @Test
    void neverAndAlwaysFuseOverride() {
        Spec spec = spec();
        CubedArray x = Cubed.asarray(data3x3(), spec, 2, 2);
        CubedArray a = Elementwise.exp(x);
        CubedArray b = Elementwise.negative(a);
        ComputeOptions never =
                ComputeOptions.builder().optimize(true).neverFuse(a).build();
        Counter counter = new Counter();
        double[] got = b.compute(never, counter).doubles();
        assertThat(counter.stages.get()).isEqualTo(2);
        for (int i = 0; i < 9; i++) {
            assertThat(got[i]).isEqualTo(-Math.exp(i - 4.5));
        }
        // A broadcast read computes chunks of the row more than once: refused by default, allowed with alwaysFuse.
        CubedArray row = Elementwise.exp(
                Cubed.asarray(Chunk.wrap(DType.FLOAT64, new int[] {1, 3}, new double[] {0, 1, 2}), spec, 1, 2));
        CubedArray sum = Elementwise.add(x, row);
        Computation def = Computation.prepare(spec, List.of(sum.node()), Map.of(), FusionOptions.defaults());
        assertThat(def.isFused(row.node().op())).isFalse();
        assertThat(def.fusionDecisions()).anyMatch(s -> s.contains("more than once"));
        Counter always = new Counter();
        double[] s = sum.compute(
                        ComputeOptions.builder().optimize(true).alwaysFuse(row).build(), always)
                .doubles();
        assertThat(always.stages.get()).isEqualTo(1);
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 3; j++) {
                assertThat(s[i * 3 + j]).isEqualTo(3 * i + j - 4.5 + Math.exp(j));
            }
        }
    }

    @Test
    void intermediatesOfFusedOperationsAreNeverWritten() throws Exception {
        Spec spec = spec().toBuilder().keepIntermediates(true).build();
        CubedArray x = Creation.arange(0, 100, 1, 10, DType.FLOAT64, spec);
        CubedArray y = Elementwise.multiply(Elementwise.add(x, Scalar.ofDouble(1)), Scalar.ofDouble(2));
        y.toZarr(tmp.resolve("y.zarr").toString(), ON);
        try (Stream<Path> s = Files.walk(tmp.resolve("work"))) {
            assertThat(s.filter(p -> p.toString().endsWith(".zarr"))).isEmpty();
        }
        double[] got = io.cubed.storage.zarr.ZarrArray.open(
                        tmp.resolve("y.zarr").toString())
                .readRegion(new long[] {0}, new int[] {100})
                .doubles();
        for (int i = 0; i < 100; i++) {
            assertThat(got[i]).isEqualTo((i + 1) * 2.0);
        }
    }

    @Test
    void elementwiseFusesIntoTheFirstRoundOfAReductionButRoundsStaySeparate() {
        Spec spec = spec();
        CubedArray x = Creation.arange(0, 64, 1, 1, DType.FLOAT64, spec); // 64 chunks
        CubedArray y = Elementwise.multiply(x, Scalar.ofDouble(2));
        CubedArray s = Statistical.sum(y); // rounds of 16, 4 and 1 tasks
        Computation c = Computation.prepare(spec, List.of(s.node()), Map.of(), FusionOptions.defaults());
        List<OpNode> ops = c.plan().ops();
        assertThat(ops).hasSize(4);
        assertThat(c.isFused(ops.get(0))).as("multiply into round 1").isTrue();
        assertThat(c.isFused(ops.get(1))).as("round 1 stays").isFalse();
        assertThat(c.isFused(ops.get(2))).as("round 2 stays").isFalse();
        assertThat(c.fusionDecisions()).anyMatch(d -> d.contains("a reduction"));
        assertThat(s.compute(ON).doubles()).containsExactly(2.0 * 63 * 64 / 2);
        // Two sources per elementwise task make 8 input chunks per first-round task once fused: over a limit of 4,
        // the sum of two arrays is stored (4 stages: add, 3 rounds); within the default, it is fused (3 stages).
        CubedArray x2 = Creation.arange(0, 64, 1, 1, DType.FLOAT64, spec);
        CubedArray s2 = Statistical.sum(Elementwise.add(y, x2));
        ComputeOptions tight =
                ComputeOptions.builder().optimize(true).maxInputBlocks(4).build();
        Counter limited = new Counter();
        assertThat(s2.compute(tight, limited).doubles()).containsExactly(3.0 * 63 * 64 / 2);
        assertThat(limited.stages.get()).isEqualTo(4);
        Counter loose = new Counter();
        assertThat(s2.compute(ON, loose).doubles()).containsExactly(3.0 * 63 * 64 / 2);
        assertThat(loose.stages.get()).isEqualTo(3);
    }
}
