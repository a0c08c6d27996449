package io.cubed.primitive;

import io.cubed.memory.BufferCopies;
import io.cubed.memory.ProjectedMemory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The cost model of {@link RechunkPlanner}: turns a chain of chunk shapes into its copy stages, and says what they cost
 * in I/O, how long the executor's slots take over them, and whether each task fits a memory budget.
 */
final class RechunkCosts {
    private final long[] shape;
    private final int itemsize;
    private final BufferCopies copies;
    private final int parallelism;

    RechunkCosts(long[] shape, int itemsize, BufferCopies copies, int parallelism) {
        this.shape = shape;
        this.itemsize = itemsize;
        this.copies = copies;
        this.parallelism = parallelism;
    }

    /** In-memory copies of a chunk one copy task holds: {@link ProjectedMemory#rechunkCopies}. */
    int copies() {
        return ProjectedMemory.rechunkCopies(copies);
    }

    /**
     * The I/O cost of a stage in bytes: bytes read and written plus {@value RechunkPlanner#REQUEST_COST_BYTES} per chunk read or
     * written.
     */
    static long cost(RechunkStage s) {
        return cost(s.bytesRead(), s.reads(), s.writes());
    }

    /** {@link #cost(RechunkStage)} of a stage that reads and writes {@code nbytes} in these chunk reads and writes. */
    static long cost(long nbytes, long reads, long writes) {
        return RechunkStage.saturatedAdd(
                RechunkStage.saturatedAdd(nbytes, nbytes),
                RechunkStage.saturatedMultiply(
                        RechunkStage.saturatedAdd(reads, writes), RechunkPlanner.REQUEST_COST_BYTES));
    }

    /** The I/O cost of a list of stages in bytes: the sum of {@link #cost(RechunkStage)}. */
    static long ioCost(List<RechunkStage> stages) {
        long cost = 0;
        for (RechunkStage s : stages) {
            cost = RechunkStage.saturatedAdd(cost, cost(s));
        }
        return cost;
    }

    /**
     * What the planner minimises among chains of the same number of stages, in bytes: the sum over the stages of
     * {@link #time(RechunkStage)}, which is their I/O cost when one task runs at a time.
     */
    long time(List<RechunkStage> stages) {
        long time = 0;
        for (RechunkStage s : stages) {
            time = RechunkStage.saturatedAdd(time, time(s));
        }
        return time;
    }

    /**
     * A stage's I/O cost as its slowest task slot sees it, in bytes: with {@code P} tasks at once ({@link
     * RechunkPlanner#parallelism}), the stage's {@code T} tasks run in {@code ceil(T / P)} waves, each task costing about {@code
     * cost / T}, so {@code cost · ceil(T / P) / T}. One slot gives the cost itself; with more, a stage whose tasks
     * fill whole waves (16 tasks on 2 threads rather than 13, which leave one thread idle for the last task) or
     * occupy every slot is preferred to one that moves a little less data with fewer tasks.
     */
    long time(RechunkStage s) {
        return time(cost(s), s.tasks());
    }

    /** {@link #time(RechunkStage)} of a stage of this I/O cost and number of tasks. */
    long time(long c, long stageTasks) {
        long tasks = Math.max(1, stageTasks);
        if (parallelism == 1 || c == Long.MAX_VALUE) {
            return c;
        }
        long waves = (tasks + parallelism - 1) / parallelism;
        return (long) Math.min(Long.MAX_VALUE, (double) c * waves / tasks);
    }

    /** Whether a stage fits: its task within {@code budget}, its region buffer (if any) within a copy's share. */
    boolean fits(RechunkStage s, long budget) {
        return fits(s.taskBytes(), s.regionBufferBytes(), budget);
    }

    /** {@link #fits(RechunkStage, long)} of a stage whose task holds these bytes. */
    boolean fits(long taskBytes, long regionBufferBytes, long budget) {
        return taskBytes <= budget && regionBufferBytes <= budget / copies();
    }

    boolean allFit(List<RechunkStage> stages, long budget) {
        for (RechunkStage s : stages) {
            if (!fits(s, budget)) {
                return false;
            }
        }
        return true;
    }

    /** How far a stage is over the budget: the larger of its task's and its region buffer's ratio to their limits. */
    double excess(RechunkStage s, long budget) {
        double task = (double) s.taskBytes() / Math.max(1, budget);
        double region = (double) s.regionBufferBytes() / Math.max(1, budget / copies());
        return Math.max(task, region);
    }

    private boolean sameChunks(int[] a, int[] b) {
        return Arrays.equals(RechunkPlanner.normalize(shape, a, "stage"), RechunkPlanner.normalize(shape, b, "stage"));
    }

    List<int[]> dedupe(List<int[]> chain) {
        List<int[]> out = new ArrayList<>();
        for (int[] c : chain) {
            if (out.isEmpty() || !sameChunks(out.get(out.size() - 1), c)) {
                out.add(c);
            }
        }
        return out;
    }

    List<RechunkStage> stages(List<int[]> chain) {
        List<RechunkStage> stages = new ArrayList<>();
        for (int s = 0; s + 1 < chain.size(); s++) {
            stages.add(stage(chain.get(s), chain.get(s + 1)));
        }
        return stages;
    }

    RechunkStage stage(int[] in, int[] out) {
        return new RechunkStage(shape, itemsize, in, out, copies);
    }

    /**
     * The two stages from {@code left} through an intermediate chunk shape to {@code right}, for the intermediates
     * whose length along each axis is one of {@code candidates[axis]}, costed from per-axis factors computed once
     * ({@link RechunkStage#axisFactors}) instead of building the stages for each intermediate.
     */
    Through through(int[] left, int[] right, long[][] candidates) {
        return new Through(left, right, candidates);
    }

    /**
     * {@link #through}'s costs: for an intermediate given as an index into each axis's candidates, whether both
     * stages fit a budget and their {@link #time(List)}, equal to those of {@code stages(List.of(left, w, right))} for
     * an intermediate {@code w} equal to neither neighbour (one equal to a neighbour merges two stages into one; the
     * caller builds that chain itself). A rechunk plan searches tens of thousands of intermediates per stage, each
     * of which built two stages and compared normalized chunk shapes: most of a plan's time.
     */
    final class Through {
        private final int nd = shape.length;
        private final long[][] candidates;
        /** [axis][candidate][factor] of the stage left → w and of the stage w → right. */
        private final long[][][] into;

        private final long[][][] outOf;
        private final long leftBytes;
        private final long rightBytes;
        private final long nbytes = RechunkStage.nbytes(shape, itemsize);
        private final long keyBytes = TaskKeys.boxBytes(shape.length);

        private Through(int[] left, int[] right, long[][] candidates) {
            this.candidates = candidates;
            this.into = new long[nd][][];
            this.outOf = new long[nd][][];
            for (int i = 0; i < nd; i++) {
                into[i] = new long[candidates[i].length][RechunkStage.AXIS_FACTORS];
                outOf[i] = new long[candidates[i].length][RechunkStage.AXIS_FACTORS];
                for (int c = 0; c < candidates[i].length; c++) {
                    int w = (int) candidates[i][c];
                    RechunkStage.axisFactors(shape[i], left[i], w, into[i][c]);
                    RechunkStage.axisFactors(shape[i], w, right[i], outOf[i][c]);
                }
            }
            this.leftBytes = bytes(left);
            this.rightBytes = bytes(right);
        }

        /**
         * The summed {@link #time(RechunkStage)} of the two stages through the intermediate {@code index} (per axis,
         * an index into the candidates), or -1 when either does not {@link #fits fit} {@code budget}.
         */
        long time(int[] index, long budget) {
            long w = 1;
            for (int i = 0; i < nd; i++) {
                w = RechunkStage.saturatedMultiply(w, candidates[i][index[i]]);
            }
            long middleBytes = RechunkStage.saturatedMultiply(itemsize, w);
            long first = stageTime(into, index, leftBytes, middleBytes, budget);
            if (first < 0) {
                return -1;
            }
            long second = stageTime(outOf, index, middleBytes, rightBytes, budget);
            if (second < 0) {
                return -1;
            }
            return RechunkStage.saturatedAdd(first, second);
        }

        private long stageTime(long[][][] f, int[] index, long inBytes, long outBytes, long budget) {
            long region = 1;
            long tasks = 1;
            long reads = 1;
            long writes = 1;
            long fanIn = 1;
            long fanOut = 1;
            for (int i = 0; i < nd; i++) {
                long[] a = f[i][index[i]];
                region = RechunkStage.saturatedMultiply(region, a[RechunkStage.REGION]);
                tasks = RechunkStage.saturatedMultiply(tasks, a[RechunkStage.TASKS]);
                reads = RechunkStage.saturatedMultiply(reads, a[RechunkStage.READS]);
                writes = RechunkStage.saturatedMultiply(writes, a[RechunkStage.WRITES]);
                fanIn = RechunkStage.saturatedMultiply(fanIn, a[RechunkStage.FAN_IN]);
                fanOut = RechunkStage.saturatedMultiply(fanOut, a[RechunkStage.FAN_OUT]);
            }
            long regionBuffer = fanIn > 1 && fanOut > 1 ? RechunkStage.saturatedMultiply(itemsize, region) : 0;
            long taskBytes = RechunkStage.taskBytes(
                    inBytes, regionBuffer, keyBytes, outBytes, copies, RechunkStage.readsInputsInto(fanIn, fanOut));
            if (!fits(taskBytes, regionBuffer, budget)) {
                return -1;
            }
            return RechunkCosts.this.time(cost(nbytes, reads, writes), tasks);
        }
    }

    long bytes(int[] chunks) {
        return RechunkStage.saturatedMultiply(itemsize, RechunkStage.product(chunks));
    }
}
