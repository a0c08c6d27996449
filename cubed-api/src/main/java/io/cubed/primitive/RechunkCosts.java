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
        return RechunkStage.saturatedAdd(
                RechunkStage.saturatedAdd(s.bytesRead(), s.bytesWritten()),
                RechunkStage.saturatedMultiply(s.ioOps(), RechunkPlanner.REQUEST_COST_BYTES));
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
        long c = cost(s);
        long tasks = Math.max(1, s.tasks());
        if (parallelism == 1 || c == Long.MAX_VALUE) {
            return c;
        }
        long waves = (tasks + parallelism - 1) / parallelism;
        return (long) Math.min(Long.MAX_VALUE, (double) c * waves / tasks);
    }

    /** Whether a stage fits: its task within {@code budget}, its region buffer (if any) within a copy's share. */
    boolean fits(RechunkStage s, long budget) {
        return s.taskBytes() <= budget && s.regionBufferBytes() <= budget / copies();
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

    long bytes(int[] chunks) {
        return RechunkStage.saturatedMultiply(itemsize, RechunkStage.product(chunks));
    }
}
