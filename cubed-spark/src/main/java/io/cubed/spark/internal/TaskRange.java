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
     * {@code [0, numTasks)} cut for {@code slots} task slots into consecutive ranges of decreasing size (guided
     * self-scheduling): each range takes {@code ceil(remaining / (2 × slots))} tasks, at most {@code maxPerRange} and at
     * least 1, so the stage starts with large ranges, which keep per-range costs low, and ends with single tasks,
     * which even out the slots at the end. Spark starts a stage's partitions in index order and gives each to the next
     * free slot, so however unevenly tasks take (a slow disk, a colder cache, a collection), a slot that finishes early
     * takes more of the small ranges, and the last one ends at most about one task after the others; the last
     * {@code min(numTasks, slots)} ranges or more are single tasks. 16 tasks on 2 slots: 4, 3, 3, 2, 1, 1, 1, 1 (rather
     * than eight ranges of 2, where a slow range leaves the other slot idle for two tasks' time).
     */
    public static List<TaskRange> guided(long numTasks, int slots, int maxPerRange) {
        if (numTasks < 0) {
            throw new InvalidArgumentException("number of tasks must not be negative, got " + numTasks);
        }
        if (slots < 1 || maxPerRange < 1) {
            throw new InvalidArgumentException(
                    "task slots and tasks per partition must be at least 1, got " + slots + " and " + maxPerRange);
        }
        long share = 2L * slots;
        // While more than share × maxPerRange tasks remain, every range is full: count those without a loop.
        long fullLimit = share * maxPerRange;
        long full = numTasks > fullLimit ? (numTasks - fullLimit + maxPerRange - 1) / maxPerRange : 0;
        long rest = numTasks - full * maxPerRange;
        long tail = 0;
        for (long r = rest; r > 0; tail++) {
            r -= guidedSize(r, share, maxPerRange);
        }
        if (full + tail > Integer.MAX_VALUE - 8) {
            throw new InvalidArgumentException(numTasks + " tasks make more Spark partitions than Spark allows; use"
                    + " more tasks per partition");
        }
        List<TaskRange> out = new ArrayList<>((int) (full + tail));
        long start = 0;
        for (long i = 0; i < full; i++) {
            out.add(new TaskRange(start, start + maxPerRange));
            start += maxPerRange;
        }
        while (start < numTasks) {
            long size = guidedSize(numTasks - start, share, maxPerRange);
            out.add(new TaskRange(start, start + size));
            start += size;
        }
        return out;
    }

    private static long guidedSize(long remaining, long share, int maxPerRange) {
        return Math.min(maxPerRange, Math.max(1, (remaining + share - 1) / share));
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
