package io.cubed.spark;

import io.cubed.error.CubedException;
import io.cubed.error.InvalidArgumentException;
import io.cubed.memory.MemorySize;
import io.cubed.plan.Spec;
import io.cubed.runtime.Callback;
import io.cubed.runtime.ExecutionPlan;
import io.cubed.runtime.Executor;
import io.cubed.runtime.Stage;
import io.cubed.runtime.TaskResult;
import io.cubed.spark.internal.PartitionResults;
import io.cubed.spark.internal.SparkFailures;
import io.cubed.spark.internal.StagePartitionFunction;
import io.cubed.spark.internal.StageRDD;
import io.cubed.spark.internal.TaskRange;
import io.cubed.storage.StoreOptions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.spark.SparkJobInfo;
import org.apache.spark.SparkStageInfo;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.api.java.JavaSparkStatusTracker;
import org.apache.spark.sql.SparkSession;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import scala.runtime.AbstractFunction2;
import scala.runtime.BoxedUnit;

/**
 * Runs Cubed plans on Spark. Every stage is one Spark job over an RDD of task ranges ({@link StageRDD}: what {@code
 * parallelize(task ranges).mapPartitions(task)} would do, without closures for Spark to clean on every job) and a
 * collect of the results: each Spark task runs a range of task indexes with the stage's serializable task function
 * and sends back only small {@link TaskResult}s, reported to the callbacks as each Spark task finishes. No shuffle, no broadcast of data; tasks read and write Zarr chunks themselves.
 *
 * <p>Stages with no dependency path between them run as concurrent Spark jobs (submitted from a small driver-side
 * pool); a stage starts when the stages it depends on have finished. Every job carries a job group and a description
 * such as {@code op-007 map_blocks (blockwise), 400 tasks, 310.0 MB per task}. Spark retries failed tasks ({@code
 * spark.task.maxFailures}, or {@code local[N,F]}); a stage that still fails ends the computation with a {@link
 * io.cubed.error.TaskFailedException} naming the stage and the root cause, and the other running jobs are cancelled.
 * Before the first job, {@link SparkMemoryCheck} makes sure every concurrent task gets the plan's largest projected
 * memory. Thread-safe; one executor may serve many computations.
 *
 * <p>Tiny stages run on the driver, in the thread that would have submitted their job: a stage whose tasks together
 * hold at most {@code spark.cubed.driverStageBytes} (tasks × projected memory without the reserve; 16 MB by default,
 * 0 turns it off), such as the later rounds of a reduction, whose partial results are kilobytes. A Spark job costs tens
 * of milliseconds to schedule, more than such a stage's work; the driver reads and writes the same Zarr chunks an
 * executor would, and retries a failed task as Spark would ({@code spark.task.maxFailures}).
 */
public final class SparkExecutor implements Executor {
    private static final Logger LOG = LoggerFactory.getLogger(SparkExecutor.class);

    /** The Spark conf entry for {@link Builder#tasksPerPartition}: {@code auto} (default) or a number. */
    public static final String TASKS_PER_PARTITION_CONF = io.cubed.SpecConfig.SPARK_TASKS_PER_PARTITION;

    /** The Spark conf entry for {@link Builder#driverStageBytes}: a memory size such as {@code 16MB}, 0 for none. */
    public static final String DRIVER_STAGE_BYTES_CONF = io.cubed.SpecConfig.SPARK_DRIVER_STAGE_BYTES;

    /** The default of {@link Builder#driverStageBytes}. */
    static final long DEFAULT_DRIVER_STAGE_BYTES = 16_000_000L;

    private final JavaSparkContext jsc;
    private final int tasksPerPartition;
    private final boolean concurrentStages;
    private final int maxConcurrentJobs;
    private final boolean memoryCheck;
    private final long driverStageBytes;
    private final AtomicInteger threadNumber = new AtomicInteger();

    private SparkExecutor(Builder b) {
        this.jsc = b.jsc;
        this.tasksPerPartition = b.tasksPerPartition;
        this.concurrentStages = b.concurrentStages;
        this.maxConcurrentJobs = b.maxConcurrentJobs;
        this.memoryCheck = b.memoryCheck;
        this.driverStageBytes = b.driverStageBytes;
    }

    /** An executor with the default options on {@code session}'s Spark context. */
    public static SparkExecutor create(SparkSession session) {
        return builder(session).build();
    }

    /** An executor with the default options on {@code jsc}. */
    public static SparkExecutor create(JavaSparkContext jsc) {
        return builder(jsc).build();
    }

    public static Builder builder(SparkSession session) {
        return new Builder(JavaSparkContext.fromSparkContext(session.sparkContext()));
    }

    public static Builder builder(JavaSparkContext jsc) {
        return new Builder(jsc);
    }

    public JavaSparkContext sparkContext() {
        return jsc;
    }

    /**
     * Store options built from the Spark session's Hadoop configuration (see {@link SparkStoreOptions#from}), so that
     * s3a credentials and endpoints set with {@code spark.hadoop.*} or {@code sc.hadoopConfiguration()} reach tasks.
     */
    public StoreOptions storeOptions() {
        return SparkStoreOptions.from(jsc);
    }

    /** A {@link Spec} builder with this executor and {@link #storeOptions()} set; add work directory and memory. */
    public Spec.Builder specBuilder() {
        return Spec.builder().executor(this).storeOptions(storeOptions());
    }

    /** The memory check for this context's configuration. */
    public SparkMemoryCheck memoryCheck() {
        return SparkMemoryCheck.of(jsc);
    }

    /**
     * The application's task slots, {@code defaultParallelism} (the executors' cores, or N of {@code local[N]}); 1 when
     * the context is stopped.
     */
    @Override
    public int parallelism() {
        try {
            return Math.max(1, jsc.defaultParallelism());
        } catch (IllegalStateException e) {
            return 1;
        }
    }

    @Override
    public String name() {
        return "spark(" + jsc.master() + ")";
    }

    @Override
    public void execute(ExecutionPlan plan, List<Callback> callbacks) {
        String computeId = plan.computeId();
        if (memoryCheck) {
            Stage largest = null;
            for (Stage s : plan.stages()) {
                if (s.numTasks() > 0 && (largest == null || s.projectedMemBytes() > largest.projectedMemBytes())) {
                    largest = s;
                }
            }
            if (largest != null) {
                memoryCheck().check(largest.projectedMemBytes(), largest.id() + " " + largest.description());
            }
        }
        callbacks.forEach(c -> c.onComputeStart(new Callback.ComputeStart(computeId, plan.stages())));
        ExecutorService pool = Executors.newFixedThreadPool(concurrentStages ? maxConcurrentJobs : 1, r -> {
            Thread t = new Thread(r, "cubed-spark-jobs-" + threadNumber.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        Throwable failure = null;
        try {
            if (concurrentStages && maxConcurrentJobs > 1) {
                runConcurrently(pool, plan, callbacks);
            } else {
                for (Stage stage : plan.stages()) {
                    awaitOnPool(pool, stage, () -> runStage(computeId, stage, callbacks));
                }
            }
        } catch (RuntimeException | Error e) {
            failure = e;
            throw e;
        } finally {
            pool.shutdownNow();
            // The arrays kept for next tasks in this JVM (the tasks' own in local mode, and those of stages run on the
            // driver): the computation is over. Executors elsewhere drop theirs after a while without tasks.
            io.cubed.chunk.ArrayRecycler.releaseIdle();
            Throwable f = failure;
            callbacks.forEach(c -> c.onComputeEnd(new Callback.ComputeEnd(computeId, f)));
        }
    }

    /** Runs {@code body} on a pool thread (so job-group settings never stick to the caller's thread) and waits. */
    private static void awaitOnPool(ExecutorService pool, Stage stage, Runnable body) {
        try {
            pool.submit(body).get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CubedException(stage.id() + " " + stage.description() + " was interrupted", e);
        } catch (ExecutionException e) {
            throw rethrowable(e.getCause());
        }
    }

    private static RuntimeException rethrowable(Throwable t) {
        if (t instanceof RuntimeException) {
            return (RuntimeException) t;
        }
        if (t instanceof Error) {
            throw (Error) t;
        }
        return new CubedException(String.valueOf(t), t);
    }

    /** Starts each stage when its dependencies are done; stops starting new stages after the first failure. */
    private void runConcurrently(ExecutorService pool, ExecutionPlan plan, List<Callback> callbacks) {
        String computeId = plan.computeId();
        Map<String, CompletableFuture<Void>> done = new HashMap<>();
        AtomicReference<Throwable> firstFailure = new AtomicReference<>();
        Set<String> runningGroups = ConcurrentHashMap.newKeySet();
        List<CompletableFuture<Void>> all = new ArrayList<>();
        for (Stage stage : plan.stages()) {
            CompletableFuture<?>[] deps =
                    stage.dependsOn().stream().map(done::get).toArray(CompletableFuture<?>[]::new);
            CompletableFuture<Void> f = CompletableFuture.allOf(deps)
                    .thenRunAsync(
                            () -> {
                                if (firstFailure.get() != null) {
                                    return;
                                }
                                String group = jobGroup(computeId, stage);
                                runningGroups.add(group);
                                try {
                                    runStage(computeId, stage, callbacks);
                                } finally {
                                    runningGroups.remove(group);
                                }
                            },
                            pool)
                    .whenComplete((v, t) -> {
                        if (t != null && firstFailure.compareAndSet(null, unwrap(t))) {
                            for (String g : runningGroups) {
                                jsc.sc().cancelJobGroup(g);
                            }
                        }
                    });
            done.put(stage.id(), f);
            all.add(f);
        }
        for (CompletableFuture<Void> f : all) {
            try {
                f.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                for (String g : runningGroups) {
                    jsc.sc().cancelJobGroup(g);
                }
                throw new CubedException("computation " + computeId + " was interrupted", e);
            } catch (ExecutionException e) {
                // recorded in firstFailure
            }
        }
        if (firstFailure.get() != null) {
            throw rethrowable(firstFailure.get());
        }
    }

    private static Throwable unwrap(Throwable t) {
        while ((t instanceof CompletionException || t instanceof ExecutionException) && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }

    static String jobGroup(String computeId, Stage stage) {
        return "cubed-" + computeId + "-" + stage.id();
    }

    /** {@code op-007 map_blocks (blockwise), 400 tasks, 310.0 MB per task}. */
    static String jobDescription(Stage stage) {
        return stage.id() + " " + stage.description() + ", " + stage.numTasks() + " task"
                + (stage.numTasks() == 1 ? "" : "s") + ", " + MemorySize.format(stage.projectedMemBytes())
                + " per task";
    }

    /**
     * Runs one stage as one Spark job on the current (pool) thread and reports its events: {@code TaskEnd} as each
     * Spark task's results reach the driver (Spark's result handler, called once per partition even when speculation
     * ran a partition twice), {@code OperationEnd} when the job has finished.
     */
    private void runStage(String computeId, Stage stage, List<Callback> callbacks) {
        long start = System.currentTimeMillis();
        callbacks.forEach(c -> c.onOperationStart(new Callback.OperationStart(computeId, stage)));
        if (runsOnDriver(stage)) {
            runOnDriver(computeId, stage, callbacks);
        } else if (stage.numTasks() > 0) {
            List<TaskRange> ranges = partitions(stage);
            jsc.setJobGroup(jobGroup(computeId, stage), jobDescription(stage), false);
            ChunkReleases releases = ChunkReleases.of(stage, releasesInputChunks());
            try {
                StageRDD results = new StageRDD(
                        jsc.sc(), new StagePartitionFunction(stage.id(), stage.task(), stage.ioBytes()), ranges);
                jsc.sc()
                        .runJob(
                                results,
                                new PartitionResults(),
                                new TaskEndReporter(computeId, stage, callbacks, releases),
                                PartitionResults.CLASS_TAG);
            } catch (Exception e) {
                // SparkException is checked in Java's eyes but thrown by runJob() all the same. The job's tasks still
                // running (a failure reported by the result handler does not stop them) are cancelled, and the
                // failure is reported once they have stopped, so that nothing of this stage still writes when the
                // caller sees it (and, say, deletes or retries the output).
                jsc.cancelJobGroup(jobGroup(computeId, stage));
                awaitStopped(jobGroup(computeId, stage));
                throw SparkFailures.translate(stage, e, defaultMaxFailures());
            } finally {
                jsc.clearJobGroup();
                releases.close();
            }
        }
        long end = System.currentTimeMillis();
        callbacks.forEach(c -> c.onOperationEnd(new Callback.OperationEnd(computeId, stage, start, end)));
    }

    /**
     * Whether {@code stage} is tiny enough to run on the driver (see the class comment): at most {@value
     * #AUTO_MAX_TASKS_PER_PARTITION} tasks, as many as one grouped Spark task runs, holding at most {@code
     * driverStageBytes} together.
     */
    boolean runsOnDriver(Stage stage) {
        long n = stage.numTasks();
        if (n == 0 || n > AUTO_MAX_TASKS_PER_PARTITION || driverStageBytes <= 0) {
            return false;
        }
        return Math.max(1, stage.workingSetBytes()) <= driverStageBytes / n;
    }

    /**
     * Runs the tasks of {@code stage} one after the other in this thread, each tried as often as Spark would try it
     * ({@code spark.task.maxFailures}; chunk writes are idempotent), and reports each task's end as it ends.
     */
    private void runOnDriver(String computeId, Stage stage, List<Callback> callbacks) {
        TaskEndReporter reporter = new TaskEndReporter(computeId, stage, callbacks, ChunkReleases.NONE);
        if (stage.ioBytes() > 0 && stage.numTasks() > 1) {
            // The whole stage once with its store requests in flight together; should any task fail, every task
            // again one at a time with its retries (writes are idempotent, and a stage this small costs little).
            StagePartitionFunction pipelined = new StagePartitionFunction(stage.id(), stage.task(), stage.ioBytes());
            List<TaskResult> results = new ArrayList<>();
            boolean ran;
            try {
                pipelined
                        .call(List.of(new TaskRange(0, stage.numTasks())).iterator())
                        .forEachRemaining(results::add);
                ran = results.size() == stage.numTasks() && results.stream().noneMatch(TaskResult::failed);
            } catch (RuntimeException e) {
                ran = false;
            }
            if (ran) {
                reporter.apply(0, results.toArray(new TaskResult[0]));
                return;
            }
        }
        StagePartitionFunction body = new StagePartitionFunction(stage.id(), stage.task());
        int maxAttempts = Math.max(1, defaultMaxFailures());
        for (long i = 0; i < stage.numTasks(); i++) {
            for (int attempt = 1; ; attempt++) {
                TaskResult r;
                try {
                    r = body.run(i, attempt);
                } catch (RuntimeException e) {
                    if (attempt < maxAttempts) {
                        continue;
                    }
                    throw SparkFailures.translate(stage, e, attempt);
                }
                reporter.apply(0, new TaskResult[] {r});
                break;
            }
        }
    }

    /**
     * Whether the driver may {@linkplain io.cubed.runtime.TaskFunction#release release} a task's inputs once its Spark
     * task's result has arrived: Spark never runs a result task again after that (there is no shuffle output to lose),
     * so only a speculative copy still running could read them, and {@code spark.speculation} is off.
     */
    boolean releasesInputChunks() {
        return !jsc.getConf().getBoolean("spark.speculation", false);
    }

    /**
     * The releases of one stage's tasks, on a driver thread of their own: Spark's result handler runs in its scheduler's
     * event loop, which must not wait for storage. Releasing only frees early what the computation deletes anyway (the
     * reading operation's end removes the whole intermediate), so what has not started when the stage ends is dropped.
     */
    static final class ChunkReleases implements AutoCloseable {
        static final ChunkReleases NONE = new ChunkReleases(null, null);

        private final Stage stage;
        private final ExecutorService thread;

        private ChunkReleases(Stage stage, ExecutorService thread) {
            this.stage = stage;
            this.thread = thread;
        }

        static ChunkReleases of(Stage stage, boolean enabled) {
            if (!enabled) {
                return NONE;
            }
            return new ChunkReleases(stage, Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(r, "cubed-release-" + stage.id());
                t.setDaemon(true);
                return t;
            }));
        }

        /** Releases task {@code taskIndex}, which has succeeded and will not run again. */
        void release(long taskIndex) {
            if (thread == null) {
                return;
            }
            try {
                thread.execute(() -> stage.releaseTask(taskIndex));
            } catch (java.util.concurrent.RejectedExecutionException e) {
                // The stage has ended: its inputs go with the intermediates.
            }
        }

        /** Drops the releases not started and waits for the running one. */
        @Override
        public void close() {
            if (thread == null) {
                return;
            }
            thread.shutdownNow();
            try {
                thread.awaitTermination(1, java.util.concurrent.TimeUnit.MINUTES);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * Spark's result handler on the driver: one {@code TaskEnd} per task of a finished Spark task, and the release of
     * the tasks' inputs.
     */
    private static final class TaskEndReporter extends AbstractFunction2<Object, TaskResult[], BoxedUnit> {
        private final String computeId;
        private final Stage stage;
        private final List<Callback> callbacks;
        private final ChunkReleases releases;

        TaskEndReporter(String computeId, Stage stage, List<Callback> callbacks, ChunkReleases releases) {
            this.computeId = computeId;
            this.stage = stage;
            this.callbacks = callbacks;
            this.releases = releases;
        }

        /**
         * Reports the partition's tasks; a task that met corrupt data fails the job here, on the driver (Spark fails
         * the job when its result handler throws), instead of being retried on an executor.
         */
        @Override
        public BoxedUnit apply(Object partition, TaskResult[] results) {
            for (TaskResult r : results) {
                if (r.failed()) {
                    throw new io.cubed.error.TaskFailedException(
                            stage.id(),
                            stage.description(),
                            r.taskIndex(),
                            r.attempts(),
                            new io.cubed.error.CorruptDataException(r.failure()));
                }
                callbacks.forEach(c -> c.onTaskEnd(new Callback.TaskEnd(computeId, stage, r)));
                releases.release(r.taskIndex());
            }
            return BoxedUnit.UNIT;
        }
    }

    /**
     * The Spark partitions (Cubed task ranges) of a stage of {@code numTasks}. With a fixed number of Cubed tasks per
     * Spark task: as few ranges as hold at most that many, of even sizes. Auto: ranges of decreasing size over the
     * application's task slots ({@code defaultParallelism}), at most {@value #AUTO_MAX_TASKS_PER_PARTITION} Cubed tasks
     * and down to single tasks at the end ({@link TaskRange#guided}). A Spark task costs a few milliseconds to schedule,
     * deserialize, account and report, as much as a small chunk's work, so the large first ranges keep that cost low
     * for stages of many small tasks; tasks of one stage take unevenly long (Spark tasks of two rechunk tasks each took
     * 0.3 s and, in the same stage, 1.1–1.5 s on {@code local[2]}), so the small last ranges let the slots finish
     * together instead of one running a last, long range while the others wait.
     */
    List<TaskRange> partitions(long numTasks) {
        return partitions(numTasks, AUTO_MAX_TASKS_PER_PARTITION);
    }

    /**
     * The Spark partitions of {@code stage}: as {@link #partitions(long)}, but where the driver releases the stage's
     * tasks (their input chunks deleted as they end, {@link #releasesInputChunks}), a Spark task holds back at most
     * about {@value #RELEASE_LAG_BYTES} bytes of working set (at least one Cubed task): its tasks' inputs are released
     * only once the whole Spark task has ended, and an intermediate that leaves the disk later than it could stays
     * longer in the page cache as dirty pages, which the kernel starts writing to disk once they pass its background
     * threshold. The bench's W3 rechunk (16 tasks of 184 MB) on {@code local[2]}: with releases off, 4.0–5.2 s a round
     * against 2.2–3.4 s with them; with one Cubed task per Spark task in its second stage instead of 4, 3, 3, 2, 1, 1,
     * 1, 1, medians 2.69 → 2.46 s (bench suite, 3 runs alternated).
     */
    List<TaskRange> partitions(Stage stage) {
        int max = AUTO_MAX_TASKS_PER_PARTITION;
        if (stage.releasesInputs() && releasesInputChunks()) {
            long perTask = Math.max(1, stage.workingSetBytes());
            max = (int) Math.max(1, Math.min(max, RELEASE_LAG_BYTES / perTask));
        }
        return partitions(stage.numTasks(), max);
    }

    /** The most working set, in bytes, a Spark task of a releasing stage holds back from release: 64 MB. */
    static final long RELEASE_LAG_BYTES = 64L << 20;

    private List<TaskRange> partitions(long numTasks, int autoMax) {
        if (tasksPerPartition > 0) {
            return TaskRange.split(numTasks, tasksPerPartition);
        }
        int slots = Math.max(1, jsc.defaultParallelism());
        try {
            return TaskRange.guided(numTasks, slots, autoMax);
        } catch (InvalidArgumentException e) {
            throw new InvalidArgumentException(numTasks + " tasks make more Spark partitions than Spark allows; set "
                    + TASKS_PER_PARTITION_CONF + " to a larger number");
        }
    }

    /**
     * Waits until no task of the jobs of {@code group} is running (after their cancellation: a cancelled Spark task
     * stops before its next Cubed task), at most {@value #CANCEL_WAIT_MS} ms, after which a still-running task is logged
     * and left to Spark.
     */
    void awaitStopped(String group) {
        JavaSparkStatusTracker tracker = jsc.statusTracker();
        long deadline = System.currentTimeMillis() + CANCEL_WAIT_MS;
        while (true) {
            int active = 0;
            for (int jobId : tracker.getJobIdsForGroup(group)) {
                SparkJobInfo job = tracker.getJobInfo(jobId);
                if (job == null) {
                    continue;
                }
                for (int stageId : job.stageIds()) {
                    SparkStageInfo info = tracker.getStageInfo(stageId);
                    active += info == null ? 0 : Math.max(0, info.numActiveTasks());
                }
            }
            if (active == 0) {
                return;
            }
            if (System.currentTimeMillis() > deadline) {
                LOG.warn(
                        "{} Spark task(s) of cancelled job group {} still running after {} ms",
                        active,
                        group,
                        CANCEL_WAIT_MS);
                return;
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** How long a failed stage waits for its cancelled Spark tasks to stop before reporting. */
    static final long CANCEL_WAIT_MS = 120_000;

    /** The most Cubed tasks automatic grouping puts in one Spark task. */
    static final int AUTO_MAX_TASKS_PER_PARTITION = 16;

    /** Attempts per task: F of {@code local[N,F]} (1 for other local masters), else {@code spark.task.maxFailures}. */
    int defaultMaxFailures() {
        String master = jsc.master();
        if (master.startsWith("local[") && master.contains(",") && !master.startsWith("local-cluster")) {
            return Integer.parseInt(master.substring(master.indexOf(',') + 1, master.indexOf(']'))
                    .trim());
        }
        if (master.startsWith("local")) {
            return master.startsWith("local-cluster") ? jsc.getConf().getInt("spark.task.maxFailures", 4) : 1;
        }
        return jsc.getConf().getInt("spark.task.maxFailures", 4);
    }

    @Override
    public String toString() {
        return "SparkExecutor{" + jsc.master() + ", tasksPerPartition="
                + (tasksPerPartition > 0 ? String.valueOf(tasksPerPartition) : "auto") + ", concurrentStages="
                + concurrentStages + ", maxConcurrentJobs=" + maxConcurrentJobs + "}";
    }

    /** Options of {@link SparkExecutor}. */
    public static final class Builder {
        private final JavaSparkContext jsc;
        private int tasksPerPartition;
        private boolean concurrentStages = true;
        private int maxConcurrentJobs = 4;
        private boolean memoryCheck = true;
        private long driverStageBytes;

        private Builder(JavaSparkContext jsc) {
            this.jsc = Objects.requireNonNull(jsc, "jsc");
            this.tasksPerPartition = autoFromConf();
            this.driverStageBytes = driverStageBytesFromConf();
        }

        /**
         * Stages whose tasks together hold at most {@code bytes} (tasks × projected memory without the reserve) run
         * on the driver instead of as a Spark job; 0 runs every stage as a job. Default: {@code
         * spark.cubed.driverStageBytes}, else 16 MB.
         */
        public Builder driverStageBytes(long bytes) {
            if (bytes < 0) {
                throw new InvalidArgumentException("driverStageBytes must be 0 or more, got " + bytes);
            }
            this.driverStageBytes = bytes;
            return this;
        }

        private long driverStageBytesFromConf() {
            String v = jsc.getConf().get(DRIVER_STAGE_BYTES_CONF, null);
            if (v == null) {
                return DEFAULT_DRIVER_STAGE_BYTES;
            }
            try {
                return MemorySize.parse(v.trim()).bytes();
            } catch (RuntimeException e) {
                throw new InvalidArgumentException(DRIVER_STAGE_BYTES_CONF
                        + " must be a memory size such as 16MB, or 0 to run every stage as a Spark job, got '" + v
                        + "'");
            }
        }

        /**
         * Cubed tasks per Spark task: 1 makes Spark retry and speculate single chunks; larger values cut scheduling
         * overhead for stages of many small tasks. The default is {@link #autoTasksPerPartition()}, unless the Spark
         * conf sets {@code spark.cubed.tasksPerPartition} to a number.
         */
        public Builder tasksPerPartition(int n) {
            if (n < 1) {
                throw new InvalidArgumentException("tasksPerPartition must be at least 1, got " + n);
            }
            this.tasksPerPartition = n;
            return this;
        }

        /**
         * Groups tasks per stage (the default): Spark tasks of decreasing size over the task slots ({@code
         * defaultParallelism}), at most 16 Cubed tasks in one and single tasks at the end ({@link TaskRange#guided}).
         */
        public Builder autoTasksPerPartition() {
            this.tasksPerPartition = 0;
            return this;
        }

        /** {@code spark.cubed.tasksPerPartition}: {@code auto} (or unset) gives 0 (auto), else a positive number. */
        private int autoFromConf() {
            String v = jsc.getConf().get(TASKS_PER_PARTITION_CONF, "auto").trim();
            if (v.equalsIgnoreCase("auto")) {
                return 0;
            }
            try {
                int n = Integer.parseInt(v);
                if (n >= 1) {
                    return n;
                }
            } catch (NumberFormatException e) {
                // reported below
            }
            throw new InvalidArgumentException(
                    TASKS_PER_PARTITION_CONF + " must be auto or a whole number of at least 1, got '" + v + "'");
        }

        /** Whether stages with no dependency path between them run as concurrent Spark jobs (default true). */
        public Builder concurrentStages(boolean concurrent) {
            this.concurrentStages = concurrent;
            return this;
        }

        /** At most this many Spark jobs of one computation run at the same time (default 4). */
        public Builder maxConcurrentJobs(int n) {
            if (n < 1) {
                throw new InvalidArgumentException("maxConcurrentJobs must be at least 1, got " + n);
            }
            this.maxConcurrentJobs = n;
            return this;
        }

        /** Whether to run {@link SparkMemoryCheck} before the first job of each computation (default true). */
        public Builder memoryCheck(boolean check) {
            this.memoryCheck = check;
            return this;
        }

        public SparkExecutor build() {
            return new SparkExecutor(this);
        }
    }
}
