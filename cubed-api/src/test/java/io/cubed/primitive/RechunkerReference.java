package io.cubed.primitive;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The reference for {@link RechunkMinimumMemoryTest}: rechunker's {@code multistage_rechunking_plan}
 * ({@code rechunker/algorithm.py}, vendored by Cubed as {@code cubed/vendor/rechunker/algorithm.py}) and the way Cubed's
 * {@code _rechunk_plan} ({@code cubed/core/ops.py}) calls it, written in Java from reading the algorithm. It mirrors
 * the Python step by step, floating-point arithmetic included ({@code numpy.geomspace} as NumPy computes it), so that
 * the plans and the budgets it accepts are rechunker's.
 *
 * <p>In outline: the target chunks are grown ("consolidated") from the last axis to the first up to {@code max_mem};
 * the source chunks likewise, but only along the axes where the grown target chunk is longer, and at most to it. Then
 * for 1, 2, … stages the chunk shapes in between are spaced geometrically (floored), each stage copying through the
 * per-axis minimum of its two ends; the first stage count whose smallest such intermediate reaches {@code min_mem} is
 * the plan, unless the number of I/O operations rose from one count to the next (then the previous plan), and after
 * 99 counts the planner gives up. It refuses a source or target chunk above {@code max_mem}.
 */
final class RechunkerReference {
    private RechunkerReference() {}

    /** rechunker's {@code MAX_STAGES}: stage counts 1 … 99 are tried. */
    static final int MAX_STAGES = 100;

    /** One stage of a plan: (read chunks, intermediate chunks, write chunks). */
    record Stage(int[] read, int[] intermediate, int[] write) {
        @Override
        public String toString() {
            return "(" + Arrays.toString(read) + ", " + Arrays.toString(intermediate) + ", " + Arrays.toString(write)
                    + ")";
        }
    }

    /** The planner refused (rechunker's {@code ValueError} or {@code AssertionError}). */
    static final class Refused extends RuntimeException {
        Refused(String message) {
            super(message);
        }
    }

    /**
     * Cubed's {@code _rechunk_plan}: {@code max_mem = (allowed − reserved) // total_copies} with {@code total_copies =
     * 1 + read + 1 + 1 + write} (5 on a file system, 7 on object stores), {@code min_mem = min(max_mem // 20,
     * nbytes)}, chunks clipped to the shape. An empty list when there is nothing to do (same chunks or an empty
     * array), as Cubed returns no stage.
     */
    static List<Stage> cubedPlan(
            long[] shape, int[] source, int[] target, int itemsize, long allowed, long reserved, int totalCopies) {
        int[] s = clip(shape, source);
        int[] t = clip(shape, target);
        long nbytes = itemsize;
        for (long n : shape) {
            nbytes *= n;
        }
        if (Arrays.equals(s, t) || nbytes == 0) {
            return List.of();
        }
        long maxMem = Math.floorDiv(allowed - reserved, totalCopies);
        long minMem = Math.min(Math.floorDiv(maxMem, 20), nbytes);
        return multistagePlan(shape, s, t, itemsize, minMem, maxMem);
    }

    /**
     * The copy operations Cubed makes of a plan ({@code _rechunk_plan}'s generator): per stage (copy chunks, chunks of
     * the array written), {@code (read, write)} when a stage's read and write chunks are equal, else {@code (read,
     * intermediate)}, and after the last stage {@code (write, target)}; the last stage writes the target chunks.
     */
    static List<int[][]> cubedCopyOps(List<Stage> stages, int[] target) {
        List<int[][]> ops = new ArrayList<>();
        for (int i = 0; i < stages.size(); i++) {
            Stage st = stages.get(i);
            boolean last = i == stages.size() - 1;
            int[] written = last ? target : st.write();
            if (Arrays.equals(st.read(), st.write())) {
                ops.add(new int[][] {st.read(), written});
            } else {
                ops.add(new int[][] {st.read(), st.intermediate()});
                if (last) {
                    ops.add(new int[][] {st.write(), written});
                }
            }
        }
        return ops;
    }

    /**
     * The memory Cubed projects for each copy operation, in bytes, {@code reserved} included ({@code
     * calculate_projected_mem} of {@code map_selection} in {@code _rechunk}): the input array's chunk and the 4-byte
     * block-offsets chunk with their read copies, the copy chunk as the operation's extra memory, and the copy chunk
     * as the output with its write copies. The input's chunks are the previous operation's copy chunks (an array's
     * logical chunks), the source chunks for the first.
     */
    static long[] cubedOpMemory(
            long[] shape, int[] source, List<int[][]> ops, int itemsize, long reserved, int read, int write) {
        long[] mem = new long[ops.size()];
        int[] input = clip(shape, source);
        for (int i = 0; i < ops.size(); i++) {
            int[] copy = clip(shape, ops.get(i)[0]);
            long in = itemsize * product(input);
            long c = itemsize * product(copy);
            mem[i] = reserved + in * (1 + read) + 4L * (1 + read) + c + c * (1 + write);
            input = copy;
        }
        return mem;
    }

    /** Whether {@link #cubedPlan} finds a plan. */
    static boolean cubedPlans(
            long[] shape, int[] source, int[] target, int itemsize, long allowed, long reserved, int totalCopies) {
        try {
            cubedPlan(shape, source, target, itemsize, allowed, reserved, totalCopies);
            return true;
        } catch (Refused e) {
            return false;
        }
    }

    /**
     * Whether Cubed runs the rechunk at {@code allowed}: its planner finds a plan and every copy operation's projected
     * memory ({@link #cubedOpMemory}) is within {@code allowed}, the check Cubed makes before running a plan.
     */
    static boolean cubedRuns(
            long[] shape, int[] source, int[] target, int itemsize, long allowed, long reserved, int read, int write) {
        int copies = 1 + read + 1 + 1 + write;
        List<Stage> plan;
        try {
            plan = cubedPlan(shape, source, target, itemsize, allowed, reserved, copies);
        } catch (Refused e) {
            return false;
        }
        for (long m : cubedOpMemory(
                shape, source, cubedCopyOps(plan, clip(shape, target)), itemsize, reserved, read, write)) {
            if (m > allowed) {
                return false;
            }
        }
        return true;
    }

    /**
     * Cubed's chunk normalization for regular chunks: {@code -1} or a length above the axis is the axis (at least 1).
     */
    static int[] clip(long[] shape, int[] chunks) {
        int[] c = new int[chunks.length];
        for (int i = 0; i < c.length; i++) {
            long len = chunks[i] == -1 ? shape[i] : Math.min(chunks[i], shape[i]);
            c[i] = (int) Math.max(1, len);
        }
        return c;
    }

    /** rechunker's {@code multistage_rechunking_plan} with reads and writes consolidated (its defaults). */
    static List<Stage> multistagePlan(
            long[] shape, int[] source, int[] target, int itemsize, long minMem, long maxMem) {
        long sourceMem = itemsize * product(source);
        long targetMem = itemsize * product(target);
        if (sourceMem > maxMem) {
            throw new Refused("Source chunk memory (" + sourceMem + ") exceeds max_mem (" + maxMem + ")");
        }
        if (targetMem > maxMem) {
            throw new Refused("Target chunk memory (" + targetMem + ") exceeds max_mem (" + maxMem + ")");
        }
        if (maxMem < minMem) {
            throw new Refused("max_mem (" + maxMem + ") cannot be smaller than min_mem (" + minMem + ")");
        }
        int nd = shape.length;
        long[] writeLimits = new long[nd];
        for (int i = 0; i < nd; i++) {
            writeLimits[i] = shape[i];
        }
        int[] write = consolidate(shape, target, itemsize, maxMem, writeLimits);
        long[] readLimits = new long[nd];
        for (int i = 0; i < nd; i++) {
            // None (no consolidation along this axis) is NO_LIMIT here.
            readLimits[i] = write[i] > source[i] ? write[i] : NO_LIMIT;
        }
        int[] read = consolidate(shape, source, itemsize, maxMem, readLimits);

        Long previousOps = null;
        List<Stage> previous = null;
        for (int stageCount = 1; stageCount < MAX_STAGES; stageCount++) {
            List<int[]> between = stageChunks(read, write, stageCount);
            List<int[]> pre = new ArrayList<>();
            pre.add(read);
            pre.addAll(between);
            List<int[]> post = new ArrayList<>(between);
            post.add(write);
            List<Stage> plan = new ArrayList<>();
            long intMem = Long.MAX_VALUE;
            for (int k = 0; k < pre.size(); k++) {
                int[] shared = new int[nd];
                for (int i = 0; i < nd; i++) {
                    shared[i] = Math.min(pre.get(k)[i], post.get(k)[i]);
                }
                plan.add(new Stage(pre.get(k), shared, post.get(k)));
                intMem = Math.min(intMem, itemsize * product(shared));
            }
            if (intMem >= minMem) {
                return plan;
            }
            long ops = 0;
            for (int k = 0; k < pre.size(); k++) {
                ops = Math.addExact(ops, singleStageIoOps(shape, pre.get(k), post.get(k)));
            }
            if (previousOps != null && ops > previousOps) {
                return previous; // rechunker warns (ExcessiveIOWarning) and returns the previous plan
            }
            previousOps = ops;
            previous = plan;
        }
        throw new Refused("Failed to find a feasible multi-staging rechunking scheme satisfying min_mem (" + minMem
                + ") and max_mem (" + maxMem + ") constraints");
    }

    /** A chunk limit meaning "do not consolidate this axis" (Python's {@code None}). */
    static final long NO_LIMIT = -2;

    /**
     * rechunker's {@code consolidate_chunks}: from the last axis to the first, an axis with a limit is grown to it if
     * the chunk then stays strictly below {@code maxMem}, else to the original length times the whole part of the
     * headroom left ({@code max_mem / chunk_mem}, a float), at most the limit.
     */
    static int[] consolidate(long[] shape, int[] chunks, int itemsize, long maxMem, long[] limits) {
        int nd = shape.length;
        long[] limitPerAxis = new long[nd];
        for (int i = 0; i < nd; i++) {
            long cl = limits[i];
            if (cl == NO_LIMIT) {
                limitPerAxis[i] = NO_LIMIT;
            } else if (cl == -1) {
                limitPerAxis[i] = shape[i];
            } else if (chunks[i] <= cl && cl <= shape[i]) {
                limitPerAxis[i] = cl;
            } else if (cl > shape[i]) {
                limitPerAxis[i] = shape[i];
            } else {
                throw new Refused("Invalid chunk_limits " + Arrays.toString(limits));
            }
        }
        long chunkMem = itemsize * product(chunks);
        if (chunkMem > maxMem) {
            throw new Refused("chunk_mem " + chunkMem + " > max_mem " + maxMem);
        }
        double headroom = (double) maxMem / chunkMem;
        int[] out = chunks.clone();
        for (int axis = nd - 1; axis >= 0; axis--) {
            if (limitPerAxis[axis] == NO_LIMIT) {
                continue;
            }
            long upper = Math.min(shape[axis], limitPerAxis[axis]);
            out[axis] = (int) upper;
            chunkMem = itemsize * product(out);
            double upperHeadroom = (double) maxMem / chunkMem;
            if (upperHeadroom > 1) {
                headroom = upperHeadroom;
            } else {
                // int(chunks[axis] * int(headroom)): both truncations toward zero, as Python's int()
                long larger = (long) ((double) chunks[axis] * (long) headroom);
                out[axis] = (int) Math.min(larger, upper);
                chunkMem = itemsize * product(out);
                headroom = (double) maxMem / chunkMem;
            }
            if (!(headroom >= 1)) {
                throw new Refused("consolidate_chunks: headroom " + headroom + " < 1");
            }
        }
        return out;
    }

    /**
     * rechunker's {@code calculate_stage_chunks}: the interior points of {@code numpy.geomspace(read, write,
     * stageCount + 1)}, floored.
     */
    static List<int[]> stageChunks(int[] read, int[] write, int stageCount) {
        int nd = read.length;
        double[][] g = geomspace(read, write, stageCount + 1);
        List<int[]> out = new ArrayList<>();
        for (int k = 1; k < stageCount; k++) {
            int[] c = new int[nd];
            for (int i = 0; i < nd; i++) {
                c[i] = (int) Math.floor(g[k][i]);
            }
            out.add(c);
        }
        return out;
    }

    /**
     * {@code numpy.geomspace(start, stop, num)} for positive vectors, as NumPy computes it: {@code 10 **
     * linspace(log10(start), log10(stop), num)}, with {@code linspace} multiplying by the step, or (when any axis has a
     * zero step) dividing by {@code num − 1} and multiplying by the difference, then adding the start; the last row is
     * the stop in {@code linspace}, and {@code geomspace} then sets the first and last rows to the exact ends.
     */
    static double[][] geomspace(int[] start, int[] stop, int num) {
        int nd = start.length;
        double[] logStart = new double[nd];
        double[] logStop = new double[nd];
        double[] delta = new double[nd];
        double[] step = new double[nd];
        int div = num - 1;
        boolean anyStepZero = false;
        for (int i = 0; i < nd; i++) {
            logStart[i] = Math.log10(start[i]);
            logStop[i] = Math.log10(stop[i]);
            delta[i] = logStop[i] - logStart[i];
            step[i] = delta[i] / div;
            anyStepZero |= step[i] == 0;
        }
        double[][] out = new double[num][nd];
        for (int k = 0; k < num; k++) {
            for (int i = 0; i < nd; i++) {
                double y = anyStepZero ? (k / (double) div) * delta[i] : k * step[i];
                y += logStart[i];
                if (k == num - 1) {
                    y = logStop[i];
                }
                out[k][i] = Math.pow(10.0, y);
            }
        }
        for (int i = 0; i < nd; i++) {
            out[0][i] = start[i];
            out[num - 1][i] = stop[i];
        }
        return out;
    }

    /** rechunker's {@code _count_intermediate_chunks}: the pieces an axis of {@code size} is cut into. */
    static long countIntermediateChunks(long source, long target, long size) {
        long multiple = RechunkStage.lcm(source, target);
        long splitsPerLcm = multiple / source + multiple / target - 1;
        long lcmCount = size / multiple;
        long remainder = size % multiple;
        long splitsInRemainder = remainder == 0
                ? 0
                : RechunkStage.ceilDiv(remainder, source) + RechunkStage.ceilDiv(remainder, target) - 1;
        return lcmCount * splitsPerLcm + splitsInRemainder;
    }

    /** rechunker's {@code calculate_single_stage_io_ops}: the product of the pieces per axis. */
    static long singleStageIoOps(long[] shape, int[] in, int[] out) {
        long n = 1;
        for (int i = 0; i < shape.length; i++) {
            n = Math.multiplyExact(n, countIntermediateChunks(in[i], out[i], shape[i]));
        }
        return n;
    }

    static long product(int[] chunks) {
        long n = 1;
        for (int c : chunks) {
            n = Math.multiplyExact(n, c);
        }
        return n;
    }
}
