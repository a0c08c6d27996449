package io.cubed.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cubed.Cubed;
import io.cubed.array.BlockMatMul;
import io.cubed.array.Blockwise;
import io.cubed.array.ComputeOptions;
import io.cubed.array.Creation;
import io.cubed.array.CubedArray;
import io.cubed.array.Elementwise;
import io.cubed.array.LinearAlgebra;
import io.cubed.array.Manipulation;
import io.cubed.array.ReductionOptions;
import io.cubed.array.Statistical;
import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.error.MemoryBudgetExceededException;
import io.cubed.plan.Spec;
import io.cubed.runtime.Callback;
import io.cubed.storage.zarr.StoredArrays;
import io.cubed.storage.zarr.ZarrArray;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.DoubleBinaryOperator;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Arrays computed with {@link SparkExecutor} equal plain Java loops; plans of every kind of operation are shuffle-free
 * with small task results ({@link #shuffleFreePlans()}).
 */
class SparkArrayTest {
    @TempDir
    Path tmp;

    private final JavaSparkContext jsc = SparkTestContext.get();
    private SparkJobRecorder jobs;

    /** Remembers the compute ids it sees. */
    static final class ComputeIds implements Callback {
        final List<String> ids = new CopyOnWriteArrayList<>();

        @Override
        public void onComputeStart(ComputeStart event) {
            ids.add(event.computeId());
        }
    }

    @BeforeEach
    void listen() {
        SparkTestContext.drainListeners();
        jobs = new SparkJobRecorder();
        jsc.sc().addSparkListener(jobs);
    }

    @AfterEach
    void stopListening() {
        jsc.sc().removeSparkListener(jobs);
    }

    /** Every stage a Spark job (no tiny stages on the driver): these tests look at the jobs. */
    private Spec spec() {
        return SparkExecutor.builder(jsc)
                .driverStageBytes(0)
                .build()
                .specBuilder()
                .workDir(tmp.resolve("work").toString())
                .build();
    }

    /** A float64 Zarr array with element (i, j) = {@code 10 i + j}. */
    private String zarr(String name, long rows, long cols, int[] chunks) {
        String url = tmp.resolve(name).toString();
        StoredArrays.ramp(url, rows, cols, chunks, 10.0);
        return url;
    }

    @Test
    void fromZarrMapBlocksToZarrEqualsAPlainLoop() {
        Spec spec = spec();
        CubedArray x = Cubed.fromZarr(zarr("x.zarr", 70, 50, new int[] {30, 20}), spec);
        CubedArray y = Blockwise.mapBlocks(new TestFunctions.Times(3), DType.FLOAT64, x);
        String out = tmp.resolve("y.zarr").toString();
        ComputeIds ids = new ComputeIds();
        y.toZarr(out, ids);
        Chunk all = ZarrArray.open(out).readRegion(new long[] {0, 0}, new int[] {70, 50});
        for (int i = 0; i < 70; i++) {
            for (int j = 0; j < 50; j++) {
                assertThat(all.doubles()[i * 50 + j]).isEqualTo(3 * (10.0 * i + j));
            }
        }
        SparkTestContext.drainListeners();
        assertThat(jobs.jobsOf(ids.ids.get(0))).singleElement().satisfies(j -> assertThat(j.description())
                .matches("op-\\d+ map_blocks \\(blockwise\\), 9 tasks, .*"));
    }

    @Test
    void blockwiseContractionEqualsAPlainMatmul() {
        Spec spec = spec();
        Chunk xs = Chunk.allocate(DType.FLOAT64, 6, 9);
        Chunk ys = Chunk.allocate(DType.FLOAT64, 9, 4);
        for (int i = 0; i < xs.size(); i++) {
            xs.doubles()[i] = i % 7 - 3;
        }
        for (int i = 0; i < ys.size(); i++) {
            ys.doubles()[i] = (i * 5) % 11 - 4;
        }
        CubedArray x = Cubed.asarray(xs, spec, 2, 3);
        CubedArray y = Cubed.asarray(ys, spec, 3, 2);
        CubedArray z = Blockwise.blockwise(new BlockMatMul(), "ij", DType.FLOAT64, x, "ik", y, "kj");
        Chunk got = z.compute();
        for (int i = 0; i < 6; i++) {
            for (int j = 0; j < 4; j++) {
                double s = 0;
                for (int k = 0; k < 9; k++) {
                    s += xs.doubles()[i * 9 + k] * ys.doubles()[k * 4 + j];
                }
                assertThat(got.doubles()[i * 4 + j]).as("(%d, %d)", i, j).isEqualTo(s);
            }
        }
    }

    /**
     * A plan for the shuffle test: built from a (64, 64) float64 Zarr input with element (i, j) = {@code 10 i + j}, in
     * {@code inputChunks}, with a spec of {@code allowedMem} (reserved 0); {@code expected} gives the result's element
     * (i, j); {@code mustRun} is a fragment of the description of at least one of its Spark jobs.
     */
    record ShuffleCase(
            String name,
            long allowedMem,
            int[] inputChunks,
            UnaryOperator<CubedArray> plan,
            DoubleBinaryOperator expected,
            String mustRun) {
        @Override
        public String toString() {
            return name;
        }
    }

    /** One case per kind of operation: blockwise, rechunk, reduction rounds, contraction. */
    static Stream<ShuffleCase> shuffleFreePlans() {
        return Stream.of(
                new ShuffleCase(
                        "three map_blocks, two of them independent",
                        100_000_000,
                        new int[] {16, 16},
                        x -> Blockwise.mapBlocks(
                                new TestFunctions.Sum(),
                                DType.FLOAT64,
                                Blockwise.mapBlocks(new TestFunctions.Times(2), DType.FLOAT64, x),
                                Blockwise.mapBlocks(new TestFunctions.Times(3), DType.FLOAT64, x),
                                Creation.onesLike(x)),
                        (i, j) -> 5 * (10.0 * i + j) + 1,
                        "map_blocks (blockwise), 16 tasks"),
                // Rows (1, 64) to columns (64, 1) at 3000 bytes per task: at least two copy stages (RechunkTest).
                new ShuffleCase(
                        "map_blocks then a multi-stage rechunk from rows to columns",
                        3000,
                        new int[] {1, 64},
                        x -> Manipulation.rechunk(
                                Blockwise.mapBlocks(new TestFunctions.Affine(2, 1), DType.FLOAT64, x), 64, 1),
                        (i, j) -> 2 * (10.0 * i + j) + 1,
                        "rechunk (stage 2/"),
                // x - mean(x, axis 0): 16 row chunks reduced in two rounds, then broadcast back.
                new ShuffleCase(
                        "a tree reduction in rounds, broadcast back",
                        100_000_000,
                        new int[] {4, 64},
                        x -> Elementwise.subtract(
                                x, Statistical.mean(x, ReductionOptions.axis(0).keepdims(true))),
                        (i, j) -> 10.0 * i + j - (10.0 * 31.5 + j),
                        "mean round 2/"),
                // x @ I over 8 chunks along k: partial sums of 4 products each, then a tree reduction of the sum.
                new ShuffleCase(
                        "matmul with the identity",
                        100_000_000,
                        new int[] {8, 8},
                        x -> LinearAlgebra.matmul(
                                x, Creation.eye(64, 64, 0, new int[] {8, 8}, DType.FLOAT64, x.spec())),
                        (i, j) -> 10.0 * i + j,
                        "matmul"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("shuffleFreePlans")
    void everyJobOfAPlanShufflesNothingAndReturnsSmallResults(ShuffleCase c) {
        Spec spec = SparkExecutor.builder(jsc)
                .driverStageBytes(0)
                .build()
                .specBuilder()
                .workDir(tmp.resolve("work").toString())
                .allowedMem(c.allowedMem())
                .reservedMem(0)
                .build();
        CubedArray x = Cubed.fromZarr(zarr("x.zarr", 64, 64, c.inputChunks()), spec);
        CubedArray y = c.plan().apply(x);
        ComputeIds ids = new ComputeIds();
        Map<String, Long> tasksPerStage = new ConcurrentHashMap<>();
        // Unfused, so that every operation of the plan is a Spark job of its own to inspect.
        Chunk got = y.compute(ComputeOptions.builder().optimize(false).build(), ids, new Callback() {
            @Override
            public void onOperationStart(OperationStart event) {
                tasksPerStage.put(
                        jobGroupOf(event.computeId(), event.stage().id()),
                        event.stage().numTasks());
            }
        });
        for (int i = 0; i < 64; i++) {
            for (int j = 0; j < 64; j++) {
                assertThat(got.doubles()[i * 64 + j])
                        .as("(%d, %d)", i, j)
                        .isEqualTo(c.expected().applyAsDouble(i, j));
            }
        }
        SparkTestContext.drainListeners();
        List<SparkJobRecorder.Job> ours = jobs.jobsOf(ids.ids.get(0));
        assertThat(ours)
                .as("one job per operation")
                .hasSize(tasksPerStage.size())
                .hasSizeGreaterThanOrEqualTo(2);
        assertThat(ours).extracting(SparkJobRecorder.Job::description).anyMatch(d -> d.contains(c.mustRun()));
        for (SparkJobRecorder.Job j : ours) {
            assertThat(j.stageIds())
                    .as("one Spark stage per job: no shuffle boundary")
                    .hasSize(1);
            int stageId = j.stageIds().get(0);
            SparkJobRecorder.StageMetrics m = jobs.stages.get(stageId);
            assertThat(m.shuffleReadBytes()).as(j.description()).isZero();
            assertThat(m.shuffleWriteBytes()).as(j.description()).isZero();
            long tasks = tasksPerStage.get(j.group());
            int sparkTasks = SparkExecutor.create(jsc).partitions(tasks).size();
            assertThat(m.numTasks())
                    .as("%d Cubed tasks grouped into Spark tasks", tasks)
                    .isEqualTo(sparkTasks)
                    .isBetween((int) Math.min(tasks, 2L * jsc.defaultParallelism()), (int) tasks);
            assertThat(jobs.resultSizes.get(stageId))
                    .as("results of " + j.description())
                    .hasSize(sparkTasks)
                    .allSatisfy(size -> assertThat(size).isBetween(1L, 10_000L));
        }
    }

    private static String jobGroupOf(String computeId, String stageId) {
        return "cubed-" + computeId + "-" + stageId;
    }

    @Test
    void theLaterRoundsOfAReductionRunOnTheDriverAndGiveTheSameValues() {
        // (256, 64) in (8, 64) chunks: round 1 of sum and of mean reads 32 chunks in more than 16 tasks (Spark jobs);
        // the later rounds combine partial results of a few hundred bytes (on the driver, with the default limit).
        Spec spec = SparkExecutor.create(jsc)
                .specBuilder()
                .workDir(tmp.resolve("work").toString())
                .build();
        CubedArray x = Cubed.fromZarr(zarr("r.zarr", 256, 64, new int[] {2, 64}), spec);
        ComputeIds ids = new ComputeIds();
        Map<String, Long> stages = new ConcurrentHashMap<>();
        List<Long> taskEnds = new java.util.concurrent.CopyOnWriteArrayList<>();
        Callback count = new Callback() {
            @Override
            public void onOperationEnd(OperationEnd e) {
                stages.put(jobGroupOf(e.computeId(), e.stage().id()), e.stage().numTasks());
            }

            @Override
            public void onTaskEnd(TaskEnd e) {
                taskEnds.add(e.result().taskIndex());
            }
        };
        List<Chunk> got = Cubed.compute(
                List.of(Statistical.sum(x), Statistical.mean(x, ReductionOptions.axis(0))),
                ComputeOptions.defaults(),
                ids,
                count);
        double total = 0;
        double[] colMeans = new double[64];
        for (int i = 0; i < 256; i++) {
            for (int j = 0; j < 64; j++) {
                total += 10.0 * i + j;
                colMeans[j] += (10.0 * i + j) / 256;
            }
        }
        assertThat(got.get(0).getDouble(0)).isEqualTo(total);
        for (int j = 0; j < 64; j++) {
            assertThat(got.get(1).doubles()[j]).isCloseTo(colMeans[j], org.assertj.core.data.Offset.offset(1e-9));
        }
        SparkTestContext.drainListeners();
        List<SparkJobRecorder.Job> ours = jobs.jobsOf(ids.ids.get(0));
        assertThat(ours).as("round 1 runs as a Spark job").isNotEmpty();
        assertThat(ours.size()).as("the later rounds do not").isLessThan(stages.size());
        assertThat(taskEnds).as("every task of every stage reported").hasSize((int)
                stages.values().stream().mapToLong(Long::longValue).sum());
    }

    @Test
    void aPlanOverAllowedMemIsRefusedWithoutASparkJob() {
        Spec small = SparkExecutor.create(jsc)
                .specBuilder()
                .workDir(tmp.resolve("w").toString())
                .allowedMem("1MB")
                .reservedMem("100kB")
                .build();
        CubedArray x = Creation.ones(new long[] {1000, 1000}, new int[] {500, 500}, DType.FLOAT64, small);
        CubedArray y = Blockwise.mapBlocks(new TestFunctions.Times(2), DType.FLOAT64, x);
        assertThatThrownBy(y::compute)
                .isInstanceOf(MemoryBudgetExceededException.class)
                .hasMessageContaining("exceeds allowedMem (1.0 MB)");
        SparkTestContext.drainListeners();
        assertThat(jobs.jobs).isEmpty();
    }

    @Test
    void rechunkRowsToColumnsReadsEveryChunkOncePerStageOnSpark() {
        // (240, 240) float64 rows (4, 240) -> columns (240, 4) at 200 kB: a region buffer may hold 200 kB / 5 = 40 kB,
        // less than the 460.8 kB array, so the copy goes in several stages whose tasks each cover several chunks.
        Spec small = SparkExecutor.create(jsc)
                .specBuilder()
                .workDir(tmp.resolve("w").toString())
                .allowedMem("200kB")
                .reservedMem("0B")
                .build();
        CubedArray x = Cubed.fromZarr(zarr("rows.zarr", 240, 240, new int[] {4, 240}), small);
        CubedArray y = Manipulation.rechunk(x, 240, 4);
        Map<String, long[]> perStage = new ConcurrentHashMap<>();
        Callback count = new Callback() {
            @Override
            public void onTaskEnd(TaskEnd e) {
                long[] f = perStage.computeIfAbsent(e.stage().id(), k -> new long[3]);
                synchronized (f) {
                    f[0] += e.result().bytesRead();
                    f[1]++;
                    f[2] = e.stage().numTasks();
                }
            }
        };
        String out = tmp.resolve("columns.zarr").toString();
        long reusedBefore = io.cubed.chunk.ArrayRecycler.reusedBytes();
        y.toZarr(out, count);
        // Tasks took the arrays of earlier tasks of their stage, whichever of Spark's threads ran them; once the
        // computation is over, no array is kept for a next task in this (local-mode) JVM.
        assertThat(io.cubed.chunk.ArrayRecycler.reusedBytes() - reusedBefore).isPositive();
        assertThat(io.cubed.chunk.ArrayRecycler.keptBytes()).isZero();
        assertThat(y.explain()).contains("region [");
        assertThat(perStage).hasSizeGreaterThanOrEqualTo(2);
        for (long[] f : perStage.values()) {
            assertThat(f[0]).isEqualTo(240L * 240 * 8); // every chunk read once per stage
            assertThat(f[1]).isEqualTo(f[2]); // one event per task
        }
        Chunk all = ZarrArray.open(out).readRegion(new long[] {0, 0}, new int[] {240, 240});
        for (int i = 0; i < 240; i++) {
            for (int j = 0; j < 240; j++) {
                assertThat(all.doubles()[i * 240 + j]).isEqualTo(10.0 * i + j);
            }
        }
    }
}
