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

    /**
     * {@code [0, numTasks)} cut into as few consecutive ranges as hold at most {@code tasksPerRange} tasks each, their
     * sizes differing by at most one: 10 tasks at most 4 per range give 4, 3, 3 rather than 4, 4, 2, so no range
     * finishes well after the others.
     */
    public static List<TaskRange> split(long numTasks, int tasksPerRange) {
        if (tasksPerRange < 1) {
            throw new InvalidArgumentException("tasks per partition must be at least 1, got " + tasksPerRange);
        }
        long n = (numTasks + tasksPerRange - 1) / tasksPerRange;
        if (n > Integer.MAX_VALUE - 8) {
            throw new InvalidArgumentException(numTasks + " tasks in ranges of " + tasksPerRange
                    + " make more Spark partitions than Spark allows; use more tasks per partition");
        }
        return n == 0 ? new ArrayList<>() : even(numTasks, (int) n);
    }

    /**
     * {@code [0, numTasks)} cut into {@code min(ranges, numTasks)} consecutive ranges whose sizes differ by at most one
     * (the longer ones first).
     */
    public static List<TaskRange> even(long numTasks, int ranges) {
        if (numTasks < 0) {
            throw new InvalidArgumentException("number of tasks must not be negative, got " + numTasks);
        }
        if (ranges < 1) {
            throw new InvalidArgumentException("number of partitions must be at least 1, got " + ranges);
        }
        int n = (int) Math.min(ranges, numTasks);
        List<TaskRange> out = new ArrayList<>(n);
        if (n == 0) {
            return out;
        }
        long base = numTasks / n;
        long longer = numTasks % n;
        long start = 0;
        for (int i = 0; i < n; i++) {
            long end = start + base + (i < longer ? 1 : 0);
            out.add(new TaskRange(start, end));
            start = end;
        }
        return out;
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
