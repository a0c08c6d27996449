package io.cubed.spark.internal;

import io.cubed.error.CorruptDataException;
import io.cubed.runtime.TaskFunction;
import io.cubed.runtime.TaskIo;
import io.cubed.runtime.TaskResult;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.function.FlatMapFunction;

/**
 * The body of every Spark task: runs each task index of the partition's {@link TaskRange}s with the stage's
 * {@link TaskFunction} and returns one small {@link TaskResult} per index (times, bytes moved, bytes the thread
 * allocated) — never array data. A failing index is rethrown as a {@link TaskIndexFailure} naming it; Spark then
 * retries the whole partition (chunk writes are idempotent).
 */
public final class StagePartitionFunction implements FlatMapFunction<Iterator<TaskRange>, TaskResult> {
    private static final long serialVersionUID = 1L;

    private final String stageId;
    private final TaskFunction task;

    public StagePartitionFunction(String stageId, TaskFunction task) {
        this.stageId = Objects.requireNonNull(stageId, "stageId");
        this.task = Objects.requireNonNull(task, "task");
    }

    public String stageId() {
        return stageId;
    }

    public TaskFunction task() {
        return task;
    }

    @Override
    public Iterator<TaskResult> call(Iterator<TaskRange> ranges) {
        TaskContext context = TaskContext.get();
        int attempt = context == null ? 1 : context.attemptNumber() + 1;
        List<TaskResult> results = new ArrayList<>();
        while (ranges.hasNext()) {
            TaskRange range = ranges.next();
            for (long i = range.start(); i < range.end(); i++) {
                if (context != null) {
                    // Cancelled (another task failed the stage, or the user cancelled): no further chunk is
                    // written. Spark does not interrupt the thread (interrupts break HDFS and S3 clients).
                    context.killTaskIfInterrupted();
                }
                TaskResult r = run(i, attempt);
                results.add(r);
                if (r.failed()) {
                    // Reported to the driver, which fails the stage: the partition's other tasks are not run.
                    return results.iterator();
                }
            }
        }
        return results.iterator();
    }

    /**
     * Runs task {@code index} once (attempt {@code attempt}), measuring it; a failure is a {@link TaskIndexFailure}
     * naming the index. Spark tasks call it for each index of their range; the driver calls it for stages too small
     * for a Spark job.
     */
    public TaskResult run(long index, int attempt) {
        long allocatedBefore = ThreadAllocation.currentThread();
        long start = System.currentTimeMillis();
        TaskIo io;
        try {
            io = task.run(index);
        } catch (RuntimeException e) {
            CorruptDataException corrupt = CorruptDataException.in(e);
            if (corrupt != null) {
                // Not thrown: Spark would retry the task, and the chunk would read as corrupt again.
                return TaskResult.corrupt(stageId, index, attempt, corrupt.getMessage());
            }
            throw new TaskIndexFailure(stageId, index, e);
        }
        long end = System.currentTimeMillis();
        long allocatedAfter = ThreadAllocation.currentThread();
        long allocated = allocatedBefore < 0 || allocatedAfter < 0 ? -1 : allocatedAfter - allocatedBefore;
        // -1: peak memory is not measured on Spark (a measured task must run alone in its JVM).
        return new TaskResult(stageId, index, attempt, start, end, io.bytesRead(), io.bytesWritten(), allocated, -1);
    }
}
