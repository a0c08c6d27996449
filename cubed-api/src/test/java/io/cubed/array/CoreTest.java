package io.cubed.array;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cubed.Cubed;
import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.dtype.Scalar;
import io.cubed.error.InvalidArgumentException;
import io.cubed.error.MemoryBudgetExceededException;
import io.cubed.error.PlanException;
import io.cubed.error.TaskFailedException;
import io.cubed.plan.Computation;
import io.cubed.plan.OpNode;
import io.cubed.plan.Spec;
import io.cubed.runtime.Callback;
import io.cubed.runtime.ExecutionPlan;
import io.cubed.runtime.Executor;
import io.cubed.runtime.LocalExecutor;
import io.cubed.storage.zarr.StoredArrays;
import io.cubed.storage.zarr.ZarrArray;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CoreTest {
    @TempDir
    Path tmp;

    /** An executor that fails if anything asks it to run: proves that building arrays stays lazy. */
    static final class RaiseIfComputes implements Executor {
        @Override
        public String name() {
            return "raise-if-computes";
        }

        @Override
        public void execute(ExecutionPlan plan, List<Callback> callbacks) {
            throw new AssertionError("computed " + plan.stages());
        }
    }

    private Spec spec() {
        return Spec.builder()
                .workDir(tmp.resolve("work").toString())
                .executor(new LocalExecutor(2, 3, 0))
                .build();
    }

    /** Writes a float64 Zarr array whose element (i, j) is {@code 10 i + j}. */
    private String zarr(String name, long rows, long cols, int[] chunks) {
        String url = tmp.resolve(name).toString();
        StoredArrays.ramp(url, rows, cols, chunks, 10.0);
        return url;
    }

    private static BlockFunction times(double factor) {
        return (blocks, id) -> {
            Chunk in = blocks[0];
            Chunk out = Chunk.allocate(DType.FLOAT64, in.shape());
            for (int i = 0; i < in.size(); i++) {
                out.doubles()[i] = in.doubles()[i] * factor;
            }
            return out;
        };
    }

    @Test
    void buildingArraysComputesNothing() {
        Spec lazy = Spec.builder()
                .workDir(tmp.resolve("lazy").toString())
                .executor(new RaiseIfComputes())
                .build();
        CubedArray x = Cubed.fromZarr(zarr("x.zarr", 6, 4, new int[] {2, 2}), lazy);
        CubedArray y = Blockwise.mapBlocks(times(2), DType.FLOAT64, x);
        CubedArray z = Blockwise.mapBlocks((b, id) -> b[0], DType.FLOAT64, y, Creation.onesLike(y));
        assertThat(z.shape()).containsExactly(6, 4);
        // y is fused into z's tasks: one stage of 6 tasks.
        assertThat(z.explain(ComputeOptions.builder().optimize(true).build()))
                .contains("map_blocks")
                .contains("1 operations (1 more fused into them), 6 tasks")
                .containsPattern("fuses op-\\d+ map_blocks");
        assertThatThrownBy(z::compute).isInstanceOf(AssertionError.class).hasMessageContaining("computed");
    }

    @Test
    void fromZarrMapBlocksToZarrMatchesAPlainLoop() {
        Spec spec = spec();
        CubedArray x = Cubed.fromZarr(zarr("x.zarr", 7, 5, new int[] {3, 2}), spec);
        CubedArray y = Blockwise.mapBlocks(times(3), DType.FLOAT64, x);
        String out = tmp.resolve("y.zarr").toString();
        y.toZarr(out);
        ZarrArray stored = ZarrArray.open(out);
        Chunk all = stored.readRegion(new long[] {0, 0}, new int[] {7, 5});
        for (int i = 0; i < 7; i++) {
            for (int j = 0; j < 5; j++) {
                assertThat(all.doubles()[i * 5 + j]).isEqualTo(3 * (10.0 * i + j));
            }
        }
        assertThat(stored.metadata().chunks()).containsExactly(3, 2);
    }

    @Test
    void fromZarrWithLargerChunksMergesStoredChunks() {
        Spec spec = spec();
        CubedArray x = Cubed.fromZarr(zarr("x.zarr", 8, 6, new int[] {2, 3}), spec, 4, -1);
        assertThat(x.chunkShape()).containsExactly(4, 6);
        assertThat(x.numChunks()).isEqualTo(2);
        Chunk c = Blockwise.mapBlocks(times(1), DType.FLOAT64, x).compute();
        assertThat(c.doubles()[7 * 6 + 5]).isEqualTo(75.0);
        assertThatThrownBy(() -> Cubed.fromZarr(tmp.resolve("x.zarr").toString(), spec, 3, 3))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("multiples of its stored chunks [2, 3]");
    }

    @Test
    void virtualArraysHoldTheirValues() {
        Spec spec = spec();
        assertThat(Creation.arange(0, 10, 1, 3, DType.INT64, spec).compute().longs())
                .containsExactly(0, 1, 2, 3, 4, 5, 6, 7, 8, 9);
        assertThat(Creation.arange(1, 2, 0.25, 3, DType.FLOAT64, spec).compute().doubles())
                .containsExactly(1.0, 1.25, 1.5, 1.75);
        assertThat(Creation.linspace(0, 1, 5, true, 2, DType.FLOAT64, spec)
                        .compute()
                        .doubles())
                .containsExactly(0.0, 0.25, 0.5, 0.75, 1.0);
        assertThat(Creation.linspace(0, 1, 4, false, 3, DType.FLOAT32, spec)
                        .compute()
                        .floats())
                .containsExactly(0f, 0.25f, 0.5f, 0.75f);
        assertThat(Creation.eye(3, 4, 1, new int[] {2, 3}, DType.INT8, spec)
                        .compute()
                        .bytes())
                .containsExactly(0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1);
        assertThat(Creation.full(new long[] {2, 3}, Scalar.ofDouble(2.5), new int[] {1, 2}, DType.FLOAT32, spec)
                        .compute()
                        .floats())
                .containsExactly(2.5f, 2.5f, 2.5f, 2.5f, 2.5f, 2.5f);
        assertThat(Creation.ones(new long[] {3}, new int[] {2}, DType.BOOL, spec)
                        .compute()
                        .booleans())
                .containsExactly(true, true, true);
        assertThat(Creation.zeros(new long[] {0, 3}, new int[] {2, 2}, DType.INT32, spec)
                        .compute()
                        .size())
                .isZero();
    }

    @Test
    void asarrayAndFromArray() {
        Spec spec = spec();
        Chunk data = Chunk.wrap(DType.INT32, new int[] {2, 3}, new int[] {1, 2, 3, 4, 5, 6});
        CubedArray a = Cubed.asarray(data, spec, 1, 2);
        data.ints()[0] = 100;
        assertThat(a.compute().ints()).as("asarray copies its data").containsExactly(1, 2, 3, 4, 5, 6);
        Chunk big = Chunk.allocate(DType.FLOAT64, 400, 400);
        // The limit is half of what a task may use: 1 MB of a 102 MB budget with 100 MB reserved.
        Spec tight = spec.toBuilder().allowedMem("102MB").build();
        assertThatThrownBy(() -> Cubed.asarray(big, tight, 100, 100))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("asarray takes at most 1.0 MB (1000000 bytes")
                .hasMessageContaining("fromZarr");
        big.doubles()[159_999] = 7;
        CubedArray b = Cubed.fromArray(big, spec, 128, 128);
        assertThat(b.numChunks()).isEqualTo(16);
        assertThat(b.compute().doubles()[159_999]).isEqualTo(7);
    }

    @Test
    void aPlanOverTheBudgetIsRefusedBeforeAnythingRuns() {
        AtomicInteger runs = new AtomicInteger();
        Executor counting = new Executor() {
            @Override
            public String name() {
                return "counting";
            }

            @Override
            public void execute(ExecutionPlan plan, List<Callback> callbacks) {
                runs.incrementAndGet();
            }
        };
        Spec small = Spec.builder()
                .workDir(tmp.resolve("w").toString())
                .allowedMem("1MB")
                .reservedMem("100kB")
                .executor(counting)
                .build();
        CubedArray x = Creation.ones(new long[] {1000, 1000}, new int[] {500, 500}, DType.FLOAT64, small);
        CubedArray y = Blockwise.mapBlocks(times(2), DType.FLOAT64, x);
        // One task: 100 kB reserved + input 2 MB (virtual: no buffer copies) + output 2 MB x (1 + 1 write copy).
        assertThatThrownBy(y::compute)
                .isInstanceOf(MemoryBudgetExceededException.class)
                .hasMessageMatching("Projected blockwise memory \\(6\\.1 MB\\) exceeds allowedMem \\(1\\.0 MB\\), "
                        + "including reservedMem \\(100\\.0 kB\\) for op-\\d+ map_blocks.*");
        assertThat(runs.get()).isZero();
        assertThat(tmp.resolve("w")).isEmptyDirectory();
    }

    @Test
    void projectedMemoryIsTheFormula() {
        Spec spec = Spec.builder()
                .workDir(tmp.resolve("w").toString())
                .reservedMem(1000)
                .build();
        CubedArray x = Cubed.fromZarr(zarr("x.zarr", 10, 10, new int[] {5, 5}), spec);
        CubedArray y = Creation.onesLike(x);
        CubedArray z = Blockwise.mapBlocks((b, id) -> b[0], DType.FLOAT64, x, y);
        Computation c = Computation.prepare(spec, List.of(z.node()), Map.of());
        OpNode op = z.node().op();
        long chunk = 5 * 5 * 8;
        // reserved + stored input (1 + 1 read copy) + virtual input (no copies) + output (1 + 1 write copy)
        assertThat(c.projectedMemBytes().get(op)).isEqualTo(1000 + chunk * 2 + chunk + chunk * 2);
    }

    @Test
    void intermediatesAreDeletedUnlessKept() throws Exception {
        Spec spec = spec();
        CubedArray x = Creation.arange(0, 20, 1, 5, DType.FLOAT64, spec);
        CubedArray y = Blockwise.mapBlocks(times(2), DType.FLOAT64, Blockwise.mapBlocks(times(3), DType.FLOAT64, x));
        assertThat(y.compute().doubles()[19]).isEqualTo(114.0);
        try (Stream<Path> s = Files.list(tmp.resolve("work"))) {
            assertThat(s.filter(p -> p.getFileName().toString().startsWith("cubed-")))
                    .isEmpty();
        }
        Spec keep = spec.toBuilder().keepIntermediates(true).build();
        CubedArray k = Blockwise.mapBlocks(times(2), DType.FLOAT64, Creation.arange(0, 4, 1, 2, DType.FLOAT64, keep));
        k.compute();
        try (Stream<Path> s = Files.list(tmp.resolve("work"))) {
            assertThat(s.filter(p -> p.getFileName().toString().startsWith("cubed-")))
                    .hasSize(1);
        }
    }

    static final Map<String, AtomicInteger> ATTEMPTS = new ConcurrentHashMap<>();

    @Test
    void failingTasksAreRetriedThenReported() {
        String key = tmp.toString();
        ATTEMPTS.put(key, new AtomicInteger());
        BlockFunction flaky = (blocks, id) -> {
            if (id[0] == 1 && ATTEMPTS.get(key).incrementAndGet() <= 2) {
                throw new IllegalStateException("injected failure");
            }
            return blocks[0];
        };
        Spec spec = spec();
        CubedArray x = Creation.arange(0, 6, 1, 2, DType.INT64, spec);
        assertThat(Blockwise.mapBlocks(flaky, DType.INT64, x).compute().longs()).containsExactly(0, 1, 2, 3, 4, 5);
        assertThat(ATTEMPTS.get(key).get()).isEqualTo(3);

        BlockFunction broken = (blocks, id) -> {
            throw new IllegalStateException("always broken");
        };
        assertThatThrownBy(() -> Blockwise.mapBlocks(broken, DType.INT64, x).compute())
                .isInstanceOf(TaskFailedException.class)
                .hasMessageMatching(
                        "op-\\d+ map_blocks \\(blockwise\\): task \\d failed after 3 attempts: always broken");
    }

    @Test
    void aChunkOfTheWrongShapeIsAClearError() {
        Spec spec = spec().toBuilder().executor(new LocalExecutor(1, 1, 0)).build();
        CubedArray x = Creation.arange(0, 6, 1, 3, DType.INT64, spec);
        BlockFunction wrong = (blocks, id) -> Chunk.allocate(DType.INT64, 2);
        assertThatThrownBy(() -> Blockwise.mapBlocks(wrong, DType.INT64, x).compute())
                .isInstanceOf(TaskFailedException.class)
                .hasMessageContaining("returned a int64 chunk of shape [2]")
                .hasMessageContaining("expected a int64 chunk of shape [3]");
    }

    @Test
    void blockwiseIndexNotationContractsLikeMatmul() {
        Spec spec = spec();
        // x: 4x6 = arange reshaped by mapBlocks; y: 6x3 eye-like. Compare with a plain Java matmul.
        Chunk xs = Chunk.allocate(DType.FLOAT64, 4, 6);
        Chunk ys = Chunk.allocate(DType.FLOAT64, 6, 3);
        for (int i = 0; i < xs.size(); i++) {
            xs.doubles()[i] = i % 7 - 3;
        }
        for (int i = 0; i < ys.size(); i++) {
            ys.doubles()[i] = (i * 5) % 11 - 4;
        }
        CubedArray x = Cubed.asarray(xs, spec, 2, 2);
        CubedArray y = Cubed.asarray(ys, spec, 2, 2);
        CubedArray z = Blockwise.blockwise(new BlockMatMul(), "ij", DType.FLOAT64, x, "ik", y, "kj");
        assertThat(z.shape()).containsExactly(4, 3);
        assertThat(z.chunkShape()).containsExactly(2, 2);
        Chunk got = z.compute();
        for (int i = 0; i < 4; i++) {
            for (int j = 0; j < 3; j++) {
                double s = 0;
                for (int k = 0; k < 6; k++) {
                    s += xs.doubles()[i * 6 + k] * ys.doubles()[k * 3 + j];
                }
                assertThat(got.doubles()[i * 3 + j]).isEqualTo(s);
            }
        }
    }

    @Test
    void mapBlocksDropsAndAddsAxes() {
        Spec spec = spec();
        CubedArray x = Cubed.fromZarr(zarr("x.zarr", 6, 4, new int[] {2, 4}), spec);
        BlockFunction rowSums = (blocks, id) -> {
            Chunk in = blocks[0];
            Chunk out = Chunk.allocate(DType.FLOAT64, in.shape(0));
            for (int r = 0; r < in.shape(0); r++) {
                for (int c = 0; c < in.shape(1); c++) {
                    out.doubles()[r] += in.doubles()[r * in.shape(1) + c];
                }
            }
            return out;
        };
        CubedArray sums = Blockwise.mapBlocks(
                rowSums, MapBlocksOptions.builder(DType.FLOAT64).dropAxis(1).build(), x);
        assertThat(sums.shape()).containsExactly(6);
        assertThat(sums.compute().doubles()).containsExactly(6.0, 46.0, 86.0, 126.0, 166.0, 206.0);
        CubedArray col = Blockwise.mapBlocks(
                (blocks, id) -> Chunk.wrap(
                        DType.FLOAT64,
                        new int[] {blocks[0].size(), 1},
                        blocks[0].doubles().clone()),
                MapBlocksOptions.builder(DType.FLOAT64).newAxis(1).build(),
                sums);
        assertThat(col.shape()).containsExactly(6, 1);
        assertThat(col.compute().doubles()).containsExactly(6.0, 46.0, 86.0, 126.0, 166.0, 206.0);
        CubedArray split = Cubed.fromZarr(zarr("y.zarr", 4, 4, new int[] {2, 2}), spec);
        assertThatThrownBy(() -> Blockwise.mapBlocks(
                        rowSums,
                        MapBlocksOptions.builder(DType.FLOAT64).dropAxis(1).build(),
                        split))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("it has several chunks");
    }

    @Test
    void severalArraysComputeInOneComputationAndStore() {
        Spec spec = spec();
        CubedArray x = Creation.arange(0, 5, 1, 2, DType.FLOAT64, spec);
        CubedArray a = Blockwise.mapBlocks(times(2), DType.FLOAT64, x);
        CubedArray b = Blockwise.mapBlocks(times(-1), DType.FLOAT64, x);
        AtomicInteger computations = new AtomicInteger();
        Callback counter = new Callback() {
            @Override
            public void onComputeStart(ComputeStart event) {
                computations.incrementAndGet();
            }
        };
        List<Chunk> both = Cubed.compute(List.of(a, b), counter);
        assertThat(computations.get()).isEqualTo(1);
        assertThat(both.get(0).doubles()).containsExactly(0.0, 2.0, 4.0, 6.0, 8.0);
        assertThat(both.get(1).doubles()).containsExactly(-0.0, -1.0, -2.0, -3.0, -4.0);
        String ua = tmp.resolve("a.zarr").toString();
        String ux = tmp.resolve("x.zarr").toString();
        Cubed.store(List.of(a, x), List.of(ua, ux));
        assertThat(ZarrArray.open(ux).readChunk(2).doubles()).containsExactly(4.0);
        assertThatThrownBy(() -> a.toZarr(ua))
                .isInstanceOf(PlanException.class)
                .hasMessageContaining("an array already exists");
    }

    @Test
    void oneOperationWithTwoOutputsRunsItsTasksOnce() {
        Spec spec = spec();
        CubedArray x = Creation.arange(0, 11, 1, 4, DType.INT64, spec);
        AtomicInteger calls = new AtomicInteger();
        Callback taskCounter = new Callback() {
            @Override
            public void onTaskEnd(TaskEnd event) {
                calls.incrementAndGet();
            }
        };
        List<CubedArray> qr = Blockwise.mapBlocksMulti(
                (blocks, id) -> {
                    long[] v = blocks[0].longs();
                    long[] q = new long[v.length];
                    long[] r = new long[v.length];
                    for (int i = 0; i < v.length; i++) {
                        q[i] = v[i] / 3;
                        r[i] = v[i] % 3;
                    }
                    return new Chunk[] {
                        Chunk.wrap(DType.INT64, blocks[0].shape(), q), Chunk.wrap(DType.INT64, blocks[0].shape(), r)
                    };
                },
                List.of(DType.INT64, DType.INT64),
                x);
        assertThat(qr).hasSize(2);
        assertThat(qr.get(0).node().op()).isSameAs(qr.get(1).node().op());
        List<Chunk> out = Cubed.compute(qr, taskCounter);
        long[] q = out.get(0).longs();
        long[] r = out.get(1).longs();
        for (int i = 0; i < 11; i++) {
            assertThat(q[i]).isEqualTo(i / 3);
            assertThat(r[i]).isEqualTo(i % 3);
        }
        // arange is virtual; the two-output operation has 3 chunks, each computed once.
        assertThat(calls.get()).isEqualTo(3);
    }

    @Test
    void specsAreCheckedAndNotMixed() {
        Spec one = spec();
        Spec other = one.toBuilder().allowedMem("3GB").build();
        CubedArray x = Creation.arange(0, 4, 1, 2, DType.FLOAT64, one);
        CubedArray y = Creation.arange(0, 4, 1, 2, DType.FLOAT64, other);
        assertThatThrownBy(() -> Blockwise.mapBlocks((b, id) -> b[0], DType.FLOAT64, x, y))
                .isInstanceOf(PlanException.class)
                .hasMessageContaining("different specs");
        assertThatThrownBy(() -> Spec.builder().allowedMem("-2GB")).isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(() -> Spec.builder().allowedMem(0).build())
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("allowedMem must be positive");
        Path file = tmp.resolve("a-file");
        assertThatThrownBy(() -> {
                    Files.writeString(file, "x");
                    Spec.builder().workDir(file.toString()).build();
                })
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("workDir '" + file + "' cannot be written");
        assertThatThrownBy(() -> Creation.zeros(new long[] {4, 4}, new int[] {2}, DType.FLOAT64, one))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("chunks [2] for full have 1 entries but its shape [4, 4] has 2 axes");
        assertThatThrownBy(() -> Creation.zeros(new long[] {4}, new int[] {0}, DType.FLOAT64, one))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("must be positive");
    }
}
