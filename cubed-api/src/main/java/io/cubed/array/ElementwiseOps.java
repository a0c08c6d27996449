package io.cubed.array;

import io.cubed.chunk.BinaryFunction;
import io.cubed.chunk.Chunk;
import io.cubed.chunk.UnaryFunction;
import io.cubed.dtype.DType;
import io.cubed.dtype.DTypes;
import io.cubed.dtype.Scalar;
import io.cubed.error.InvalidArgumentException;
import java.util.Arrays;
import java.util.List;

/**
 * How a call of {@link Elementwise} becomes one blockwise operation: everything that can be checked without data is
 * checked at the call (domains, promotions, scalar ranges, broadcasting), the memory the chunk kernels need beyond
 * the input and output chunks is added to the task's projection, and the chunk functions apply the kernels of
 * {@link io.cubed.chunk.Elementwise}. Shared by every function of the tables {@link UnaryFunction} and
 * {@link BinaryFunction}, by every form of {@code clip}, by {@code astype}, and by {@code divide} (which widens integers
 * first).
 */
final class ElementwiseOps {
    private ElementwiseOps() {}

    /** {@link Elementwise#unary}: the domain checked, then one task per chunk. */
    static CubedArray unary(UnaryFunction f, CubedArray x) {
        DType t = x.dtype();
        if (!f.domain().accepts(t)) {
            throw new InvalidArgumentException(f.pythonName() + ": " + describe(x) + " has data type " + t
                    + ", but the Array API standard requires " + f.domain().description());
        }
        DType rt = f.resultType(t);
        long elements = chunkElements(List.of(x));
        long scratch = io.cubed.chunk.Elementwise.unaryScratchBytes(f, t, elements);
        long tile = tileElements(elements);
        long onTile = tileBytes(io.cubed.chunk.Elementwise.unaryScratchBytes(f, t, tile), rt, tile, elements);
        return Blockwise.mapBlocks(f.pythonName(), new UnaryBlocks(f), options(rt, scratch, onTile), List.of(x))
                .withDimsOf(x);
    }

    /** {@link Elementwise#binary(BinaryFunction, CubedArray, CubedArray)}: promotion and domain checked first. */
    static CubedArray binary(BinaryFunction f, CubedArray a, CubedArray b) {
        DType pt;
        try {
            pt = DTypes.resultType(a.dtype(), b.dtype());
        } catch (InvalidArgumentException e) {
            throw new InvalidArgumentException(
                    f.pythonName() + ": the Array API standard defines no promotion between " + describe(a) + " and "
                            + describe(b) + "; cast one of them with astype",
                    e);
        }
        if (!f.domain().accepts(pt)) {
            throw new InvalidArgumentException(f.pythonName() + ": " + describe(a) + " and " + describe(b)
                    + " promote to " + pt + ", but the Array API standard requires "
                    + f.domain().description());
        }
        long aElements = chunkElements(List.of(a));
        long bElements = chunkElements(List.of(b));
        long out = chunkElements(List.of(a, b));
        long scratch =
                io.cubed.chunk.Elementwise.binaryScratchBytes(f, a.dtype(), b.dtype(), aElements, bElements, out);
        long tile = tileElements(out);
        long onTile = tileBytes(
                io.cubed.chunk.Elementwise.binaryScratchBytes(
                        f,
                        a.dtype(),
                        b.dtype(),
                        operandOnTile(aElements, out, tile),
                        operandOnTile(bElements, out, tile),
                        tile),
                f.resultType(pt),
                tile,
                out);
        return Blockwise.mapBlocks(
                        f.pythonName(), new BinaryBlocks(f), options(f.resultType(pt), scratch, onTile), List.of(a, b))
                .withDimsOf(a, b);
    }

    /** {@code f(a, b)} with a Python-style scalar {@code b}, typed by {@link DTypes#resultTypeWithScalar}. */
    static CubedArray binary(BinaryFunction f, CubedArray a, Scalar b) {
        DType rt = probe(a, b, () -> io.cubed.chunk.Elementwise.binary(f, zero(a), b));
        return withScalar(f, a, b, rt, new ScalarRightBlocks(f, b));
    }

    /** {@code f(a, b)} with a Python-style scalar {@code a}, typed by {@link DTypes#resultTypeWithScalar}. */
    static CubedArray binary(BinaryFunction f, Scalar a, CubedArray b) {
        DType rt = probe(b, a, () -> io.cubed.chunk.Elementwise.binary(f, a, zero(b)));
        return withScalar(f, b, a, rt, new ScalarLeftBlocks(f, a));
    }

    private static CubedArray withScalar(BinaryFunction f, CubedArray x, Scalar s, DType rt, BlockFunction fn) {
        long n = chunkElements(List.of(x));
        DType working = DTypes.resultTypeWithScalar(x.dtype(), s.form());
        long scratch = withScalarScratch(f, x.dtype(), working, n);
        long tile = tileElements(n);
        long onTile = tileBytes(withScalarScratch(f, x.dtype(), working, tile), rt, tile, n);
        return Blockwise.mapBlocks(f.pythonName(), fn, options(rt, scratch, onTile), List.of(x))
                .withDimsOf(x);
    }

    /** What {@code f(x, scalar)} allocates on {@code n} elements of type {@code t} beyond its result. */
    private static long withScalarScratch(BinaryFunction f, DType t, DType working, long n) {
        return io.cubed.chunk.Elementwise.astypeScratchBytes(t, working, n)
                + (t == working ? 0 : n * working.itemSizeBytes())
                + io.cubed.chunk.Elementwise.binaryScratchBytes(f, working, working, n, 1, n);
    }

    /**
     * {@link Elementwise#clip(CubedArray, CubedArray, CubedArray)}: each bound given must keep x's type and broadcast
     * to x's shape; the bounds' chunks follow x's in each task.
     */
    static CubedArray clip(CubedArray x, CubedArray min, CubedArray max) {
        checkClipInput(x);
        List<CubedArray> inputs = new java.util.ArrayList<>(List.of(x));
        for (CubedArray bound : Arrays.asList(min, max)) {
            if (bound == null) {
                continue;
            }
            String which = bound == min ? "min" : "max";
            DType t;
            try {
                t = DTypes.resultType(x.dtype(), bound.dtype());
            } catch (InvalidArgumentException e) {
                throw new InvalidArgumentException(
                        "clip: " + which + " " + describe(bound) + " cannot be combined with " + describe(x)
                                + "; the Array API standard defines no promotion between them",
                        e);
            }
            if (t != x.dtype()) {
                throw new InvalidArgumentException("clip: " + which + " " + describe(bound)
                        + " would promote the result from " + x.dtype() + " to " + t);
            }
            checkBroadcastsInto("clip", which, bound, x);
            inputs.add(bound);
        }
        long n = chunkElements(List.of(x));
        long scratch =
                2 * io.cubed.chunk.Elementwise.binaryScratchBytes(BinaryFunction.MAXIMUM, x.dtype(), x.dtype(), n, n, n)
                        + 2 * n * x.dtype().itemSizeBytes();
        long tile = tileElements(n);
        long boundOnTile = tile;
        for (int j = 1; j < inputs.size(); j++) {
            long e = operandOnTile(chunkElements(List.of(inputs.get(j))), n, tile);
            boundOnTile = e == tile ? boundOnTile : e;
        }
        long onTile = tileBytes(
                2
                                * io.cubed.chunk.Elementwise.binaryScratchBytes(
                                        BinaryFunction.MAXIMUM, x.dtype(), x.dtype(), tile, boundOnTile, tile)
                        + 2 * tile * x.dtype().itemSizeBytes(),
                x.dtype(),
                tile,
                n);
        return Blockwise.mapBlocks(
                        "clip",
                        new ClipBlocks(min != null, max != null, null, null),
                        options(x.dtype(), scratch, onTile),
                        inputs)
                .withDimsOf(x, min, max);
    }

    /** {@link Elementwise#clip(CubedArray, Scalar, Scalar)}: the scalars travel inside the chunk function. */
    static CubedArray clip(CubedArray x, Scalar min, Scalar max) {
        checkScalarBounds(x, min, max);
        long n = chunkElements(List.of(x));
        long scratch = scalarClipScratch(x.dtype(), n);
        long tile = tileElements(n);
        long onTile = tileBytes(scalarClipScratch(x.dtype(), tile), x.dtype(), tile, n);
        return Blockwise.mapBlocks(
                        "clip", new ClipBlocks(false, false, min, max), options(x.dtype(), scratch, onTile), List.of(x))
                .withDimsOf(x);
    }

    /** What {@code clip} with scalar bounds allocates on {@code n} elements of type {@code t} beyond its result. */
    private static long scalarClipScratch(DType t, long n) {
        return 2 * io.cubed.chunk.Elementwise.binaryScratchBytes(BinaryFunction.MAXIMUM, t, t, n, 1, n)
                + 2 * n * t.itemSizeBytes();
    }

    /** {@link Elementwise#astype}: no operation at all when the type is already {@code dtype}. */
    static CubedArray astype(CubedArray x, DType dtype) {
        if (x.dtype() == dtype) {
            return x;
        }
        if (x.dtype().isComplex() && !dtype.isComplex() && dtype != DType.BOOL) {
            throw new InvalidArgumentException("astype: casting " + describe(x) + " to " + dtype
                    + " is not allowed by the Array API standard (it would drop the imaginary part); "
                    + "use real() or abs() first");
        }
        long n = chunkElements(List.of(x));
        long scratch = io.cubed.chunk.Elementwise.astypeScratchBytes(x.dtype(), dtype, n);
        long tile = tileElements(n);
        long onTile = tileBytes(io.cubed.chunk.Elementwise.astypeScratchBytes(x.dtype(), dtype, tile), dtype, tile, n);
        return Blockwise.mapBlocks("astype", new AstypeBlocks(dtype), options(dtype, scratch, onTile), List.of(x))
                .withDimsOf(x);
    }

    /** {@code clip} with an array lower bound and a scalar upper one (either may be null). */
    static CubedArray clip(CubedArray x, CubedArray min, Scalar max) {
        return clip(x, min, max == null ? null : scalarBound(x, null, max));
    }

    /** {@code clip} with a scalar lower bound and an array upper one (either may be null). */
    static CubedArray clip(CubedArray x, Scalar min, CubedArray max) {
        return clip(x, min == null ? null : scalarBound(x, min, null), max);
    }

    /**
     * The one scalar bound given ({@code min} or {@code max}) as a 0-d array of {@code x}'s type, once it has passed
     * the check the all-scalar {@code clip} makes.
     */
    private static CubedArray scalarBound(CubedArray x, Scalar min, Scalar max) {
        checkScalarBounds(x, min, max);
        return Creation.full(new long[0], min != null ? min : max, new int[0], x.dtype(), x.spec());
    }

    /**
     * {@link Elementwise#divide(CubedArray, CubedArray)}: NumPy's true division, so two integer operands are cast to
     * float64 first.
     */
    static CubedArray divide(CubedArray a, CubedArray b) {
        if (a.dtype().isInteger() && b.dtype().isInteger()) {
            return binary(BinaryFunction.DIVIDE, toFloat64IfInteger(a), toFloat64IfInteger(b));
        }
        return binary(BinaryFunction.DIVIDE, a, b);
    }

    /** {@code divide} with a scalar divisor: an integer array is cast to float64 first. */
    static CubedArray divide(CubedArray a, Scalar b) {
        return binary(BinaryFunction.DIVIDE, toFloat64IfInteger(a), b);
    }

    /** {@code divide} with a scalar dividend: an integer array is cast to float64 first. */
    static CubedArray divide(Scalar a, CubedArray b) {
        return binary(BinaryFunction.DIVIDE, a, toFloat64IfInteger(b));
    }

    private static CubedArray toFloat64IfInteger(CubedArray x) {
        return x.dtype().isInteger() ? astype(x, DType.FLOAT64) : x;
    }

    /** Refuses scalar clip bounds (either may be null) that {@code x}'s type cannot take, naming {@code x}. */
    private static void checkScalarBounds(CubedArray x, Scalar min, Scalar max) {
        checkClipInput(x);
        try {
            io.cubed.chunk.Elementwise.clip(zero(x), min, max);
        } catch (InvalidArgumentException e) {
            throw new InvalidArgumentException(e.getMessage() + " (" + describe(x) + ")", e);
        }
    }

    private static void checkClipInput(CubedArray x) {
        if (!x.dtype().isInteger() && !x.dtype().isFloating()) {
            throw new InvalidArgumentException("clip: " + describe(x) + " has data type " + x.dtype()
                    + ", but the Array API standard requires a real-valued data type");
        }
    }

    /** Checks that {@code bound} broadcasts to the shape of {@code x} without changing it. */
    private static void checkBroadcastsInto(String op, String which, CubedArray bound, CubedArray x) {
        long[] bs = bound.shape();
        long[] xs = x.shape();
        boolean ok = bs.length <= xs.length;
        for (int i = 1; ok && i <= bs.length; i++) {
            long len = bs[bs.length - i];
            ok = len == 1 || len == xs[xs.length - i];
        }
        if (!ok) {
            throw new InvalidArgumentException(op + ": " + which + " " + describe(bound)
                    + " does not broadcast to the shape " + Arrays.toString(xs) + " of " + describe(x));
        }
    }

    /** Runs {@code check} on a one-element chunk to validate types and scalar ranges; returns the result type. */
    private static DType probe(CubedArray x, Scalar s, java.util.function.Supplier<Chunk> check) {
        try {
            return check.get().dtype();
        } catch (InvalidArgumentException e) {
            throw naming(x, s, e);
        }
    }

    /**
     * Refuses an integer scalar {@code s} that does not fit the integer type {@code t} it becomes an element of in
     * {@code op} on {@code x} ({@link DTypes#checkScalarFits}, the check of {@code add}), with the message of
     * {@code add}: the operation, the value, the type's range and the array.
     */
    static void checkScalarFits(String op, CubedArray x, Scalar s, DType t) {
        try {
            DTypes.checkScalarFits(op, s, t);
        } catch (InvalidArgumentException e) {
            throw naming(x, s, e);
        }
    }

    private static InvalidArgumentException naming(CubedArray x, Scalar s, InvalidArgumentException e) {
        return new InvalidArgumentException(e.getMessage() + " (" + describe(x) + ", scalar " + s + ")", e);
    }

    /** A 0-d chunk of the type of {@code x}. */
    private static Chunk zero(CubedArray x) {
        return Chunk.allocate(x.dtype());
    }

    /** The number of elements of the largest output chunk of a blockwise operation on {@code arrays}. */
    static long chunkElements(List<CubedArray> arrays) {
        int nd = 0;
        for (CubedArray a : arrays) {
            nd = Math.max(nd, a.ndim());
        }
        long n = 1;
        for (int i = 1; i <= nd; i++) {
            int len = 1;
            for (CubedArray a : arrays) {
                int[] c = a.chunkShape();
                if (c.length >= i) {
                    len = Math.max(len, c[c.length - i]);
                }
            }
            n = Math.multiplyExact(n, len);
        }
        return n;
    }

    private static MapBlocksOptions options(DType dtype, long scratchBytes, long tileBytes) {
        return MapBlocksOptions.builder(dtype)
                .extraMemBytes(scratchBytes)
                .tileMemBytes(tileBytes)
                .build();
    }

    /** The elements of the largest tile of an output chunk of {@code chunkElements} elements. */
    static long tileElements(long chunkElements) {
        return Math.max(1, Math.min(chunkElements, io.cubed.primitive.ElementwiseChunkFunction.tileElements()));
    }

    /**
     * The elements an operand of {@code operandElements} per chunk has on a tile of {@code tile} elements of an output
     * chunk of {@code outElements}: the tile's, one (a scalar), or, for an operand broadcast against the output, fewer
     * than the tile's (at most its own chunk's), which the kernels expand to the tile; the scratch formulas count that
     * expansion only for an operand of fewer elements than the result.
     */
    static long operandOnTile(long operandElements, long outElements, long tile) {
        if (operandElements == outElements) {
            return tile;
        }
        if (operandElements == 1) {
            return 1;
        }
        return Math.max(1, Math.min(operandElements, tile - 1));
    }

    /**
     * What one elementwise operation holds on the tiles of a chunk ({@link
     * io.cubed.primitive.ElementwiseChunkFunction#tileWorkingBytes}): the kernel's working arrays {@code scratchOnTile}
     * and its {@code resultType} result on a tile of {@code tile} elements; twice when the chunk ({@code
     * chunkElements}) has several tiles, since they come in two lengths (the last along the tiled axis may be shorter)
     * and the tile arrays of both are kept.
     */
    static long tileBytes(long scratchOnTile, DType resultType, long tile, long chunkElements) {
        return (chunkElements > tile ? 2 : 1) * (scratchOnTile + tile * resultType.itemSizeBytes());
    }

    private static String describe(CubedArray x) {
        return "array '" + x.name() + "' (" + x.dtype() + ", shape " + Arrays.toString(x.shape()) + ")";
    }

    /** Chunk function of {@link #unary}. */
    private record UnaryBlocks(UnaryFunction f) implements ElementwiseBlockFunction {
        @Override
        public Chunk apply(Chunk[] blocks) {
            return io.cubed.chunk.Elementwise.unary(f, blocks[0]);
        }
    }

    /** Chunk function of {@link #binary(BinaryFunction, CubedArray, CubedArray)}. */
    private record BinaryBlocks(BinaryFunction f) implements ElementwiseBlockFunction {
        @Override
        public Chunk apply(Chunk[] blocks) {
            return io.cubed.chunk.Elementwise.binary(f, blocks[0], blocks[1]);
        }
    }

    /** Chunk function of {@code f(array, scalar)}. */
    private record ScalarRightBlocks(BinaryFunction f, Scalar b) implements ElementwiseBlockFunction {
        @Override
        public Chunk apply(Chunk[] blocks) {
            return io.cubed.chunk.Elementwise.binary(f, blocks[0], b);
        }
    }

    /** Chunk function of {@code f(scalar, array)}. */
    private record ScalarLeftBlocks(BinaryFunction f, Scalar a) implements ElementwiseBlockFunction {
        @Override
        public Chunk apply(Chunk[] blocks) {
            return io.cubed.chunk.Elementwise.binary(f, a, blocks[0]);
        }
    }

    /** Chunk function of both forms of {@code clip}: array bounds follow {@code x} in the blocks, in order. */
    private record ClipBlocks(boolean minArray, boolean maxArray, Scalar min, Scalar max)
            implements ElementwiseBlockFunction {
        @Override
        public Chunk apply(Chunk[] blocks) {
            if (!minArray && !maxArray) {
                return io.cubed.chunk.Elementwise.clip(blocks[0], min, max);
            }
            Chunk lo = minArray ? blocks[1] : null;
            Chunk hi = maxArray ? blocks[minArray ? 2 : 1] : null;
            return io.cubed.chunk.Elementwise.clip(blocks[0], lo, hi);
        }
    }

    /** Chunk function of {@link #astype}. */
    private record AstypeBlocks(DType to) implements ElementwiseBlockFunction {
        @Override
        public Chunk apply(Chunk[] blocks) {
            return io.cubed.chunk.Elementwise.astype(blocks[0], to);
        }
    }
}
