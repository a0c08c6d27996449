package io.cubed.spark;

import io.cubed.error.InvalidArgumentException;
import io.cubed.memory.MemorySize;
import io.cubed.plan.Spec;
import io.cubed.runtime.Callback;
import io.cubed.runtime.ExecutionPlan;
import io.cubed.runtime.Executor;
import io.cubed.runtime.Stage;
import io.cubed.spark.internal.TaskRange;
import io.cubed.storage.StoreOptions;
import java.util.List;
import java.util.Objects;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;

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
    private final StagePartitions partitions;
    private final SparkStageRunner runner;
    private final SparkStageScheduler scheduler;

    private SparkExecutor(Builder b) {
        this.jsc = b.jsc;
        this.tasksPerPartition = b.tasksPerPartition;
        this.concurrentStages = b.concurrentStages;
        this.maxConcurrentJobs = b.maxConcurrentJobs;
        this.memoryCheck = b.memoryCheck;
        this.partitions = new StagePartitions(jsc, tasksPerPartition);
        this.runner = new SparkStageRunner(jsc, partitions, b.driverStageBytes);
        this.scheduler = new SparkStageScheduler(jsc, runner, concurrentStages, maxConcurrentJobs);
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
        Throwable failure = null;
        try {
            scheduler.run(plan, callbacks);
        } catch (RuntimeException | Error e) {
            failure = e;
            throw e;
        } finally {
            // The arrays kept for next tasks in this JVM (the tasks' own in local mode, and those of stages run on the
            // driver): the computation is over. Executors elsewhere drop theirs after a while without tasks.
            io.cubed.chunk.ArrayRecycler.releaseIdle();
            Throwable f = failure;
            callbacks.forEach(c -> c.onComputeEnd(new Callback.ComputeEnd(computeId, f)));
        }
    }

    /** The Spark partitions of a stage of {@code numTasks}: see {@link StagePartitions#of(long)}. */
    List<TaskRange> partitions(long numTasks) {
        return partitions.of(numTasks);
    }

    /** The Spark partitions of {@code stage}: see {@link StagePartitions#of(Stage, boolean)}. */
    List<TaskRange> partitions(Stage stage) {
        return partitions.of(stage, releasesInputChunks());
    }

    /** Whether {@code stage} runs on the driver: see {@link SparkStageRunner#runsOnDriver}. */
    boolean runsOnDriver(Stage stage) {
        return runner.runsOnDriver(stage);
    }

    /** Whether the driver releases tasks' inputs: see {@link SparkStageRunner#releasesInputChunks}. */
    boolean releasesInputChunks() {
        return runner.releasesInputChunks();
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
