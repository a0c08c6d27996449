package io.cubed.array;

import io.cubed.chunk.Chunk;
import io.cubed.chunk.ReduceFunction;
import io.cubed.chunk.Selection;
import io.cubed.dtype.DType;
import io.cubed.dtype.DTypes;
import io.cubed.dtype.Scalar;
import io.cubed.error.InvalidArgumentException;
import io.cubed.error.PlanException;
import io.cubed.grid.ChunkGrid;
import io.cubed.plan.OpNode;
import io.cubed.primitive.AxisMap;
import io.cubed.primitive.SearchSorted;
import java.util.List;

/**
 * Searching functions of the Array API: {@link #where} and {@link #searchsorted} (bounded memory, see
 * docs/manipulation.md); the indexes of extremes ({@code argmax}, {@code argmin}, along one axis or, without an axis,
 * into the array flattened in C order; ties give the first occurrence), their NaN-aware forms and
 * {@code count_nonzero}, which are reductions (int64 results, see docs/reductions.md); {@link #nonzero} has a
 * data-dependent shape and is refused. Building these runs nothing.
 */
public final class Searching {
    private Searching() {}

    /**
     * Elements of {@code x1} where {@code condition} is true, else of {@code x2} ({@code where}): the three broadcast
     * NumPy-style, {@code x1} and {@code x2} promoted to their result type, {@code condition} bool.
     */
    public static CubedArray where(CubedArray condition, CubedArray x1, CubedArray x2) {
        if (condition.dtype() != DType.BOOL) {
            throw new InvalidArgumentException("where: the condition " + Layout.describe(condition) + " is "
                    + condition.dtype() + "; it must be bool");
        }
        DType t;
        try {
            t = DTypes.resultType(x1.dtype(), x2.dtype());
        } catch (InvalidArgumentException e) {
            throw new InvalidArgumentException(
                    "where: the Array API standard defines no promotion between " + x1.name() + " " + x1.dtype()
                            + " and " + x2.name() + " " + x2.dtype() + "; cast one with astype",
                    e);
        }
        Layout.broadcastShape("where", List.of(condition, x1, x2));
        long out = ElementwiseOps.chunkElements(List.of(condition, x1, x2));
        long scratch = out * (1 + 3L * t.itemSizeBytes());
        long tile = ElementwiseOps.tileElements(out);
        return Blockwise.mapBlocks(
                "where",
                new WhereBlocks(t),
                MapBlocksOptions.builder(t)
                        .extraMemBytes(scratch)
                        .tileMemBytes(ElementwiseOps.tileBytes(tile * (1 + 3L * t.itemSizeBytes()), t, tile, out))
                        .build(),
                List.of(condition, x1, x2));
    }

    /**
     * {@link #where(CubedArray, CubedArray, CubedArray)} with a Python-style scalar {@code x2}, which takes the type of
     * {@code x1}; an integer one must fit it ({@code where(c, int8Array, 1000)} is refused, as {@code add} refuses it).
     */
    public static CubedArray where(CubedArray condition, CubedArray x1, Scalar x2) {
        return where(condition, x1, scalarLike("where", x2, x1));
    }

    /** {@link #where(CubedArray, CubedArray, CubedArray)} with a Python-style scalar {@code x1} (checked likewise). */
    public static CubedArray where(CubedArray condition, Scalar x1, CubedArray x2) {
        return where(condition, scalarLike("where", x1, x2), x2);
    }

    /**
     * A 0-d array of {@code s} typed by the standard's scalar rules against {@code x}; an integer scalar must fit that
     * type, as in {@code add}.
     */
    private static CubedArray scalarLike(String op, Scalar s, CubedArray x) {
        DType t = scalarType(op, s, x);
        ElementwiseOps.checkScalarFits(op, x, s, t);
        return Creation.full(new long[0], s, new int[0], t, x.spec());
    }

    /** The type the standard's scalar rules give {@code s} against {@code x}. */
    private static DType scalarType(String op, Scalar s, CubedArray x) {
        try {
            return DTypes.resultTypeWithScalar(x.dtype(), s.form());
        } catch (InvalidArgumentException e) {
            throw new InvalidArgumentException(
                    op + ": scalar " + s + " cannot be combined with " + x.name() + " " + x.dtype(), e);
        }
    }

    /**
     * The indices at which the values {@code x2} would be inserted into the sorted 1-d {@code x1} to keep it sorted
     * ({@code searchsorted}), int64 in {@code x2}'s shape and chunks. Compared in the promoted type, NaN after
     * everything (NumPy's order). Two operations: the first element of each chunk of {@code x1} into one small array
     * (reads {@code x1} once), then one task per chunk of {@code x2}, which reads only the chunks of {@code x1} its
     * values fall into, one at a time.
     */
    public static CubedArray searchsorted(CubedArray x1, CubedArray x2, SearchSide side) {
        checkOneDimensional(x1);
        DType common = ordered("searchsorted", x1, x2);
        if (x1.size() == 0 || x2.size() == 0) {
            return Creation.zeros(x2.shape(), x2.chunkShape(), DType.INT64, x2.spec());
        }
        long len = x1.shape()[0];
        int c1 = x1.chunkShape()[0];
        long n1 = x1.chunks().chunksPerAxis(0);
        ChunkGrid boundsGrid = ChunkGrid.of(new long[] {n1}, new int[] {(int) n1});
        CubedArray bounds = Layout.single(
                "searchsorted bounds",
                x1,
                boundsGrid,
                new int[] {0},
                new AxisMap[] {AxisMap.affine(0, c1, len)},
                new long[1],
                null);
        SearchSorted f = new SearchSorted(n1, c1, common, side == SearchSide.RIGHT);
        long values = x2.chunks().chunkSize();
        long extra = 16 * values + 8 * n1 + 8L * c1 + 32 + (n1 + 2) * 32;
        OpNode op = OpNode.blockwise(
                "searchsorted",
                List.of(x2.node(), bounds.node(), x1.node()),
                f,
                f,
                new int[] {1, 1, 1},
                extra,
                List.of(DType.INT64),
                List.of(x2.chunks()));
        return CubedArray.of(op.outputs().get(0), Execution.commonSpec(List.of(x1, x2)));
    }

    /**
     * {@link #searchsorted(CubedArray, CubedArray, SearchSide)} of one Python-style scalar: a 0-d result. The value is
     * compared by its exact value, not converted: an integer outside the range of an integer {@code x1}'s type is
     * below or above every element, so the result is 0 or the length of {@code x1} on either side (1000 in an int8
     * array gives its length, −1 in a uint64 array gives 0), as NumPy answers. It is not an element of any array, so
     * unlike {@code where} or {@code add} there is nothing for it to overflow.
     */
    public static CubedArray searchsorted(CubedArray x1, Scalar x2, SearchSide side) {
        DType t = scalarType("searchsorted", x2, x1);
        if (!x2.fits(t)) {
            checkOneDimensional(x1);
            boolean below = !x2.isUnsignedAboveLongMax() && x2.longValue() < 0;
            return Creation.full(
                    new long[0], Scalar.ofLong(below ? 0 : x1.shape()[0]), new int[0], DType.INT64, x1.spec());
        }
        return searchsorted(x1, Creation.full(new long[0], x2, new int[0], t, x1.spec()), side);
    }

    private static void checkOneDimensional(CubedArray x1) {
        if (x1.ndim() != 1) {
            throw new InvalidArgumentException("searchsorted: " + Layout.describe(x1) + " must be one-dimensional");
        }
    }

    /** The promoted type of {@code a} and {@code b}, which must be real (ordered); {@code op} names failures. */
    static DType ordered(String op, CubedArray a, CubedArray b) {
        DType common;
        try {
            common = DTypes.resultType(a.dtype(), b.dtype());
        } catch (InvalidArgumentException e) {
            throw new InvalidArgumentException(
                    op + ": the Array API standard defines no promotion between " + a.name() + " " + a.dtype() + " and "
                            + b.name() + " " + b.dtype() + "; cast one with astype",
                    e);
        }
        if (common.isComplex()) {
            throw new InvalidArgumentException(op + ": " + a.name() + " " + a.dtype() + " and " + b.name() + " "
                    + b.dtype() + " compare as " + common + ", which has no order; use real-valued arrays");
        }
        return common;
    }

    /**
     * Refused ({@code nonzero}): the number of nonzero elements, hence the output shape, is known only after reading
     * the data, and every Cubed operation needs its output shape and chunks before it runs. Count with
     * {@code count_nonzero} first, or use {@link #where} to keep the shape.
     */
    public static List<CubedArray> nonzero(CubedArray x) {
        throw new PlanException("nonzero of " + x.name() + ": the output shape depends on the data (how many "
                + "elements are nonzero), but every operation of a plan needs its output shape and chunks before "
                + "anything runs; use where(condition, x, y) to keep the shape, or compute the count first");
    }

    /** The chunk function of {@link #where}. */
    private record WhereBlocks(DType dtype) implements ElementwiseBlockFunction {
        @Override
        public Chunk apply(Chunk[] blocks) {
            return Selection.where(blocks[0], blocks[1], blocks[2], dtype);
        }
    }

    /** The index of the maximum (of the first NaN, if any) over every axis ({@code argmax}). */
    public static CubedArray argmax(CubedArray x) {
        return Reduction.reduce(x, ReduceFunction.ARGMAX, ReductionOptions.all());
    }

    /** The index of the maximum (of the first NaN, if any) over the axes of {@code options} ({@code argmax}). */
    public static CubedArray argmax(CubedArray x, ReductionOptions options) {
        return Reduction.reduce(x, ReduceFunction.ARGMAX, options);
    }

    /** The index of the minimum (of the first NaN, if any) over every axis ({@code argmin}). */
    public static CubedArray argmin(CubedArray x) {
        return Reduction.reduce(x, ReduceFunction.ARGMIN, ReductionOptions.all());
    }

    /** The index of the minimum (of the first NaN, if any) over the axes of {@code options} ({@code argmin}). */
    public static CubedArray argmin(CubedArray x, ReductionOptions options) {
        return Reduction.reduce(x, ReduceFunction.ARGMIN, options);
    }

    /** The index of the maximum ignoring NaN; an all-NaN slice fails the computation over every axis ({@code nanargmax}). */
    public static CubedArray nanargmax(CubedArray x) {
        return Reduction.reduce(x, ReduceFunction.NANARGMAX, ReductionOptions.all());
    }

    /** The index of the maximum ignoring NaN; an all-NaN slice fails the computation over the axes of {@code options} ({@code nanargmax}). */
    public static CubedArray nanargmax(CubedArray x, ReductionOptions options) {
        return Reduction.reduce(x, ReduceFunction.NANARGMAX, options);
    }

    /** The index of the minimum ignoring NaN; an all-NaN slice fails the computation over every axis ({@code nanargmin}). */
    public static CubedArray nanargmin(CubedArray x) {
        return Reduction.reduce(x, ReduceFunction.NANARGMIN, ReductionOptions.all());
    }

    /** The index of the minimum ignoring NaN; an all-NaN slice fails the computation over the axes of {@code options} ({@code nanargmin}). */
    public static CubedArray nanargmin(CubedArray x, ReductionOptions options) {
        return Reduction.reduce(x, ReduceFunction.NANARGMIN, options);
    }

    /** The number of nonzero elements over every axis ({@code count_nonzero}). */
    public static CubedArray countNonzero(CubedArray x) {
        return Reduction.reduce(x, ReduceFunction.COUNT_NONZERO, ReductionOptions.all());
    }

    /** The number of nonzero elements over the axes of {@code options} ({@code count_nonzero}). */
    public static CubedArray countNonzero(CubedArray x, ReductionOptions options) {
        return Reduction.reduce(x, ReduceFunction.COUNT_NONZERO, options);
    }
}
