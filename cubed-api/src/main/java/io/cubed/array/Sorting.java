package io.cubed.array;

import io.cubed.chunk.Chunk;
import io.cubed.chunk.Sorts;
import io.cubed.dtype.DType;
import io.cubed.error.InvalidArgumentException;
import io.cubed.grid.ChunkGrid;
import io.cubed.plan.ArrayNode;
import io.cubed.plan.OpNode;
import io.cubed.primitive.ChunkArgs;
import io.cubed.primitive.ChunkFunction;
import io.cubed.primitive.IndexKeyFunction;
import io.cubed.primitive.KeyFunction;
import java.util.ArrayList;
import java.util.List;

/**
 * Sorting functions of the Array API ({@code sort}, {@code argsort}) along one axis, in bounded memory: every task
 * holds at most two chunks of the array (with their int64 indices), however long the axis.
 *
 * <p>The first operation sorts every chunk along the axis and records each element's original index. When the axis
 * has several chunks, Batcher's odd-even merge sort follows, with chunks in place of elements: each of its layers is
 * one blockwise operation in which chunk {@code m} and its partner {@code q} (if the layer pairs it) are both read,
 * merged, and the lower chunk of the pair keeps the first elements of the merge, the upper one the last (a
 * merge-split; partners merge the same two chunks, each keeping its part). A merge network of merge-splits on sorted
 * chunks of equal length sorts their union; the last chunk, which may be short, counts as padded with elements that
 * sort after everything, and comparators reaching past the last chunk are left out, which the padding makes exact.
 * {@code n} chunks take {@code ⌈log₂ n⌉(⌈log₂ n⌉ + 1)/2} layers at most. Other axes' chunks are independent.
 *
 * <p>Elements are ordered by NumPy's sort order (see {@link Sorts}) and ties by their original index, so the sort is
 * stable and {@code argsort} equals NumPy's {@code argsort(kind="stable")}; descending reverses the order of values
 * but keeps equal elements in their original order (NaN first, as the standard's reference flips the array, sorts it
 * stably and flips back). Building these runs nothing.
 */
public final class Sorting {
    private Sorting() {}

    /** {@code x} sorted along its last axis, ascending, stable ({@code sort}). */
    public static CubedArray sort(CubedArray x) {
        return sort(x, SortOptions.defaults());
    }

    /** {@code x} sorted along the axis of {@code options}, in its direction, stable ({@code sort}). */
    public static CubedArray sort(CubedArray x, SortOptions options) {
        return network("sort", x, options).get(0);
    }

    /** The indices (int64) that sort {@code x} along its last axis, ascending, stable ({@code argsort}). */
    public static CubedArray argsort(CubedArray x) {
        return argsort(x, SortOptions.defaults());
    }

    /**
     * The indices (int64, positions along the axis) that sort {@code x} along the axis of {@code options}, in its
     * direction; equal elements in their original order ({@code argsort}).
     */
    public static CubedArray argsort(CubedArray x, SortOptions options) {
        return network("argsort", x, options).get(1);
    }

    /** The sorted values and their original indices. */
    private static List<CubedArray> network(String op, CubedArray x, SortOptions options) {
        if (x.ndim() == 0) {
            throw new InvalidArgumentException(op + " of " + Layout.describe(x)
                    + ": a 0-d array has no axis to sort along (axis " + options.axis() + ")");
        }
        int axis = Reduction.normalizeAxis(op, x, options.axis());
        boolean descending = options.descending();
        DType dtype = x.dtype();
        ChunkGrid grid = x.chunks();
        if (x.size() == 0) {
            return List.of(x, Creation.zeros(x.shape(), x.chunkShape(), DType.INT64, x.spec()));
        }
        int c = grid.chunkShape(axis);
        long n = grid.chunksPerAxis(axis);
        String ind = Blockwise.letters(x.ndim());
        IndexKeyFunction same = new IndexKeyFunction(ind, new String[] {ind}, new long[][] {grid.chunksPerAxis()});
        long laneBytes = Sorts.laneBytesPerElement(dtype);
        String order = descending ? "descending" : "ascending";
        OpNode first = OpNode.blockwise(
                n == 1 ? op : op + " chunks",
                List.of(x.node()),
                same,
                new SortChunks(axis, c, descending),
                new int[] {1},
                laneBytes * c,
                List.of(dtype, DType.INT64),
                List.of(grid, grid),
                "sorts each chunk along axis " + axis + " (" + order + "), keeping each element's index; extra: "
                        + laneBytes + " bytes per element of one lane of " + c);
        ArrayNode values = first.outputs().get(0);
        ArrayNode index = first.outputs().get(1);
        List<long[]> layers = layers(n);
        for (int s = 0; s < layers.size(); s++) {
            long p = layers.get(s)[0];
            long k = layers.get(s)[1];
            MergeLayer layer = new MergeLayer(axis, p, k, n, descending);
            OpNode merge = OpNode.blockwise(
                    op + " merge " + (s + 1) + "/" + layers.size(),
                    List.of(values, index),
                    layer,
                    layer,
                    new int[] {2, 2},
                    8L * Sorts.keyWords(dtype) * 2 * c,
                    List.of(dtype, DType.INT64),
                    List.of(grid, grid),
                    "odd-even merge layer (p=" + p + ", k=" + k + ") over the " + n + " chunks of axis " + axis
                            + ": each task merges its chunk with its partner's and keeps its half; holds two chunks of"
                            + " values and of indices");
            values = merge.outputs().get(0);
            index = merge.outputs().get(1);
        }
        return List.of(CubedArray.of(values, x.spec()), CubedArray.of(index, x.spec()));
    }

    /**
     * The layers of Batcher's odd-even merge sort over {@code n} chunks, as {@code {p, k}} pairs (merging runs of
     * {@code 2p} chunks, comparing chunks {@code k} apart), in order, leaving out layers whose comparators all reach
     * past chunk {@code n - 1}. The first comparator of a layer is {@code (0, k)} when {@code k = p}, else {@code (k,
     * 2k)}, so a layer is kept when that one lies within the {@code n} chunks.
     */
    static List<long[]> layers(long n) {
        List<long[]> out = new ArrayList<>();
        for (long p = 1; p < n; p *= 2) {
            for (long k = p; k >= 1; k /= 2) {
                if (k == p ? k < n : 2 * k < n) {
                    out.add(new long[] {p, k});
                }
            }
        }
        return out;
    }

    /**
     * The chunk that chunk {@code m} is merged with in layer {@code (p, k)} of the odd-even merge sort of {@code n}
     * chunks, or -1 if none. Chunk {@code a} is the lower end of a comparator {@code (a, a + k)} when {@code a} is at
     * least {@code r = k mod p} and {@code (a - r) mod 2k < k}, both ends lie in the same run of {@code 2p} chunks,
     * and {@code a + k < n}.
     */
    static long partner(long m, long p, long k, long n) {
        if (m < n && lowerEnd(m, p, k, n)) {
            return m + k;
        }
        if (m < n && m >= k && lowerEnd(m - k, p, k, n)) {
            return m - k;
        }
        return -1;
    }

    private static boolean lowerEnd(long a, long p, long k, long n) {
        long r = k % p;
        return a >= r && (a - r) % (2 * k) < k && a / (2 * p) == (a + k) / (2 * p) && a + k < n;
    }

    /** The first operation: each chunk sorted along the axis, with the original indices of its elements. */
    private record SortChunks(int axis, int chunk, boolean descending) implements ChunkFunction {
        @Override
        public Chunk[] apply(ChunkArgs args, long[] outputCoords) {
            return Sorts.sortLanes(args.chunk(0), axis, descending, outputCoords[axis] * chunk);
        }
    }

    /**
     * One layer of the merge network: reads (values, then indices) the output chunk's own chunk alone when the layer
     * leaves it out, else the lower and the upper chunk of its pair, and keeps its part of their merge.
     */
    private record MergeLayer(int axis, long p, long k, long n, boolean descending)
            implements KeyFunction, ChunkFunction {
        @Override
        public long[][][] inputKeys(long[] outputCoords) {
            long m = outputCoords[axis];
            long q = partner(m, p, k, n);
            long[][] keys;
            if (q < 0) {
                keys = new long[][] {outputCoords.clone()};
            } else {
                long[] low = outputCoords.clone();
                long[] high = outputCoords.clone();
                low[axis] = Math.min(m, q);
                high[axis] = Math.max(m, q);
                keys = new long[][] {low, high};
            }
            return new long[][][] {keys, keys};
        }

        @Override
        public Chunk[] apply(ChunkArgs args, long[] outputCoords) {
            if (args.count(0) == 1) {
                return new Chunk[] {args.chunk(0), args.chunk(1)};
            }
            boolean keepLower = partner(outputCoords[axis], p, k, n) > outputCoords[axis];
            return Sorts.mergeSplit(
                    args.chunk(0, 0),
                    args.chunk(1, 0),
                    args.chunk(0, 1),
                    args.chunk(1, 1),
                    axis,
                    descending,
                    keepLower);
        }
    }
}
