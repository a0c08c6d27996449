package io.cubed.spark;

import io.cubed.error.InvalidArgumentException;
import io.cubed.runtime.Stage;
import io.cubed.spark.internal.TaskRange;
import java.util.List;
import org.apache.spark.api.java.JavaSparkContext;

/** How {@link SparkExecutor} splits a stage's Cubed tasks into Spark tasks: ranges of task indexes, one per partition. */
final class StagePartitions {
    /** The most Cubed tasks automatic grouping puts in one Spark task. */
    static final int AUTO_MAX_TASKS_PER_PARTITION = 16;

    /** The most working set, in bytes, a Spark task of a releasing stage holds back from release: 64 MB. */
    static final long RELEASE_LAG_BYTES = 64L << 20;

    private final JavaSparkContext jsc;
    private final int tasksPerPartition;

    /** Partitions on {@code jsc}'s task slots, {@code tasksPerPartition} Cubed tasks per Spark task (0: auto). */
    StagePartitions(JavaSparkContext jsc, int tasksPerPartition) {
        this.jsc = jsc;
        this.tasksPerPartition = tasksPerPartition;
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
    List<TaskRange> of(long numTasks) {
        return of(numTasks, AUTO_MAX_TASKS_PER_PARTITION);
    }

    /**
     * The Spark partitions of {@code stage}: as {@link #of(long)}, but where the driver releases the stage's
     * tasks ({@code releasesInputChunks}: their input chunks deleted as they end), a Spark task holds back at most
     * about {@value #RELEASE_LAG_BYTES} bytes of working set (at least one Cubed task): its tasks' inputs are released
     * only once the whole Spark task has ended, and an intermediate that leaves the disk later than it could stays
     * longer in the page cache as dirty pages, which the kernel starts writing to disk once they pass its background
     * threshold. The bench's W3 rechunk (16 tasks of 184 MB) on {@code local[2]}: with releases off, 4.0–5.2 s a round
     * against 2.2–3.4 s with them; with one Cubed task per Spark task in its second stage instead of 4, 3, 3, 2, 1, 1,
     * 1, 1, medians 2.69 → 2.46 s (bench suite, 3 runs alternated).
     */
    List<TaskRange> of(Stage stage, boolean releasesInputChunks) {
        int max = AUTO_MAX_TASKS_PER_PARTITION;
        if (stage.releasesInputs() && releasesInputChunks) {
            long perTask = Math.max(1, stage.workingSetBytes());
            max = (int) Math.max(1, Math.min(max, RELEASE_LAG_BYTES / perTask));
        }
        return of(stage.numTasks(), max);
    }

    private List<TaskRange> of(long numTasks, int autoMax) {
        if (tasksPerPartition > 0) {
            return TaskRange.split(numTasks, tasksPerPartition);
        }
        int slots = Math.max(1, jsc.defaultParallelism());
        try {
            return TaskRange.guided(numTasks, slots, autoMax);
        } catch (InvalidArgumentException e) {
            throw new InvalidArgumentException(numTasks + " tasks make more Spark partitions than Spark allows; set "
                    + SparkExecutor.TASKS_PER_PARTITION_CONF + " to a larger number");
        }
    }
}
