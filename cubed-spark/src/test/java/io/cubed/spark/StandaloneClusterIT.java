package io.cubed.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cubed.array.Blockwise;
import io.cubed.array.Creation;
import io.cubed.array.CubedArray;
import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.error.MemoryBudgetExceededException;
import io.cubed.plan.Spec;
import io.cubed.runtime.Callback;
import io.cubed.runtime.TaskResult;
import io.cubed.storage.zarr.ZarrArray;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real standalone cluster (Master and Worker JVMs from the Maven jars) with two executors of 512 MiB heap and one
 * core each computes 2.4 GB of virtual input into a 2.4 GB Zarr array: 4.8 GB of arrays, more than 4 times the 1 GiB
 * of executor heap. Sampled chunks equal the formula, and no executor is lost. Plans over {@code allowedMem}, or over
 * what Spark gives a task, are refused with no Spark job started.
 */
class StandaloneClusterIT {
    private static final long MIB = 1024L * 1024;
    private static final int CHUNK = 1_000_000; // 8 MB of float64
    private static final long CHUNKS = 300;
    private static final long N = CHUNKS * CHUNK;

    @TempDir
    Path tmp;

    @Test
    void boundedExecutorsComputeArraysManyTimesTheirHeap() throws Exception {
        try (StandaloneCluster cluster = StandaloneCluster.start(tmp.resolve("cluster"), 2, "1100m")) {
            SparkConf conf = new SparkConf()
                    .setMaster(cluster.masterUrl())
                    .setAppName("cubed-standalone-it")
                    .set("spark.driver.host", "127.0.0.1")
                    .set("spark.driver.bindAddress", "127.0.0.1")
                    .set("spark.ui.enabled", "false")
                    .set("spark.executor.memory", "512m")
                    .set("spark.executor.cores", "1")
                    .set("spark.cores.max", "2")
                    .set("spark.task.maxFailures", "2");
            JavaSparkContext jsc = new JavaSparkContext(conf);
            try {
                SparkJobRecorder recorder = new SparkJobRecorder();
                jsc.sc().addSparkListener(recorder);
                waitForExecutors(jsc, 2);

                SparkExecutor executor = SparkExecutor.create(jsc);
                SparkMemoryCheck check = executor.memoryCheck();
                // (512 MiB − 300 MiB reserved) × (1 − 0.6) / 1 task per executor.
                assertThat(check.perTaskBytes()).isEqualTo((long) ((512 * MIB - 300 * MIB) * (1 - 0.6)));
                Spec spec = executor.specBuilder()
                        .workDir(tmp.resolve("work").toString())
                        .allowedMem("80MB")
                        .reservedMem("20MB")
                        .build();
                check.check(spec.allowedMem().bytes(), "allowedMem");

                CubedArray x = Creation.arange(0, N, 1, CHUNK, DType.FLOAT64, spec);
                CubedArray y = Blockwise.mapBlocks(new TestFunctions.Affine(2, 1), DType.FLOAT64, x);
                long arrayBytes = x.nbytes() + y.nbytes();
                assertThat(arrayBytes).isGreaterThanOrEqualTo(4 * 2 * 512 * MIB);
                String out = tmp.resolve("y.zarr").toString();
                List<TaskResult> results = new CopyOnWriteArrayList<>();
                y.toZarr(out, new Callback() {
                    @Override
                    public void onTaskEnd(TaskEnd event) {
                        results.add(event.result());
                    }
                });

                assertThat(results).hasSize((int) CHUNKS);
                assertThat(results.stream().mapToLong(TaskResult::bytesWritten).sum())
                        .isEqualTo(N * 8);
                ZarrArray stored = ZarrArray.open(out);
                for (long c : new long[] {0, 1, 77, 150, 223, CHUNKS - 1}) {
                    Chunk chunk = stored.readChunk(c);
                    double[] d = chunk.doubles();
                    assertThat(d).hasSize(CHUNK);
                    for (int i = 0; i < d.length; i += 9973) {
                        assertThat(d[i]).isEqualTo(2.0 * (c * CHUNK + i) + 1);
                    }
                    assertThat(d[CHUNK - 1]).isEqualTo(2.0 * (c * CHUNK + CHUNK - 1) + 1);
                }
                jsc.sc().listenerBus().waitUntilEmpty();
                assertThat(recorder.removedExecutors).as("executors lost").isEmpty();
                assertThat(recorder.tasksByExecutor)
                        .as("Spark tasks per executor")
                        .hasSize(2)
                        .doesNotContainKey("driver");
                assertThat(recorder.stages.values())
                        .allSatisfy(s -> assertThat(s.shuffleWriteBytes()).isZero());

                // Refused before any job: a plan over allowedMem (Cubed's check), and a plan within a large
                // allowedMem that needs more than the 84.8 MiB a task gets on these executors (the Spark check).
                int jobsBefore = recorder.jobs.size();
                CubedArray big = Blockwise.mapBlocks(
                        new TestFunctions.Affine(2, 1),
                        DType.FLOAT64,
                        Creation.arange(0, 40_000_000, 1, 20_000_000, DType.FLOAT64, spec));
                assertThatThrownBy(() -> big.toZarr(tmp.resolve("big.zarr").toString()))
                        .isInstanceOf(MemoryBudgetExceededException.class)
                        .hasMessageContaining("exceeds allowedMem (80.0 MB)");
                Spec roomy = spec.toBuilder().allowedMem("2GB").build();
                CubedArray bigToo = Blockwise.mapBlocks(
                        new TestFunctions.Affine(2, 1),
                        DType.FLOAT64,
                        Creation.arange(0, 40_000_000, 1, 20_000_000, DType.FLOAT64, roomy));
                assertThatThrownBy(() -> bigToo.toZarr(tmp.resolve("big2.zarr").toString()))
                        .isInstanceOf(MemoryBudgetExceededException.class)
                        .hasMessageContaining("spark.executor.memory");
                jsc.sc().listenerBus().waitUntilEmpty();
                assertThat(recorder.jobs).as("Spark jobs after the refusals").hasSize(jobsBefore);

                // An executor JVM killed (SIGKILL) in the middle of a stage: Spark reruns its tasks elsewhere (the
                // Master starts a replacement) and the output is complete and right.
                int slowChunks = 40;
                int slowChunk = 10_000;
                CubedArray slow = Blockwise.mapBlocks(
                        new TestFunctions.SlowAffine(3, -1, 150),
                        DType.FLOAT64,
                        Creation.arange(0, (long) slowChunks * slowChunk, 1, slowChunk, DType.FLOAT64, spec));
                List<TaskResult> slowResults = new CopyOnWriteArrayList<>();
                List<Long> killed = new CopyOnWriteArrayList<>();
                String slowOut = tmp.resolve("slow.zarr").toString();
                slow.toZarr(slowOut, new Callback() {
                    @Override
                    public void onTaskEnd(TaskEnd event) {
                        slowResults.add(event.result());
                        if (slowResults.size() == 6) {
                            cluster.worker()
                                    .descendants()
                                    .filter(h ->
                                            h.info().commandLine().orElse("").contains("CoarseGrainedExecutorBackend"))
                                    .findFirst()
                                    .ifPresent(h -> {
                                        killed.add(h.pid());
                                        h.destroyForcibly();
                                    });
                        }
                    }
                });
                assertThat(killed)
                        .as("an executor process was found and killed")
                        .hasSize(1);
                assertThat(slowResults).as("every task reported once").hasSize(slowChunks);
                ZarrArray slowStored = ZarrArray.open(slowOut);
                assertThat(slowStored.writtenChunkCount()).isEqualTo(slowChunks);
                for (long c = 0; c < slowChunks; c++) {
                    double[] d = slowStored.readChunk(c).doubles();
                    for (int i = 0; i < slowChunk; i++) {
                        if (d[i] != 3.0 * (c * slowChunk + i) - 1) {
                            throw new AssertionError(
                                    "element " + (c * slowChunk + i) + " of " + slowOut + " is " + d[i]);
                        }
                    }
                }
                jsc.sc().listenerBus().waitUntilEmpty();
                assertThat(recorder.removedExecutors)
                        .as("the killed executor was lost")
                        .isNotEmpty();
            } finally {
                jsc.stop();
            }
        }
    }

    private static void waitForExecutors(JavaSparkContext jsc, int n) throws InterruptedException {
        long deadline = System.currentTimeMillis() + 90_000;
        while (jsc.sc().statusTracker().getExecutorInfos().length < n + 1) {
            if (System.currentTimeMillis() > deadline) {
                throw new IllegalStateException(
                        "only " + (jsc.sc().statusTracker().getExecutorInfos().length - 1) + " of " + n
                                + " executors registered");
            }
            Thread.sleep(200);
        }
    }
}
