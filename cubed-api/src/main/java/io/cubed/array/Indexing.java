package io.cubed.array;

import io.cubed.error.InvalidArgumentException;
import io.cubed.grid.ChunkGrid;
import io.cubed.primitive.AxisMap;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Indexing of lazy arrays with NumPy's basic rules plus one integer array along one axis: {@link #index} (also
 * {@link CubedArray#get}), {@link #take} and {@link #blocks}. Each is one gather operation
 * ({@link io.cubed.primitive.Gather}) whose tasks read the input chunks an output chunk needs one at a time, so a task
 * holds one input chunk and its output chunk, whatever the step or the indices.
 *
 * <p>Output chunks follow Cubed: along an array-indexed axis or a slice of step ±1 the output keeps the input's chunk
 * length {@code c}; a slice of step {@code s} with {@code |s| > 1} gets chunks of {@code (c / |s|) · |s|} elements, or
 * {@code c} when {@code |s| > c} (see {@link #steppedChunkLength}), each clipped to the output's length
 * ({@code arange(100, chunks=10)[::3]} has 34 elements in chunks of 9); an integer drops its axis; a new axis has one
 * chunk of length 1; an empty result keeps the input's chunk lengths. A key that selects the whole array returns the
 * array itself. Cubed gets these chunks in two operations (a selection, then a merge of {@code |s|} chunks at a time);
 * here one gather writes them directly.
 *
 * <p>{@link #takeAlongAxis} takes elements at an integer array of indices along one axis; its tasks read the chunks of
 * the input that their indices point into, one at a time (see {@code TakeAlongAxis}).
 */
public final class Indexing {
    private Indexing() {}

    /** {@code x[key...]}; see {@link Index} for the items. */
    public static CubedArray index(CubedArray x, Index... key) {
        int arrays = 0;
        for (Index item : key) {
            if (item instanceof Index.Take) {
                arrays++;
            }
        }
        if (arrays > 1) {
            throw new InvalidArgumentException("index: " + describe(x) + " got " + arrays + " integer-array items in "
                    + keyString(key) + "; only one axis may be indexed by an integer array");
        }
        return select("index", x, key, false);
    }

    /** The elements of {@code x} at {@code indices} along {@code axis} (negative axes count from the end). */
    public static CubedArray take(CubedArray x, long[] indices, int axis) {
        int a = normalizeAxis("take", x, axis);
        Index[] key = new Index[x.ndim()];
        Arrays.fill(key, Index.all());
        key[a] = Index.take(indices);
        return select("take", x, key, false);
    }

    /**
     * {@code take(x, indices, axis)} with the indices an integer array, as NumPy and the standard take them: a 1-d
     * array of an integer type, negative values counting from the end. Which chunks of {@code x} each output chunk
     * reads depends on the values, so the indices are computed first (on the spec's executor) and brought here: at
     * most {@link io.cubed.plan.Spec#inTaskDataLimitBytes} of them, as for {@code asarray}.
     */
    public static CubedArray take(CubedArray x, CubedArray indices, int axis) {
        if (indices.ndim() != 1 || !indices.dtype().isInteger()) {
            throw new InvalidArgumentException(
                    "take: the indices " + describe(indices) + " must be a 1-d array of an" + " integer data type");
        }
        long limit = indices.spec().inTaskDataLimitBytes();
        if (indices.nbytes() > limit) {
            throw new InvalidArgumentException("take: the indices " + describe(indices) + " take " + indices.nbytes()
                    + " bytes, more than the " + limit + " (half of allowedMem - reservedMem) an index list may; select"
                    + " with slices or blocks, or raise allowedMem");
        }
        long[] values = indices.compute().toLongArray();
        if (indices.dtype() == io.cubed.dtype.DType.UINT64) {
            for (long v : values) {
                if (v < 0) {
                    throw new InvalidArgumentException("take: index " + Long.toUnsignedString(v) + " of "
                            + describe(indices) + " is out of bounds for " + describe(x));
                }
            }
        }
        return take(x, values, axis);
    }

    /**
     * The elements of {@code x} at {@code indices} along the last axis ({@code take_along_axis(x, indices)}); see
     * {@link #takeAlongAxis(CubedArray, CubedArray, int)}.
     */
    public static CubedArray takeAlongAxis(CubedArray x, CubedArray indices) {
        return takeAlongAxis(x, indices, -1);
    }

    /**
     * The elements of {@code x} at {@code indices} along {@code axis} ({@code take_along_axis}): {@code indices} is an
     * integer array of {@code x}'s rank; the result has its length along the axis and the broadcast of both shapes on
     * the other axes, and element {@code [..., j, ...]} is {@code x[..., indices[..., j, ...], ...]}. Negative indices
     * count from the end; an index outside {@code [-n, n)} fails the computation, naming it. One operation: each task
     * reads its chunk of indices and then only the chunks of {@code x} along the axis they point into, one at a time.
     */
    public static CubedArray takeAlongAxis(CubedArray x, CubedArray indices, int axis) {
        return TakeAlongAxis.build(x, indices, axis);
    }

    /**
     * The array made of the chunks of {@code x} that {@code key} selects, by chunk index: Dask's {@code x.blocks[...]}.
     * Integers select one chunk and keep the axis; slices (any step) and integer arrays select several. Every selected
     * chunk but the last along an axis must be a whole chunk, so that the result has regular chunks.
     */
    public static CubedArray blocks(CubedArray x, Index... key) {
        ChunkGrid grid = x.chunks();
        Index[] expanded = expandEllipsis("blocks", x, key);
        Index[] elements = new Index[x.ndim()];
        for (int a = 0; a < x.ndim(); a++) {
            long count = grid.chunksPerAxis(a);
            long c = grid.chunkShape(a);
            long n = grid.shape(a);
            Index item = expanded[a];
            long[] chunks;
            if (item instanceof Index.NewAxis) {
                throw new InvalidArgumentException("blocks: new axes are not allowed in " + keyString(key));
            } else if (item instanceof Index.At at) {
                chunks = new long[] {normalizeIndex("blocks", x, a, at.index(), count)};
            } else if (item instanceof Index.Slice s) {
                long[] r = sliceRange(s, count, "blocks", x, a);
                if (r[1] == 1) {
                    long stop = r[0] + r[2];
                    elements[a] = Index.slice(r[0] * c, Math.min(stop * c, n));
                    continue;
                }
                chunks = new long[(int) r[2]];
                for (int k = 0; k < chunks.length; k++) {
                    chunks[k] = r[0] + r[1] * k;
                }
            } else {
                long[] given = ((Index.Take) item).indices();
                chunks = new long[given.length];
                for (int k = 0; k < given.length; k++) {
                    chunks[k] = normalizeIndex("blocks", x, a, given[k], count);
                }
            }
            List<Long> positions = new ArrayList<>();
            for (int k = 0; k < chunks.length; k++) {
                long start = chunks[k] * c;
                long end = Math.min(start + c, n);
                if (end - start < c && k < chunks.length - 1) {
                    throw new InvalidArgumentException("blocks: " + describe(x) + " axis " + a + ": the partial edge "
                            + "chunk " + chunks[k] + " may only be selected last, but " + keyString(key)
                            + " selects it before other chunks (the result would have irregular chunks)");
                }
                for (long p = start; p < end; p++) {
                    positions.add(p);
                }
            }
            elements[a] =
                    new Index.Take(positions.stream().mapToLong(Long::longValue).toArray());
        }
        return select("blocks", x, elements, true);
    }

    // ---- the common implementation ----

    private static CubedArray select(String op, CubedArray x, Index[] key, boolean keepChunks) {
        Index[] expanded = expandEllipsis(op, x, key);
        int nd = x.ndim();
        ChunkGrid in = x.chunks();
        Selection[] sel = new Selection[nd];
        List<Integer> outOfInput = new ArrayList<>();
        List<Long> outShape = new ArrayList<>();
        List<Integer> outChunks = new ArrayList<>();
        List<Integer> plainChunks = new ArrayList<>();
        int[] outAxis = new int[nd];
        int a = 0;
        boolean whole = true;
        for (Index item : expanded) {
            if (item instanceof Index.NewAxis) {
                outOfInput.add(-1);
                outShape.add(1L);
                outChunks.add(1);
                plainChunks.add(1);
                whole = false;
                continue;
            }
            long n = in.shape(a);
            int c = in.chunkShape(a);
            if (item instanceof Index.At at) {
                long i = normalizeIndex(op, x, a, at.index(), n);
                sel[a] = Selection.range(i, 1, 1);
                outAxis[a] = -1;
                whole = false;
            } else if (item instanceof Index.Slice s) {
                long[] r = sliceRange(s, n, op, x, a);
                sel[a] = Selection.range(r[0], r[1], r[2]);
                // A positive step that keeps every element (a step > 1 only on an axis of length <= 1) is the axis.
                whole &= r[1] > 0 && r[2] == n;
            } else {
                long[] given = ((Index.Take) item).indices();
                long[] idx = new long[given.length];
                for (int k = 0; k < idx.length; k++) {
                    idx[k] = normalizeIndex(op, x, a, given[k], n);
                }
                sel[a] = Selection.list(idx);
                whole &= keepChunks && isIdentity(idx, n);
            }
            if (!(item instanceof Index.At)) {
                outAxis[a] = outShape.size();
                outOfInput.add(a);
                long len = sel[a].length();
                outShape.add(len);
                long step = item instanceof Index.Slice ? Math.abs(sel[a].step()) : 1;
                outChunks.add(clip(steppedChunkLength(c, step), len));
                plainChunks.add(clip(c, len));
            }
            a++;
        }
        if (whole) {
            return x;
        }
        long[] shape = outShape.stream().mapToLong(Long::longValue).toArray();
        // An empty result keeps the input's chunk lengths (clipped), whatever the steps: Cubed's empty() case.
        boolean empty = Arrays.stream(shape).anyMatch(len -> len == 0);
        ChunkGrid outGrid = ChunkGrid.of(
                shape,
                (empty ? plainChunks : outChunks)
                        .stream().mapToInt(Integer::intValue).toArray());
        AxisMap[] maps = new AxisMap[nd];
        long[] fixed = new long[nd];
        for (int i = 0; i < nd; i++) {
            Selection s = sel[i];
            if (outAxis[i] < 0) {
                fixed[i] = s.start();
            } else {
                maps[i] = s.indices() != null
                        ? AxisMap.list(s.indices())
                        : AxisMap.affine(s.start(), s.step(), in.shape(i));
            }
        }
        return Layout.single(op, x, outGrid, outAxis, maps, fixed, null);
    }

    /**
     * The output chunk length along an axis of input chunk length {@code c} sliced with step {@code ±step}, before
     * clipping to the output's length: Cubed's rule. A slice first gives chunks of {@code max(c / step, 1)} elements
     * (the elements one input chunk holds), which Cubed then merges, {@code step} of them at a time, into chunks of
     * {@code (c / step) · step} elements (the largest multiple of {@code step} within {@code c}); when
     * {@code step > c} the chunks of 1 merge back to {@code c}. A negative step is the same positive slice flipped,
     * and a flip keeps the chunks, so only {@code |step|} counts.
     */
    static long steppedChunkLength(int c, long step) {
        if (step <= 1) {
            return c;
        }
        long perChunk = c / step;
        return perChunk < 1 ? c : perChunk * step;
    }

    /** A chunk length clipped to an axis of length {@code len}, and at least 1 (Cubed's {@code to_chunksize}). */
    private static int clip(long chunk, long len) {
        return (int) Math.max(1, Math.min(chunk, len));
    }

    private static boolean isIdentity(long[] idx, long n) {
        if (idx.length != n) {
            return false;
        }
        for (int k = 0; k < idx.length; k++) {
            if (idx[k] != k) {
                return false;
            }
        }
        return true;
    }

    /** The key with its ellipsis (or a missing tail) replaced by whole slices; checks the number of items. */
    private static Index[] expandEllipsis(String op, CubedArray x, Index[] key) {
        int ellipses = 0;
        int consuming = 0;
        for (Index item : key) {
            if (item == null) {
                throw new InvalidArgumentException(op + ": null item in the key for " + describe(x));
            }
            if (item instanceof Index.Ellipsis) {
                ellipses++;
            } else if (!(item instanceof Index.NewAxis)) {
                consuming++;
            }
        }
        if (ellipses > 1) {
            throw new InvalidArgumentException(op + ": " + keyString(key) + " has more than one ellipsis");
        }
        if (consuming > x.ndim()) {
            throw new InvalidArgumentException(op + ": " + keyString(key) + " indexes " + consuming + " axes, but "
                    + describe(x) + " has " + x.ndim());
        }
        List<Index> out = new ArrayList<>();
        boolean expanded = false;
        for (Index item : key) {
            if (item instanceof Index.Ellipsis) {
                for (int k = 0; k < x.ndim() - consuming; k++) {
                    out.add(Index.all());
                }
                expanded = true;
            } else {
                out.add(item);
            }
        }
        if (!expanded) {
            for (int k = 0; k < x.ndim() - consuming; k++) {
                out.add(Index.all());
            }
        }
        return out.toArray(new Index[0]);
    }

    /** {@code {start, step, length}} of a slice on an axis of length {@code n}, as Python's {@code slice.indices}. */
    static long[] sliceRange(Index.Slice s, long n, String op, CubedArray x, int axis) {
        long step = s.step();
        if (step == 0) {
            throw new InvalidArgumentException(
                    op + ": slice " + s + " on axis " + axis + " of " + describe(x) + " has step 0");
        }
        long start;
        long stop;
        if (step > 0) {
            start = s.start() == null ? 0 : clamp(s.start(), n, 0, n);
            stop = s.stop() == null ? n : clamp(s.stop(), n, 0, n);
        } else {
            start = s.start() == null ? n - 1 : clamp(s.start(), n, -1, n - 1);
            stop = s.stop() == null ? -1 : clamp(s.stop(), n, -1, n - 1);
        }
        long length = step > 0
                ? (stop > start ? (stop - start + step - 1) / step : 0)
                : (start > stop ? (start - stop - step - 1) / -step : 0);
        return new long[] {start, step, length};
    }

    private static long clamp(long bound, long n, long lo, long hi) {
        long b = bound < 0 ? bound + n : bound;
        return Math.max(lo, Math.min(hi, b));
    }

    private static long normalizeIndex(String op, CubedArray x, int axis, long i, long n) {
        long j = i < 0 ? i + n : i;
        if (j < 0 || j >= n) {
            throw new InvalidArgumentException(op + ": index " + i + " is out of bounds for axis " + axis + " of "
                    + describe(x) + " (length " + n + ")");
        }
        return j;
    }

    private static int normalizeAxis(String op, CubedArray x, int axis) {
        int a = axis < 0 ? axis + x.ndim() : axis;
        if (a < 0 || a >= x.ndim()) {
            throw new InvalidArgumentException(op + ": axis " + axis + " is out of range for " + describe(x));
        }
        return a;
    }

    private static String keyString(Index[] key) {
        StringBuilder sb = new StringBuilder("[");
        for (int i = 0; i < key.length; i++) {
            sb.append(i == 0 ? "" : ", ").append(key[i]);
        }
        return sb.append(']').toString();
    }

    private static String describe(CubedArray x) {
        return "array '" + x.name() + "' (shape " + Arrays.toString(x.shape()) + ")";
    }

    // ---- what tasks run ----

    /**
     * The selection along one input axis: output element {@code k} reads input element {@code start + step·k}
     * (a range) or {@code indices[k]} (a list).
     */
    private record Selection(long start, long step, long length, long[] indices) {
        static Selection range(long start, long step, long length) {
            return new Selection(start, step, length, null);
        }

        static Selection list(long[] indices) {
            return new Selection(0, 0, indices.length, indices);
        }
    }
}
