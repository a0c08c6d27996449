package io.cubed.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cubed.error.MemoryBudgetExceededException;
import io.cubed.runtime.Callback;
import io.cubed.runtime.ExecutionPlan;
import io.cubed.runtime.Executor;
import io.cubed.runtime.ExecutorContract;
import io.cubed.runtime.FileRecordingTask;
import io.cubed.runtime.Stage;
import io.cubed.runtime.TaskResult;
import io.cubed.spark.internal.TaskRange;
import io.cubed.storage.StoreOptions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The executor contract on {@link SparkExecutor} ({@code local[2,3]}), and what is particular to Spark. */
class SparkExecutorTest extends ExecutorContract {
    private final JavaSparkContext jsc = SparkTestContext.get();
    private SparkJobRecorder jobs;

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

    @Override
    protected Executor executor() {
        // The contract retries single tasks; grouped tasks (the auto default) retry their group, tested below. Every
        // stage is a Spark job here: SparkDriverStagesTest runs the contract with tiny stages on the driver.
        return SparkExecutor.builder(jsc)
                .tasksPerPartition(1)
                .driverStageBytes(0)
                .build();
    }

    @Override
    protected int maxAttempts() {
        return 3;
    }

    /** A task function that deletes its inputs on release (as a rechunk's second stage does), or not. */
    private static io.cubed.runtime.TaskFunction releasing(boolean releases) {
        return new io.cubed.runtime.TaskFunction() {
            @Override
            public io.cubed.runtime.TaskIo run(long taskIndex) {
                return io.cubed.runtime.TaskIo.NONE;
            }

            @Override
            public boolean releasesInputs() {
                return releases;
            }
        };
    }

    @Test
    void aStageWhoseTasksReleaseTheirInputsHoldsBackAtMost64MBPerSparkTask() {
        SparkExecutor auto = SparkExecutor.create(jsc);
        assertThat(auto.releasesInputChunks()).isTrue();
        long mb = 1L << 20;
        // 16 tasks of 184 MB each (the bench's W3 second stage): one Cubed task per Spark task.
        io.cubed.runtime.Stage big = new io.cubed.runtime.Stage(
                "op-002", "rechunk (stage 2/2)", 16, releasing(true), 284 * mb, 184 * mb, java.util.List.of());
        assertThat(auto.partitions(big)).hasSize(16).extracting(TaskRange::size).containsOnly(1L);
        // 8 MB tasks: at most 8 in a Spark task, still decreasing to single tasks.
        io.cubed.runtime.Stage small = new io.cubed.runtime.Stage(
                "op-003", "copy", 200, releasing(true), 108 * mb, 8 * mb, java.util.List.of());
        assertThat(auto.partitions(small))
                .extracting(TaskRange::size)
                .startsWith(8L, 8L)
                .endsWith(1L, 1L)
                .allSatisfy(size -> assertThat(size).isBetween(1L, 8L));
        // The same stages without releases are grouped as any other.
        for (io.cubed.runtime.Stage s : java.util.List.of(big, small)) {
            io.cubed.runtime.Stage plain = new io.cubed.runtime.Stage(
                    s.id(),
                    s.description(),
                    s.numTasks(),
                    releasing(false),
                    s.projectedMemBytes(),
                    s.workingSetBytes(),
                    java.util.List.of());
            assertThat(auto.partitions(plain)).isEqualTo(auto.partitions(s.numTasks()));
        }
        // A fixed number per Spark task is the user's choice and is kept.
        assertThat(SparkExecutor.builder(jsc).tasksPerPartition(4).build().partitions(big))
                .hasSize(4);
    }

    @Test
    void tasksAreGroupedIntoAFewSparkTasksPerSlotUnlessFixed() {
        // local[2,3]: two task slots, so ranges of ceil(remaining / 4) tasks, at most 16, down to single tasks.
        SparkExecutor auto = SparkExecutor.create(jsc);
        assertThat(jsc.defaultParallelism()).isEqualTo(2);
        assertThat(auto.partitions(0)).isEmpty();
        assertThat(auto.partitions(1)).extracting(TaskRange::size).containsExactly(1L);
        assertThat(auto.partitions(4)).extracting(TaskRange::size).containsExactly(1L, 1L, 1L, 1L);
        assertThat(auto.partitions(9)).extracting(TaskRange::size).containsExactly(3L, 2L, 1L, 1L, 1L, 1L);
        // 16 tasks (a rechunk stage of the bench): 4, 3, 3, 2, then one task at a time.
        assertThat(auto.partitions(16)).extracting(TaskRange::size).containsExactly(4L, 3L, 3L, 2L, 1L, 1L, 1L, 1L);
        assertThat(auto.partitions(50))
                .extracting(TaskRange::size)
                .containsExactly(13L, 10L, 7L, 5L, 4L, 3L, 2L, 2L, 1L, 1L, 1L, 1L);
        // 200 tasks: 16 at a time while more than 64 remain (9 ranges), then 14, 11, 8, 6, 5, 3, 3, 2, 1, 1, 1, 1.
        assertThat(auto.partitions(200))
                .hasSize(21)
                .extracting(TaskRange::size)
                .startsWith(16L)
                .endsWith(1L, 1L);
        // 10,000 tasks: 621 ranges of 16, then 16, 12, 9, 7, 5, 4, 3, 2, 2, 1, 1, 1, 1 for the last 64.
        assertThat(auto.partitions(10_000)).hasSize(634);
        assertThat(auto.partitions(10_000).get(633)).isEqualTo(new TaskRange(9_999, 10_000));
        assertThat(auto.toString()).contains("tasksPerPartition=auto");
        SparkExecutor fixed = SparkExecutor.builder(jsc).tasksPerPartition(1).build();
        assertThat(fixed.partitions(10_000)).hasSize(10_000);
        SparkExecutor four = SparkExecutor.builder(jsc).tasksPerPartition(4).build();
        assertThat(four.partitions(100)).hasSize(25).extracting(TaskRange::size).containsOnly(4L);
        // 99 at most 4 each: 25 Spark tasks of 4 or 3 (the fewest that hold them), none of fewer.
        assertThat(four.partitions(99)).hasSize(25).extracting(TaskRange::size).containsOnly(4L, 3L);
        assertThat(SparkExecutor.builder(jsc)
                        .tasksPerPartition(3)
                        .autoTasksPerPartition()
                        .build()
                        .partitions(200))
                .hasSize(21);
        // Grouped tasks still report every Cubed task, with its own index.
        java.util.List<Long> ended = new java.util.concurrent.CopyOnWriteArrayList<>();
        auto.execute(
                new io.cubed.runtime.ExecutionPlan(
                        "grouped",
                        java.util.List.of(new io.cubed.runtime.Stage(
                                "op-001", "many", 100, i -> io.cubed.runtime.TaskIo.NONE, 1, java.util.List.of()))),
                java.util.List.of(new io.cubed.runtime.Callback() {
                    @Override
                    public void onTaskEnd(TaskEnd event) {
                        ended.add(event.result().taskIndex());
                    }
                }));
        assertThat(ended).hasSize(100).doesNotHaveDuplicates();
    }

    /** Tasks of {@link #aFailedStageReportsOnlyOnceItsOtherSparkTasksHaveStopped} running now, and started. */
    private static final java.util.concurrent.atomic.AtomicInteger RUNNING =
            new java.util.concurrent.atomic.AtomicInteger();

    private static final java.util.concurrent.atomic.AtomicInteger STARTED =
            new java.util.concurrent.atomic.AtomicInteger();

    @Test
    void aFailedStageReportsOnlyOnceItsOtherSparkTasksHaveStopped() throws InterruptedException {
        // 64 tasks, 16 per Spark task, on 2 slots: task 0 fails (3 attempts), while the Spark task of tasks 16..31
        // runs on the other slot, 30 ms per task. When execute() throws, none may still be running, and none may
        // start afterwards: a cancelled Spark task stops before its next Cubed task.
        RUNNING.set(0);
        STARTED.set(0);
        Stage stage = new Stage(
                "op-001",
                "slow",
                64,
                i -> {
                    if (i == 0) {
                        throw new IllegalStateException("task 0 fails");
                    }
                    RUNNING.incrementAndGet();
                    STARTED.incrementAndGet();
                    try {
                        Thread.sleep(30);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    } finally {
                        RUNNING.decrementAndGet();
                    }
                    return io.cubed.runtime.TaskIo.NONE;
                },
                1,
                List.of());
        SparkExecutor executor = SparkExecutor.builder(jsc)
                .tasksPerPartition(16)
                .memoryCheck(false)
                .driverStageBytes(0)
                .build();
        assertThatThrownBy(() -> executor.execute(new ExecutionPlan("cancel", List.of(stage)), List.of()))
                .hasMessageContaining("task 0 fails");
        assertThat(RUNNING.get())
                .as("tasks still running when the failure was reported")
                .isZero();
        int started = STARTED.get();
        assertThat(started).as("the other tasks did not all run").isLessThan(63);
        Thread.sleep(300);
        assertThat(STARTED.get())
                .as("tasks started after the failure was reported")
                .isEqualTo(started);
    }

    @Test
    void theDriverReleasesEachTaskOnceAfterItsSparkTaskHasSucceeded() throws Exception {
        // 12 tasks of 150 ms, one per Spark task, on 2 slots; task 3 fails its first attempt and Spark runs it again.
        Path runs = dir("runs");
        Path released = dir("released");
        Stage stage = new Stage(
                "op-001",
                "released",
                12,
                new ReleaseRecordingTask(
                        new FileRecordingTask(runs.toString(), 3, 1, null, 0, 150), released.toString()),
                1,
                List.of());
        SparkExecutor executor = SparkExecutor.builder(jsc)
                .tasksPerPartition(1)
                .memoryCheck(false)
                .driverStageBytes(0)
                .build();
        assertThat(executor.releasesInputChunks())
                .as("spark.speculation is off")
                .isTrue();
        executor.execute(new ExecutionPlan("release", List.of(stage)), List.of());
        assertThat(FileRecordingTask.attempts(runs)).containsEntry(3L, 2);
        List<String> files;
        try (java.util.stream.Stream<Path> s = Files.list(released)) {
            files = s.map(p -> p.getFileName().toString()).toList();
        }
        assertThat(files).as("released twice").noneMatch(f -> f.endsWith("-again"));
        // Releases not started when the stage ends are dropped (the intermediates go with the operation): at most the
        // last Spark task of each slot can miss its release; the others had 150 ms.
        assertThat(files).hasSizeBetween(10, 12);
        for (String f : files) {
            long i = Long.parseLong(f);
            String[] line = Files.readString(released.resolve(f)).split(" ", 2);
            assertThat(Long.parseLong(line[0]))
                    .as("release of task %d after its successful attempt ended", i)
                    .isGreaterThanOrEqualTo(FileRecordingTask.interval(runs, i)[1]);
            assertThat(line[1]).as("the thread releasing task %d", i).startsWith("cubed-release-op-001");
        }
    }

    @Test
    void tinyStagesRunOnTheDriverWithoutASparkJobAndLargerOnesAsJobs() {
        Path small = dir("small");
        Path many = dir("many");
        Path big = dir("big");
        // 16 MB by default: 4 tasks of 1 MB, yes; 17 tasks (more than one grouped Spark task), no; 4 x 8 MB, no.
        Stage s1 = new Stage("op-001", "small", 4, FileRecordingTask.recording(small), 101L << 20, 1L << 20, List.of());
        Stage s2 = new Stage("op-002", "many", 17, FileRecordingTask.recording(many), 1, 1, List.of("op-001"));
        Stage s3 = new Stage("op-003", "big", 4, FileRecordingTask.recording(big), 108L << 20, 8L << 20, List.of());
        SparkExecutor executor = SparkExecutor.builder(jsc).memoryCheck(false).build();
        assertThat(executor.runsOnDriver(s1)).isTrue();
        assertThat(executor.runsOnDriver(s2)).isFalse();
        assertThat(executor.runsOnDriver(s3)).isFalse();
        Recorder rec = new Recorder();
        executor.execute(new ExecutionPlan("driver", List.of(s1, s2, s3)), List.of(rec));
        SparkTestContext.drainListeners();
        assertThat(FileRecordingTask.attempts(small)).hasSize(4).allSatisfy((k, v) -> assertThat(v)
                .isEqualTo(1));
        assertThat(FileRecordingTask.attempts(many)).hasSize(17);
        assertThat(FileRecordingTask.attempts(big)).hasSize(4);
        assertThat(rec.results).hasSize(4 + 17 + 4);
        assertThat(rec.events).contains("op-end op-001");
        assertThat(jobs.jobsOf("driver"))
                .extracting(SparkJobRecorder.Job::group)
                .containsExactlyInAnyOrder("cubed-driver-op-002", "cubed-driver-op-003");
        assertThat(SparkExecutor.builder(jsc).driverStageBytes(0).build().runsOnDriver(s1))
                .isFalse();
    }

    @Test
    void theDriverStageLimitComesFromTheSparkConf() {
        Stage s = new Stage("op-001", "s", 2, i -> io.cubed.runtime.TaskIo.NONE, 5_000_000, 4_000_000, List.of());
        org.apache.spark.SparkConf conf = jsc.sc().conf();
        try {
            conf.set(SparkExecutor.DRIVER_STAGE_BYTES_CONF, "0");
            assertThat(SparkExecutor.create(jsc).runsOnDriver(s)).isFalse();
            conf.set(SparkExecutor.DRIVER_STAGE_BYTES_CONF, "8MB");
            assertThat(SparkExecutor.create(jsc).runsOnDriver(s)).isTrue();
            conf.set(SparkExecutor.DRIVER_STAGE_BYTES_CONF, "7MB");
            assertThat(SparkExecutor.create(jsc).runsOnDriver(s)).isFalse();
            conf.set(SparkExecutor.DRIVER_STAGE_BYTES_CONF, "lots");
            assertThatThrownBy(() -> SparkExecutor.create(jsc))
                    .hasMessageContaining("spark.cubed.driverStageBytes")
                    .hasMessageContaining("'lots'");
        } finally {
            conf.remove(SparkExecutor.DRIVER_STAGE_BYTES_CONF);
        }
        assertThatThrownBy(() -> SparkExecutor.builder(jsc).driverStageBytes(-1))
                .hasMessageContaining("driverStageBytes must be 0 or more, got -1");
    }

    @Test
    void independentStagesRunAsConcurrentJobsAndADependentOneAfterBoth() throws Exception {
        Path d = dir("meet");
        Path c = dir("c");
        Stage a = new Stage("op-001", "a", 1, new RendezvousTask(d.toString(), "a", "b", 20_000), 1, List.of());
        Stage b = new Stage("op-002", "b", 1, new RendezvousTask(d.toString(), "b", "a", 20_000), 1, List.of());
        Stage after = new Stage("op-003", "after", 2, FileRecordingTask.recording(c), 1, List.of("op-001", "op-002"));
        Recorder rec = new Recorder();
        executor().execute(new ExecutionPlan("conc", List.of(a, b, after)), List.of(rec));
        long[] ia = RendezvousTask.interval(d, "a");
        long[] ib = RendezvousTask.interval(d, "b");
        assertThat(Math.max(ia[0], ib[0]))
                .as("a %s and b %s overlap", ia, ib)
                .isLessThanOrEqualTo(Math.min(ia[1], ib[1]));
        for (long i = 0; i < 2; i++) {
            assertThat(FileRecordingTask.interval(c, i)[0]).isGreaterThanOrEqualTo(Math.max(ia[1], ib[1]));
        }
        assertThat(rec.events.indexOf("op-start op-003"))
                .isGreaterThan(rec.events.indexOf("op-end op-001"))
                .isGreaterThan(rec.events.indexOf("op-end op-002"));
    }

    @Test
    void taskEndArrivesWhileTheStageStillRunsWithTheSparkTasksFigures() throws Exception {
        // Task 1 waits (on the other task thread of local[2,3]) until the driver has seen task 0's TaskEnd.
        Path d = dir("live");
        Stage s = new Stage(
                "op-001", "live", 2, new AwaitFileTask(d.toString(), "task-0-reported", 20_000), 1, List.of());
        List<Callback.TaskEnd> ends = new CopyOnWriteArrayList<>();
        Callback reporter = new Callback() {
            @Override
            public void onTaskEnd(TaskEnd event) {
                ends.add(event);
                if (event.result().taskIndex() == 0) {
                    try {
                        Files.createFile(d.resolve("task-0-reported"));
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                }
            }
        };
        executor().execute(new ExecutionPlan("live", List.of(s)), List.of(reporter));
        assertThat(ends).extracting(e -> e.result().taskIndex()).containsExactly(0L, 1L);
        for (Callback.TaskEnd e : ends) {
            TaskResult r = e.result();
            assertThat(r.stageId()).isEqualTo("op-001");
            assertThat(r.attempts()).isEqualTo(1);
            assertThat(r.endMillis()).isGreaterThanOrEqualTo(r.startMillis());
            assertThat(r.allocatedBytes())
                    .as("measured in the Spark task's thread")
                    .isNotNegative();
        }
        TaskResult waited = ends.get(1).result();
        assertThat(waited.allocatedBytes())
                .as("task 1 allocated while it polled")
                .isPositive();
        assertThat(waited.endMillis())
                .as("task 1 ended after task 0 was reported")
                .isGreaterThanOrEqualTo(ends.get(0).result().endMillis());
    }

    @Test
    void everyJobCarriesAGroupAndADescriptionNamingTheOperation() {
        Path a = dir("a");
        Stage s = new Stage(
                "op-007", "map_blocks (blockwise)", 4, FileRecordingTask.recording(a), 310_000_000L, List.of());
        // Skip the memory check: 310 MB per task is more than the test JVM gives its two task threads.
        SparkExecutor.builder(jsc).memoryCheck(false).build().execute(new ExecutionPlan("desc", List.of(s)), List.of());
        SparkTestContext.drainListeners();
        assertThat(jobs.jobsOf("desc")).singleElement().satisfies(j -> {
            assertThat(j.group()).isEqualTo("cubed-desc-op-007");
            assertThat(j.description()).isEqualTo("op-007 map_blocks (blockwise), 4 tasks, 310.0 MB per task");
        });
    }

    @Test
    void severalTasksPerPartitionRunEachTaskOnceInFewerSparkTasks() {
        Path a = dir("a");
        Stage s = new Stage("op-001", "packed", 10, FileRecordingTask.recording(a), 1, List.of());
        Recorder rec = new Recorder();
        SparkExecutor.builder(jsc)
                .tasksPerPartition(3)
                .driverStageBytes(0)
                .build()
                .execute(new ExecutionPlan("packed", List.of(s)), List.of(rec));
        SparkTestContext.drainListeners();
        assertThat(FileRecordingTask.attempts(a)).hasSize(10).allSatisfy((k, v) -> assertThat(v)
                .isEqualTo(1));
        assertThat(rec.results).hasSize(10);
        SparkJobRecorder.Job job = jobs.jobsOf("packed").get(0);
        assertThat(jobs.stages.get(job.stageIds().get(0)).numTasks())
                .as("ceil(10 / 3) Spark tasks")
                .isEqualTo(4);
    }

    @Test
    void aPlanNeedingMoreThanATaskGetsIsRefusedBeforeAnyJob() {
        Path a = dir("a");
        SparkMemoryCheck check = SparkMemoryCheck.of(jsc);
        long tooMuch = check.perTaskBytes() + 1;
        Stage s = new Stage("op-004", "big (blockwise)", 3, FileRecordingTask.recording(a), tooMuch, List.of());
        Recorder rec = new Recorder();
        assertThatThrownBy(() -> executor().execute(new ExecutionPlan("big", List.of(s)), List.of(rec)))
                .isInstanceOf(MemoryBudgetExceededException.class)
                .hasMessageContaining("op-004 big (blockwise) needs")
                .hasMessageContaining("spark.memory.fraction")
                .hasMessageContaining("2 concurrent tasks");
        SparkTestContext.drainListeners();
        assertThat(jobs.jobs).isEmpty();
        assertThat(rec.events).isEmpty();
        assertThat(FileRecordingTask.attempts(a)).isEmpty();
    }

    @Test
    void sequentialModeRunsStagesOneAtATime() {
        Path a = dir("a");
        Path b = dir("b");
        Stage sa = new Stage("op-001", "a", 3, FileRecordingTask.recording(a), 1, List.of());
        Stage sb = new Stage("op-002", "b", 3, FileRecordingTask.recording(b), 1, List.of());
        SparkExecutor.builder(jsc)
                .concurrentStages(false)
                .driverStageBytes(0)
                .build()
                .execute(new ExecutionPlan("seq", List.of(sa, sb)), List.of());
        long aEnd = 0;
        for (long i = 0; i < 3; i++) {
            aEnd = Math.max(aEnd, FileRecordingTask.interval(a, i)[1]);
        }
        for (long i = 0; i < 3; i++) {
            assertThat(FileRecordingTask.interval(b, i)[0]).isGreaterThanOrEqualTo(aEnd);
        }
    }

    @Test
    void storeOptionsComeFromTheSessionsHadoopConfiguration() {
        jsc.hadoopConfiguration().set("fs.s3a.endpoint", "http://127.0.0.1:9000");
        try {
            StoreOptions o = SparkExecutor.create(jsc).storeOptions();
            assertThat(o.get("fs.s3a.endpoint")).isEqualTo("http://127.0.0.1:9000");
            assertThat(o.get("fs.cubed-test.marker")).isEqualTo("from-spark-conf");
            assertThat(o.get("fs.defaultFS")).as("defaults are left out").isNull();
            assertThat(o.asMap().keySet()).allSatisfy(k -> assertThat(k).startsWith("fs."));
        } finally {
            jsc.hadoopConfiguration().unset("fs.s3a.endpoint");
        }
    }
}
