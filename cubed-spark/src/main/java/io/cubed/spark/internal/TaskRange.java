package io.cubed.spark.internal;

import io.cubed.error.InvalidArgumentException;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

/**
 * The task indexes {@code [start, end)} of one stage that one Spark partition runs: 16 bytes instead of one boxed
 * {@code Long} per task. Immutable.
 */
public final class TaskRange implements Serializable {
    private static final long serialVersionUID = 1L;

    private final long start;
    private final long end;

    public TaskRange(long start, long end) {
        if (start < 0 || end < start) {
            throw new InvalidArgumentException("task range [" + start + ", " + end + ") is not a valid range");
        }
        this.start = start;
        this.end = end;
    }

    /** {@code [0, numTasks)} cut into consecutive ranges of {@code tasksPerRange} tasks (the last may be shorter). */
    public static List<TaskRange> split(long numTasks, int tasksPerRange) {
        if (tasksPerRange < 1) {
            throw new InvalidArgumentException("tasks per partition must be at least 1, got " + tasksPerRange);
        }
        long n = (numTasks + tasksPerRange - 1) / tasksPerRange;
        if (n > Integer.MAX_VALUE - 8) {
            throw new InvalidArgumentException(numTasks + " tasks in ranges of " + tasksPerRange
                    + " make more Spark partitions than Spark allows; use more tasks per partition");
        }
        List<TaskRange> ranges = new ArrayList<>((int) n);
        for (long s = 0; s < numTasks; s += tasksPerRange) {
            ranges.add(new TaskRange(s, Math.min(numTasks, s + tasksPerRange)));
        }
        return ranges;
    }

    /** First task index. */
    public long start() {
        return start;
    }

    /** One past the last task index. */
    public long end() {
        return end;
    }

    public long size() {
        return end - start;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TaskRange && ((TaskRange) o).start == start && ((TaskRange) o).end == end;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(start) * 31 + Long.hashCode(end);
    }

    @Override
    public String toString() {
        return "[" + start + ", " + end + ")";
    }
}
