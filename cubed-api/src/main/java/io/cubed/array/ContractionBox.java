package io.cubed.array;

import io.cubed.dtype.DType;
import io.cubed.grid.ChunkGrid;
import io.cubed.memory.BufferCopies;
import io.cubed.plan.Spec;
import java.util.Arrays;

/**
 * The output chunks each task of a contraction computes: {@code rows} chunks along the last output letter only
 * {@code a} has and {@code cols} along the last only {@code b} has ({@code chunksPerTask} null: one chunk per
 * task); the task holds {@code held} chunks of each operand (the chunks of the held operand one contracted chunk
 * needs, and one of the other at a time) and {@code extraBytes} more for its running sums.
 */
record ContractionBox(int[] chunksPerTask, int rows, int cols, boolean holdSecond, int[] held, long extraBytes) {
    /** One output chunk per task. */
    static final ContractionBox ONE = new ContractionBox(null, 1, 1, true, new int[] {1, 1}, 0);

    /** Largest number of output chunks per task along either axis of a contraction's task box. */
    private static final int MAX_BOX_SIDE = 16;

    /**
     * Chooses the task box of a contraction with output grid {@code grid}: each task of a box of r × c output chunks
     * reads each operand chunk it needs once, so the operands are read (1/r + 1/c) times per output chunk instead of
     * twice. Boxes tile the grid exactly, so every task does the same work; one is taken where it leaves at least two
     * tasks per task slot of the executor ({@link
     * io.cubed.runtime.Executor#parallelism}, so no slot idles for want of tasks and one slow task can be made up for)
     * and fits allowedMem with the output counted as if written to an object store through a codec that buffers
     * whole chunks (the most copies any target takes, so where it is stored cannot break the bound); among those, the
     * box with the fewest reads, then the most tasks.
     */
    static ContractionBox choose(
            CubedArray ua, String ia, CubedArray ub, String ib, String out, ChunkGrid grid, long extra, DType rt) {
        int row = -1;
        int col = -1;
        for (int x = 0; x < out.length(); x++) {
            char c = out.charAt(x);
            boolean inA = ia.indexOf(c) >= 0;
            boolean inB = ib.indexOf(c) >= 0;
            if (inA && !inB) {
                row = x;
            } else if (inB && !inA) {
                col = x;
            }
        }
        if (row < 0 || col < 0 || grid.numChunks() == 0) {
            return ContractionBox.ONE;
        }
        Spec spec = ua.spec();
        long rowsOfChunks = grid.chunksPerAxis(row);
        long colsOfChunks = grid.chunksPerAxis(col);
        long others = grid.numChunks() / (rowsOfChunks * colsOfChunks);
        long slots = Math.max(1, spec.executor().parallelism());
        long aBytes = ua.chunks().chunkSize()
                * ua.dtype().itemSizeBytes()
                * (1 + Manipulation.readCopies(ua).read());
        long bBytes = ub.chunks().chunkSize()
                * ub.dtype().itemSizeBytes()
                * (1 + Manipulation.readCopies(ub).read());
        long oBytes = grid.chunkSize() * rt.itemSizeBytes();
        long fixed = spec.reservedMem().bytes()
                + extra
                + oBytes * (1 + BufferCopies.OBJECT_STORE.plus(1).write());
        ContractionBox best = ContractionBox.ONE;
        double bestReads = 2;
        long bestTasks = grid.numChunks();
        for (int r = 1; r <= Math.min(rowsOfChunks, MAX_BOX_SIDE); r++) {
            for (int c = 1; c <= Math.min(colsOfChunks, MAX_BOX_SIDE); c++) {
                long tasks = others * (rowsOfChunks / r) * (colsOfChunks / c);
                if (r * c == 1 || rowsOfChunks % r != 0 || colsOfChunks % c != 0 || tasks < 2 * slots) {
                    continue;
                }
                // Hold the operand with fewer chunks per contracted chunk: b's c chunks (one of a's r at a time), or
                // a's r chunks.
                boolean holdSecond = c <= r;
                long runningSums = (long) (r * c - 1) * oBytes;
                long mem = fixed + runningSums + (holdSecond ? aBytes + c * bBytes : r * aBytes + bBytes);
                double reads = 1.0 / r + 1.0 / c;
                if (mem > spec.allowedMem().bytes() || reads > bestReads + 1e-12) {
                    continue;
                }
                if (reads < bestReads - 1e-12 || tasks > bestTasks) {
                    int[] perTask = new int[grid.ndim()];
                    Arrays.fill(perTask, 1);
                    perTask[row] = r;
                    perTask[col] = c;
                    best = new ContractionBox(
                            perTask, r, c, holdSecond, holdSecond ? new int[] {1, c} : new int[] {r, 1}, runningSums);
                    bestReads = reads;
                    bestTasks = tasks;
                }
            }
        }
        return best;
    }
}
