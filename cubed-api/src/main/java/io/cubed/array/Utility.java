package io.cubed.array;

import io.cubed.chunk.BinaryFunction;
import io.cubed.chunk.Chunk;
import io.cubed.chunk.Elementwise;
import io.cubed.chunk.ReduceFunction;
import io.cubed.chunk.Scans;
import io.cubed.dtype.Scalar;
import io.cubed.error.InvalidArgumentException;
import io.cubed.grid.ChunkGrid;
import io.cubed.plan.ArrayNode;
import io.cubed.plan.OpNode;
import io.cubed.primitive.ChunkArgs;
import io.cubed.primitive.ChunkFunction;
import io.cubed.primitive.NeighbourKeyFunction;
import java.util.List;

/**
 * Utility functions of the Array API standard: {@code all} and {@code any} (true where all / any elements are nonzero;
 * NaN counts as nonzero) as reductions, and {@code diff}. Building these runs nothing.
 */
public final class Utility {
    private Utility() {}

    /** True where every element is nonzero over every axis ({@code all}). */
    public static CubedArray all(CubedArray x) {
        return Reduction.reduce(x, ReduceFunction.ALL, ReductionOptions.all());
    }

    /** True where every element is nonzero over the axes of {@code options} ({@code all}). */
    public static CubedArray all(CubedArray x, ReductionOptions options) {
        return Reduction.reduce(x, ReduceFunction.ALL, options);
    }

    /** True where some element is nonzero over every axis ({@code any}). */
    public static CubedArray any(CubedArray x) {
        return Reduction.reduce(x, ReduceFunction.ANY, ReductionOptions.all());
    }

    /** True where some element is nonzero over the axes of {@code options} ({@code any}). */
    public static CubedArray any(CubedArray x, ReductionOptions options) {
        return Reduction.reduce(x, ReduceFunction.ANY, options);
    }

    /**
     * The {@code n}-th discrete difference along {@code axis}: {@code out[i] = x[i + 1] - x[i]}, applied {@code n}
     * times, each time one element shorter along the axis ({@code diff}; without prepend and append). The result has
     * the input's type (integers wrap around); each output chunk reads its input chunk and the next one.
     *
     * @throws InvalidArgumentException for a bool or 0-d input, a bad axis, or a negative {@code n}
     */
    public static CubedArray diff(CubedArray x, int axis, int n) {
        if (x.ndim() == 0) {
            throw new InvalidArgumentException(
                    "diff of " + x.name() + ": needs an array of rank 1 or more, got a " + "0-d array");
        }
        int a = Reduction.normalizeAxis("diff", x, axis);
        if (n < 0) {
            throw new InvalidArgumentException("diff of " + x.name() + ": n must be >= 0, got " + n);
        }
        if (x.dtype() == io.cubed.dtype.DType.BOOL) {
            throw new InvalidArgumentException("diff of " + x.name() + ": data type bool is not supported; diff "
                    + "requires a numeric data type");
        }
        CubedArray r = x;
        for (int i = 0; i < n; i++) {
            r = diffOnce(r, a);
        }
        return r;
    }

    /**
     * {@link #diff(CubedArray, int, int)} of {@code x} with {@code prepend} and {@code append} (either may be null)
     * joined to it along {@code axis} first, as the standard's {@code diff(x, axis=, n=, prepend=, append=)}: they
     * must have {@code x}'s rank and shape except along {@code axis}, and a data type {@code x}'s combines with.
     */
    public static CubedArray diff(CubedArray x, int axis, int n, CubedArray prepend, CubedArray append) {
        if (x.ndim() == 0) {
            throw new InvalidArgumentException(
                    "diff of " + x.name() + ": needs an array of rank 1 or more, got a " + "0-d array");
        }
        int a = Reduction.normalizeAxis("diff", x, axis);
        List<CubedArray> parts = new java.util.ArrayList<>();
        for (CubedArray p : java.util.Arrays.asList(prepend, x, append)) {
            if (p == null) {
                continue;
            }
            if (p != x) {
                long[] want = x.shape();
                long[] got = p.shape();
                boolean ok = got.length == want.length;
                for (int d = 0; ok && d < want.length; d++) {
                    ok = d == a || got[d] == want[d];
                }
                if (!ok) {
                    throw new InvalidArgumentException("diff of " + x.name() + ": "
                            + (p == prepend ? "prepend" : "append")
                            + " " + p.name() + " has shape " + java.util.Arrays.toString(got) + ", but it must have the"
                            + " shape of x " + java.util.Arrays.toString(want) + " except along axis " + a);
                }
            }
            parts.add(p);
        }
        CubedArray joined = parts.size() == 1 ? x : Manipulation.concat(parts, a);
        return diff(joined, a, n);
    }

    /**
     * {@link #diff(CubedArray, int, int, CubedArray, CubedArray)} with scalar {@code prepend} and {@code append}
     * (either may be null), each standing for one slice of {@code x}'s type along {@code axis}, as NumPy broadcasts
     * them; an integer scalar must fit {@code x}'s integer type, as for {@code add}.
     */
    public static CubedArray diff(CubedArray x, int axis, int n, Scalar prepend, Scalar append) {
        if (x.ndim() == 0) {
            return diff(x, axis, n);
        }
        int a = Reduction.normalizeAxis("diff", x, axis);
        for (Scalar s : new Scalar[] {prepend, append}) {
            if (s != null) {
                ElementwiseOps.checkScalarFits("diff", x, s, x.dtype());
            }
        }
        long[] shape = x.shape();
        shape[a] = 1;
        int[] chunks = x.chunkShape();
        chunks[a] = 1;
        CubedArray p = prepend == null ? null : Creation.full(shape, prepend, chunks, x.dtype(), x.spec());
        CubedArray q = append == null ? null : Creation.full(shape, append, chunks, x.dtype(), x.spec());
        return diff(x, a, n, p, q);
    }

    /** The first difference along the last axis ({@code diff(x)}). */
    public static CubedArray diff(CubedArray x) {
        return diff(x, -1, 1);
    }

    private static CubedArray diffOnce(CubedArray x, int axis) {
        ArrayNode in = x.node();
        ChunkGrid g = in.grid();
        long[] shape = g.shape();
        shape[axis] = Math.max(0, shape[axis] - 1);
        ChunkGrid out = ChunkGrid.of(shape, g.chunkShape());
        long elements = g.chunkSize() + g.chunkSize() / Math.max(1, g.chunkShape(axis));
        OpNode op = OpNode.blockwise(
                "diff",
                List.of(in),
                new NeighbourKeyFunction(axis, g.chunksPerAxis(axis)),
                new DiffChunks(axis),
                new int[] {2},
                3 * elements * x.dtype().itemSizeBytes() + 3 * 8 * elements,
                List.of(x.dtype()),
                List.of(out),
                "each output chunk reads its input chunk and the next one along axis " + axis);
        return CubedArray.of(op.outputs().get(0), x.spec());
    }

    /** {@code x[i + 1] - x[i]} along the axis for the output chunk's elements. */
    private record DiffChunks(int axis) implements ChunkFunction {
        @Override
        public Chunk[] apply(ChunkArgs args, long[] outputCoords) {
            List<Chunk> in = args.chunks(0);
            Chunk first = in.get(0);
            int len = first.shape(axis);
            int outLen = in.size() > 1 ? len : len - 1;
            int[] extShape = first.shape();
            extShape[axis] = outLen + 1;
            Chunk ext = Chunk.allocate(first.dtype(), extShape);
            Chunk.copyRegion(first, new int[extShape.length], ext, new int[extShape.length], first.shape());
            if (in.size() > 1) {
                int[] dst = new int[extShape.length];
                dst[axis] = len;
                int[] one = first.shape();
                one[axis] = 1;
                Chunk.copyRegion(in.get(1), new int[extShape.length], ext, dst, one);
            }
            Chunk hi = Scans.slice(ext, axis, 1, outLen + 1);
            Chunk lo = Scans.slice(ext, axis, 0, outLen);
            return new Chunk[] {Elementwise.binary(BinaryFunction.SUBTRACT, hi, lo)};
        }
    }
}
