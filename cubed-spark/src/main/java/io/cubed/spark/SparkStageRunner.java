package io.cubed.spark;

import io.cubed.memory.MemorySize;
import io.cubed.runtime.Callback;
import io.cubed.runtime.Stage;
import io.cubed.runtime.TaskResult;
import io.cubed.spark.internal.PartitionResults;
import io.cubed.spark.internal.SparkFailures;
import io.cubed.spark.internal.StagePartitionFunction;
import io.cubed.spark.internal.StageRDD;
import io.cubed.spark.internal.TaskRange;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.SparkJobInfo;
import org.apache.spark.SparkStageInfo;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.api.java.JavaSparkStatusTracker;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one stage of a plan for {@link SparkExecutor}: as a Spark job over its task ranges, or, when it is tiny, on the
 * driver; reports its events to the callbacks, and on failure cancels what still runs of its job before reporting.
 */
final class SparkStageRunner {
    // Logged under the executor's name, as before the executor's parts had files of their own.
    private static final Logger LOG = LoggerFactory.getLogger(SparkExecutor.class);

    /** How long a failed stage waits for its cancelled Spark tasks to stop before reporting. */
    static final long CANCEL_WAIT_MS = 120_000;

    private final JavaSparkContext jsc;
    private final StagePartitions partitions;
    private final long driverStageBytes;

    SparkStageRunner(JavaSparkContext jsc, StagePartitions partitions, long driverStageBytes) {
        this.jsc = jsc;
        this.partitions = partitions;
        this.driverStageBytes = driverStageBytes;
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
    void runStage(String computeId, Stage stage, List<Callback> callbacks) {
        long start = System.currentTimeMillis();
        callbacks.forEach(c -> c.onOperationStart(new Callback.OperationStart(computeId, stage)));
        if (runsOnDriver(stage)) {
            runOnDriver(computeId, stage, callbacks);
        } else if (stage.numTasks() > 0) {
            List<TaskRange> ranges = partitions.of(stage, releasesInputChunks());
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
     * Whether {@code stage} is tiny enough to run on the driver (see {@link SparkExecutor}): at most {@value
     * StagePartitions#AUTO_MAX_TASKS_PER_PARTITION} tasks, as many as one grouped Spark task runs, holding at most {@code
     * driverStageBytes} together.
     */
    boolean runsOnDriver(Stage stage) {
        long n = stage.numTasks();
        if (n == 0 || n > StagePartitions.AUTO_MAX_TASKS_PER_PARTITION || driverStageBytes <= 0) {
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
}
