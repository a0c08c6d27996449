package io.cubed.array;

import io.cubed.chunk.ReduceFunction;
import io.cubed.chunk.ReduceLayout;
import io.cubed.chunk.Reducer;
import io.cubed.dtype.DType;
import io.cubed.error.InvalidArgumentException;
import io.cubed.grid.ChunkGrid;
import io.cubed.plan.ArrayNode;
import io.cubed.plan.OpNode;
import io.cubed.primitive.PartialReduceFunction;
import io.cubed.primitive.ReductionKeyFunction;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Tree reductions with bounded memory, the core of {@link Statistical}, {@link Searching}, {@link Utility} and
 * {@link LinearAlgebra}. Each round is one blockwise operation whose tasks read up to {@code splitEvery} chunks (spread
 * over the reduced axes) one at a time and combine them into one state chunk; rounds repeat until one chunk is left
 * along every reduced axis, and the last round writes the aggregated result. See docs/reductions.md.
 */
public final class Reduction {
    private Reduction() {}

    /**
     * {@code f} of {@code x} over the axes, with the keepdims, splitEvery, dtype and correction of {@code options}.
     * Arg reductions take one axis, or none for the index into the flattened array (C order).
     *
     * @throws InvalidArgumentException for an axis out of range or repeated, a data type {@code f} does not accept,
     *     or a reduction without identity (min, max, the arg forms) over an empty axis
     */
    public static CubedArray reduce(CubedArray x, ReduceFunction f, ReductionOptions options) {
        return reduce(x, f, options, f.pythonName());
    }

    /** As {@link #reduce(CubedArray, ReduceFunction, ReductionOptions)}, naming the operations {@code name}. */
    static CubedArray reduce(CubedArray x, ReduceFunction f, ReductionOptions options, String name) {
        String op = f.pythonName();
        int[] axes = normalizeAxes(op, x, options.axes());
        Reducer reducer = Reducer.of(f, x.dtype(), options.dtype(), options.correction(), x.name());
        int argAxis = ReduceLayout.NO_INDEX;
        if (f.isArg()) {
            if (options.axes() == null) {
                argAxis = ReduceLayout.FLAT_INDEX;
            } else if (axes.length == 1) {
                argAxis = axes[0];
            } else {
                throw new InvalidArgumentException(op + " of " + x.name() + ": axis must be one axis or none (the "
                        + "flattened array), got " + Arrays.toString(options.axes()));
            }
        }
        boolean[] reduced = new boolean[x.ndim()];
        for (int a : axes) {
            reduced[a] = true;
            if (f.needsElements() && x.shape()[a] == 0) {
                throw new InvalidArgumentException(op + " of " + x.name() + ": zero-size array to reduction "
                        + "operation " + op + " which has no identity (shape " + Arrays.toString(x.shape())
                        + ", axis " + a + ")");
            }
        }
        return tree(
                name, x, reducer, reduced, options.keepdims(), splits(op, x, reduced, options), argAxis, null, -1, 0);
    }

    /**
     * {@code f} of the elements of {@code x} along {@code axis} grouped by {@code by}: a 1-d integer array as long as
     * that axis whose element {@code i} names the group, in {@code [0, numGroups)}, of position {@code i}
     * (Cubed's {@code groupby_reduction}; e.g. a monthly climatology of daily data). The result has {@code x}'s shape
     * with the axis replaced by {@code numGroups}, one chunk along it; a group without elements gets the reduction's
     * identity (0 for sum, NaN for mean and var, the type's extreme for min and max). The dtype and correction of
     * {@code options} apply; its axes and keepdims do not.
     *
     * @throws InvalidArgumentException for a bad axis, labels that are not a 1-d integer array of the axis' length,
     *     {@code numGroups < 1}, or an arg reduction; a label outside the groups fails the computation
     */
    public static CubedArray groupbyReduction(
            CubedArray x, CubedArray by, ReduceFunction f, int axis, int numGroups, ReductionOptions options) {
        String op = "groupby_" + f.pythonName();
        int a = normalizeAxis(op, x, axis);
        if (f.isArg()) {
            throw new InvalidArgumentException(op + " of " + x.name() + ": arg reductions cannot be grouped");
        }
        if (numGroups < 1) {
            throw new InvalidArgumentException(
                    op + " of " + x.name() + ": numGroups must be at least 1, got " + numGroups);
        }
        if (by.ndim() != 1 || !by.dtype().isInteger() || by.shape()[0] != x.shape()[a]) {
            throw new InvalidArgumentException(op + " of " + x.name() + ": the labels " + by.name() + " must be a 1-d "
                    + "integer array of length " + x.shape()[a] + " (axis " + a + "), got " + by.dtype() + " of shape "
                    + Arrays.toString(by.shape()));
        }
        Reducer reducer = Reducer.of(f, x.dtype(), options.dtype(), options.correction(), x.name());
        CubedArray labels = by.chunkShape()[0] == x.chunkShape()[a] || x.shape()[a] == 0
                ? by
                : Manipulation.rechunk(by, x.chunkShape()[a]);
        boolean[] reduced = new boolean[x.ndim()];
        reduced[a] = true;
        return tree(
                op,
                x,
                reducer,
                reduced,
                true,
                splits(op, x, reduced, options),
                ReduceLayout.NO_INDEX,
                labels,
                a,
                numGroups);
    }

    /**
     * The axes {@code given} (null: all) as sorted non-negative axes of {@code x}.
     *
     * @throws InvalidArgumentException naming {@code op}, the array and the axis when one is out of range or repeated
     */
    static int[] normalizeAxes(String op, CubedArray x, int[] given) {
        int nd = x.ndim();
        if (given == null) {
            int[] all = new int[nd];
            for (int a = 0; a < nd; a++) {
                all[a] = a;
            }
            return all;
        }
        boolean[] seen = new boolean[nd];
        for (int g : given) {
            int a = normalizeAxis(op, x, g);
            if (seen[a]) {
                throw new InvalidArgumentException(
                        op + " of " + x.name() + ": axis " + g + " is repeated in " + Arrays.toString(given));
            }
            seen[a] = true;
        }
        int[] out = new int[given.length];
        int k = 0;
        for (int a = 0; a < nd; a++) {
            if (seen[a]) {
                out[k++] = a;
            }
        }
        return out;
    }

    /** {@code axis} of {@code x} as a non-negative axis (negative counts from the end). */
    static int normalizeAxis(String op, CubedArray x, int axis) {
        int nd = x.ndim();
        if (axis < -nd || axis >= nd) {
            throw new InvalidArgumentException(op + " of " + x.name() + ": axis " + axis + " is out of bounds for an "
                    + "array of rank " + nd + " (shape " + Arrays.toString(x.shape()) + ")");
        }
        return axis < 0 ? axis + nd : axis;
    }

    /** Input chunks combined per task along each reduced axis: {@code max(⌊splitEvery^(1/k)⌋, 2)} for k axes. */
    static int splitPerAxis(int splitEvery, int reducedAxes) {
        if (reducedAxes == 0) {
            return 1;
        }
        return Math.max((int) Math.floor(Math.pow(splitEvery, 1.0 / reducedAxes) + 1e-9), 2);
    }

    /**
     * Input chunks combined per task along each axis of {@code x}: 1 on kept axes; on reduced ones the per-axis
     * splitEvery of {@code options} (2 where it names no number), or its single splitEvery spread over the reduced axes
     * that have more than one chunk (an axis of one chunk has nothing to combine, so it takes no share: the sum of all
     * of a column of chunks combines as many chunks per task as its mean over the column's axis, and the two can share
     * their reads).
     */
    static int[] splits(String op, CubedArray x, boolean[] reduced, ReductionOptions options) {
        int nd = reduced.length;
        int[] split = new int[nd];
        Map<Integer, Integer> byAxis = options.splitEveryByAxis();
        Map<Integer, Integer> normalized = new HashMap<>();
        if (byAxis != null) {
            for (Map.Entry<Integer, Integer> e : byAxis.entrySet()) {
                normalized.put(normalizeAxis(op, x, e.getKey()), e.getValue());
            }
        }
        long[] chunks = x.chunks().chunksPerAxis();
        int nReduced = 0;
        for (int a = 0; a < nd; a++) {
            nReduced += reduced[a] && chunks[a] > 1 ? 1 : 0;
        }
        int per = splitPerAxis(options.splitEvery(), nReduced);
        for (int a = 0; a < nd; a++) {
            if (!reduced[a]) {
                split[a] = 1;
            } else if (byAxis != null) {
                split[a] = normalized.getOrDefault(a, 2);
            } else {
                split[a] = chunks[a] > 1 ? per : 1;
            }
        }
        return split;
    }

    /**
     * The rounds of a tree reduction: for each round, the number of chunks along every axis after it. Axes not
     * reduced keep their count; reduced axes shrink by {@code split[a]} per round down to 1 (an empty axis gives 1).
     */
    static List<long[]> rounds(long[] chunksPerAxis, boolean[] reduced, int[] split) {
        List<long[]> out = new ArrayList<>();
        long[] cur = chunksPerAxis.clone();
        while (true) {
            long[] next = cur.clone();
            boolean more = false;
            for (int a = 0; a < cur.length; a++) {
                if (reduced[a]) {
                    next[a] = Math.max(1, (cur[a] + split[a] - 1) / split[a]);
                    more |= next[a] > 1;
                }
            }
            out.add(next);
            if (!more) {
                return out;
            }
            cur = next;
        }
    }

    /**
     * The operations of a tree reduction of {@code x}: {@code reduced} axes (including {@code groupAxis}, whose
     * elements {@code labels} assign to {@code numGroups} groups, or -1), one operation per round named {@code op}.
     */
    static CubedArray tree(
            String op,
            CubedArray x,
            Reducer reducer,
            boolean[] reduced,
            boolean keepdims,
            int[] split,
            int argAxis,
            CubedArray labels,
            int groupAxis,
            int numGroups) {
        int nd = x.ndim();
        int[] stateLength = new int[nd];
        for (int a = 0; a < nd; a++) {
            stateLength[a] = a == groupAxis ? numGroups : 1;
        }
        List<long[]> rounds = rounds(x.chunks().chunksPerAxis(), reduced, split);
        long[] shape = x.shape();
        int[] chunk = x.chunkShape();
        List<ArrayNode> inputs = new ArrayList<>();
        inputs.add(x.node());
        if (labels != null) {
            inputs.add(labels.node());
        }
        ChunkGrid inGrid = x.chunks();
        long[] before = x.chunks().chunksPerAxis();
        for (int r = 0; r < rounds.size(); r++) {
            boolean first = r == 0;
            boolean last = r == rounds.size() - 1;
            long[] after = rounds.get(r);
            List<Long> outShape = new ArrayList<>();
            List<Integer> outChunks = new ArrayList<>();
            int[] outputAxis = new int[nd];
            for (int a = 0; a < nd; a++) {
                if (reduced[a] && last && !keepdims && a != groupAxis) {
                    outputAxis[a] = -1;
                    continue;
                }
                outputAxis[a] = outShape.size();
                if (reduced[a]) {
                    outShape.add(after[a] * stateLength[a]);
                    outChunks.add(stateLength[a]);
                } else {
                    outShape.add(shape[a]);
                    outChunks.add(chunk[a]);
                }
            }
            ChunkGrid grid = ChunkGrid.of(
                    outShape.stream().mapToLong(Long::longValue).toArray(),
                    outChunks.stream().mapToInt(Integer::intValue).toArray());
            List<DType> types = last ? List.of(reducer.resultType()) : List.of(reducer.stateTypes());
            List<ChunkGrid> grids = new ArrayList<>();
            for (int i = 0; i < types.size(); i++) {
                grids.add(grid);
            }
            int[][] axisMaps = new int[inputs.size()][];
            if (first && labels != null) {
                axisMaps[1] = new int[] {groupAxis};
            }
            int[] held = new int[inputs.size()];
            Arrays.fill(held, 1);
            long extra = extraMemBytes(inputs, reducer, stateChunkElements(chunk, reduced, stateLength), chunk);
            String detail = String.format(
                    Locale.ROOT,
                    "round %d/%d: chunks %s -> %s, up to %d input chunks per task read one at a time",
                    r + 1,
                    rounds.size(),
                    Arrays.toString(before),
                    Arrays.toString(after),
                    product(split));
            OpNode node = OpNode.blockwise(
                    rounds.size() == 1 ? op : op + " round " + (r + 1) + "/" + rounds.size(),
                    inputs,
                    new ReductionKeyFunction(inGrid.chunksPerAxis(), split, outputAxis, axisMaps),
                    new PartialReduceFunction(
                            reducer, inGrid, reduced, first, last, keepdims, argAxis, shape, groupAxis, numGroups),
                    held,
                    extra,
                    types,
                    grids,
                    detail);
            inputs = node.outputs();
            inGrid = grid;
            before = after;
        }
        return CubedArray.of(inputs.get(0), x.spec());
    }

    private static long stateChunkElements(int[] chunk, boolean[] reduced, int[] stateLength) {
        long n = 1;
        for (int a = 0; a < chunk.length; a++) {
            n *= reduced[a] ? stateLength[a] : chunk[a];
        }
        return n;
    }

    /**
     * Memory a round's task needs beyond the chunks it holds and writes: one more chunk of each input (the chunk read
     * before may not be freed yet, as Cubed counts), two states (the running state and the one being merged in), and
     * the row buffers the kernels convert runs of elements in. {@code PartialReduceFunction#inputChunksInExtra} says
     * so to the plan.
     */
    private static long extraMemBytes(List<ArrayNode> inputs, Reducer reducer, long stateElements, int[] chunk) {
        long extra = 0;
        for (ArrayNode in : inputs) {
            extra += in.chunkBytes();
        }
        long stateBytes = 0;
        for (DType t : reducer.stateTypes()) {
            stateBytes += stateElements * t.itemSizeBytes();
        }
        long row = chunk.length == 0 ? 1 : chunk[chunk.length - 1];
        return extra + 2 * stateBytes + 16 * row;
    }

    private static long product(int[] v) {
        long p = 1;
        for (int x : v) {
            p *= x;
        }
        return p;
    }
}
