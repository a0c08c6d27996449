package io.cubed.primitive;

import io.cubed.error.InvalidArgumentException;
import java.util.Arrays;

/**
 * The output chunks one task of a blockwise operation computes: a box of chunk coordinates starting at {@link
 * #first()} with {@link #counts()} chunks per axis, clipped at the grid's edge. Tasks tile the output grid in boxes of
 * {@code chunksPerTask} chunks per axis, numbered in C order. Immutable.
 */
public final class TaskRegion {
    private final long[] first;
    private final int[] counts;
    private final long numChunks;

    private TaskRegion(long[] first, int[] counts) {
        this.first = first;
        this.counts = counts;
        long n = 1;
        for (int c : counts) {
            n *= c;
        }
        this.numChunks = n;
    }

    /** The single output chunk at {@code coords}. */
    public static TaskRegion ofChunk(long[] coords) {
        int[] ones = new int[coords.length];
        Arrays.fill(ones, 1);
        return new TaskRegion(coords.clone(), ones);
    }

    /**
     * Task {@code taskIndex} (C order) of a grid with {@code chunksPerAxis} chunks per axis split into boxes of {@code
     * chunksPerTask} chunks per axis.
     */
    public static TaskRegion of(long[] chunksPerAxis, int[] chunksPerTask, long taskIndex) {
        int nd = chunksPerAxis.length;
        checkShape(chunksPerAxis, chunksPerTask);
        long total = numTasks(chunksPerAxis, chunksPerTask);
        if (taskIndex < 0 || taskIndex >= total) {
            throw new InvalidArgumentException("task " + taskIndex + " out of range: the operation has " + total);
        }
        long[] first = new long[nd];
        int[] counts = new int[nd];
        long rest = taskIndex;
        for (int i = nd - 1; i >= 0; i--) {
            long tasksAlong = ceilDiv(chunksPerAxis[i], chunksPerTask[i]);
            long t = rest % tasksAlong;
            rest /= tasksAlong;
            first[i] = t * chunksPerTask[i];
            counts[i] = (int) Math.min(chunksPerTask[i], chunksPerAxis[i] - first[i]);
        }
        return new TaskRegion(first, counts);
    }

    /** Number of tasks covering a grid of {@code chunksPerAxis} chunks in boxes of {@code chunksPerTask} chunks. */
    public static long numTasks(long[] chunksPerAxis, int[] chunksPerTask) {
        checkShape(chunksPerAxis, chunksPerTask);
        long n = 1;
        for (int i = 0; i < chunksPerAxis.length; i++) {
            n = Math.multiplyExact(n, ceilDiv(chunksPerAxis[i], chunksPerTask[i]));
        }
        return n;
    }

    private static void checkShape(long[] chunksPerAxis, int[] chunksPerTask) {
        if (chunksPerTask.length != chunksPerAxis.length) {
            throw new InvalidArgumentException("chunks per task " + Arrays.toString(chunksPerTask) + " have "
                    + chunksPerTask.length + " axes, the grid has " + chunksPerAxis.length);
        }
        for (int c : chunksPerTask) {
            if (c < 1) {
                throw new InvalidArgumentException(
                        "chunks per task must be positive, got " + Arrays.toString(chunksPerTask));
            }
        }
    }

    private static long ceilDiv(long a, long b) {
        return (a + b - 1) / b;
    }

    public int ndim() {
        return first.length;
    }

    /** Chunk coordinates of the first (lowest) output chunk (a copy). */
    public long[] first() {
        return first.clone();
    }

    /** Output chunks along each axis (a copy). */
    public int[] counts() {
        return counts.clone();
    }

    /** Number of output chunks in the region. */
    public long numChunks() {
        return numChunks;
    }

    /** Whether the region is one output chunk. */
    public boolean isSingleChunk() {
        return numChunks == 1;
    }

    /** Chunk coordinates of the region's {@code k}-th chunk, C order. */
    public long[] chunk(long k) {
        if (k < 0 || k >= numChunks) {
            throw new InvalidArgumentException("chunk " + k + " out of range: the region has " + numChunks);
        }
        long[] c = new long[first.length];
        long rest = k;
        for (int i = first.length - 1; i >= 0; i--) {
            c[i] = first[i] + rest % counts[i];
            rest /= counts[i];
        }
        return c;
    }

    /** The C-order index within the region of the chunk at {@code coords}, or -1 when it lies outside. */
    public long indexOf(long[] coords) {
        if (coords.length != first.length) {
            return -1;
        }
        long k = 0;
        for (int i = 0; i < first.length; i++) {
            long d = coords[i] - first[i];
            if (d < 0 || d >= counts[i]) {
                return -1;
            }
            k = k * counts[i] + d;
        }
        return k;
    }

    @Override
    public String toString() {
        return "TaskRegion{first=" + Arrays.toString(first) + ", counts=" + Arrays.toString(counts) + "}";
    }
}
