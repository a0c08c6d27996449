package io.cubed.chunk;

import io.cubed.dtype.DType;
import io.cubed.dtype.DTypes;
import io.cubed.dtype.Scalar;
import io.cubed.error.InvalidArgumentException;
import java.util.Arrays;

/**
 * Elementwise functions of the Array API standard on chunks, with NumPy's semantics for every data type the standard
 * allows: integer arithmetic wraps around to the type's width, unsigned types compute on their stored bits, float32
 * results are rounded to float32, complex functions use the principal branch. Every function returns a new chunk and
 * leaves its inputs unchanged.
 *
 * <p>Binary functions promote their inputs with {@link DTypes#resultType} and broadcast their shapes with NumPy's
 * rules; inputs of a type a function does not accept, undefined promotions and incompatible shapes throw
 * {@link InvalidArgumentException} naming the function, the types and the shapes.
 *
 * <p>Where the standard leaves results implementation-defined we follow NumPy: integer floor_divide and remainder by
 * zero give 0; shifts by a negative count or by at least the width give 0 (or -1 for a negative value shifted right);
 * integer pow with a negative exponent throws; maximum and minimum propagate NaN. Deviations from the standard's
 * choice of types: divide requires floating-point inputs (integer true division is not defined); real and conj of
 * real-valued input (allowed since 2024.12) return a copy in the input's type, integers included, as NumPy does;
 * reciprocal also takes integers, computed as float64 (the standard's default floating type; NumPy would compute an
 * integer reciprocal).
 *
 * <p>Which loop runs is looked up in the tables {@link UnaryFunction} and {@link BinaryFunction}: this class converts
 * the inputs to the loops' working arrays and the results back. Where those working arrays are wider than the chunk's
 * elements (integers narrower than 64 bits widened to {@code long[]}, float32 and complex64 to {@code double[]},
 * inputs promoted first), a chunk of more than {@link #WIDE_BLOCK} elements is converted and computed a block at a
 * time, so that a call holds its inputs, its result and one block's working arrays.
 */
public final class Elementwise {
    private Elementwise() {}

    /**
     * Elements per block of the calls whose working arrays are wider than the chunk's elements. Converting a whole
     * chunk first made its working copies many times the chunk: an int8 chunk's {@code negative} held 17 times the
     * chunk's bytes ({@code long[]} in, {@code long[]} out, the result narrowed), {@code floor_divide} 26 times, and
     * the plan had to project them ({@link #unaryScratchBytes}). A block's working arrays (at most about 1 MB) stay in
     * a core's cache. Tiles of fused expressions are no larger ({@code ElementwiseTiles}), so they are not split again.
     */
    public static final int WIDE_BLOCK = 8192;

    /**
     * {@code f} applied to every element of {@code x}; the result has the shape of {@code x} and the type given by
     * {@link UnaryFunction#resultType}.
     *
     * @throws InvalidArgumentException when the type of {@code x} is not in {@link UnaryFunction#domain()}
     */
    public static Chunk unary(UnaryFunction f, Chunk x) {
        DType t = x.dtype();
        if (!f.domain().accepts(t)) {
            throw new InvalidArgumentException(f.pythonName() + ": input of data type " + t + " (shape "
                    + Arrays.toString(x.shape()) + ") is not supported; the Array API standard requires "
                    + f.domain().description());
        }
        DType w = f.workingType(t);
        DType rt = f.resultType(t);
        if (x.size() > WIDE_BLOCK && wholeUnaryScratchBytes(f, t, 1) > 0) {
            return inBlocks(x, null, rt, x.shape(), (p, q) -> unary(f, p));
        }
        Chunk in = w == t ? x : Casting.astype(x, w);
        Object out =
                switch (w.kind()) {
                    case BOOL -> f.boolKernel().apply(in.booleans());
                    case SIGNED, UNSIGNED -> narrow(f.integerKernel().apply(Casting.toLongs(in), w), rt);
                    case FLOAT -> narrow(f.realKernel().apply(Casting.toDoubles(in)), rt);
                    case COMPLEX -> narrow(f.complexKernel().apply(Casting.toDoubles(in)), rt);
                };
        return Chunk.wrap(rt, x.shape(), out);
    }

    /** A kernel's {@code long[]} or {@code double[]} result narrowed to {@code t}; a {@code boolean[]} as it is. */
    private static Object narrow(Object result, DType t) {
        if (result instanceof long[] l) {
            return Casting.fromLongs(l, t);
        }
        return result instanceof double[] d ? Casting.fromDoubles(d, t) : result;
    }

    /**
     * {@code f} applied to the elements of {@code a} and {@code b} after type promotion and broadcasting; the result
     * has the broadcast shape and the type given by {@link BinaryFunction#resultType} of the promoted type.
     *
     * @throws InvalidArgumentException for an undefined promotion, a promoted type outside
     *     {@link BinaryFunction#domain()}, or shapes that do not broadcast
     */
    public static Chunk binary(BinaryFunction f, Chunk a, Chunk b) {
        DType pt = promote(f, a.dtype(), b.dtype());
        if (!f.domain().accepts(pt)) {
            throw new InvalidArgumentException(f.pythonName() + ": inputs of data types " + a.dtype() + " and "
                    + b.dtype() + " (promoted to " + pt + ") are not supported; the Array API standard requires "
                    + f.domain().description());
        }
        int[] shape = Broadcast.shape(f.pythonName(), a.shape(), b.shape());
        int n = Chunk.elementCount(shape);
        if (n > WIDE_BLOCK && widens(f, a.dtype(), b.dtype(), pt)) {
            return inBlocks(
                    blockOperand(a, shape, n),
                    blockOperand(b, shape, n),
                    f.resultType(pt),
                    shape,
                    (p, q) -> binary(f, p, q));
        }
        Chunk fast = scalarFastPath(f, a, b, pt, shape);
        if (fast == null) {
            fast = rowFastPath(f, a, b, pt, shape);
        }
        if (fast != null) {
            return fast;
        }
        Chunk ca = Broadcast.expand(a.dtype() == pt ? a : Casting.astype(a, pt), shape);
        Chunk cb = Broadcast.expand(b.dtype() == pt ? b : Casting.astype(b, pt), shape);
        DType rt = f.resultType(pt);
        Object out =
                switch (pt.kind()) {
                    case BOOL -> f.boolKernel().apply(ca.booleans(), cb.booleans());
                    case SIGNED, UNSIGNED -> narrow(
                            f.integerKernel().apply(Casting.toLongs(ca), Casting.toLongs(cb), pt), rt);
                    case FLOAT -> {
                        Object d = pt == DType.FLOAT32 ? f.realKernel().applyFloat(ca.floats(), cb.floats()) : null;
                        yield d != null
                                ? d
                                : narrow(f.realKernel().apply(Casting.toDoubles(ca), Casting.toDoubles(cb)), rt);
                    }
                    case COMPLEX -> narrow(f.complexKernel().apply(Casting.toDoubles(ca), Casting.toDoubles(cb)), rt);
                };
        return Chunk.wrap(rt, shape, out);
    }

    /**
     * {@code f(a, b)} without broadcasting when one operand is a single element of the promoted floating type and the
     * other already has the result's shape: null when the function or types have no such loop.
     */
    private static Chunk scalarFastPath(BinaryFunction f, Chunk a, Chunk b, DType pt, int[] shape) {
        if (pt != DType.FLOAT64 && pt != DType.FLOAT32) {
            return null;
        }
        boolean right = b.size() == 1 && a.dtype() == pt && Arrays.equals(a.shape(), shape);
        boolean left = !right && a.size() == 1 && b.dtype() == pt && Arrays.equals(b.shape(), shape);
        if (!right && !left) {
            return null;
        }
        Chunk array = right ? a : b;
        Chunk single = right ? b : a;
        Object out;
        if (pt == DType.FLOAT64) {
            double s = single.dtype() == DType.FLOAT64
                    ? single.doubles()[0]
                    : Casting.toDoubles(Casting.astype(single, pt))[0];
            out = f.realKernel().applyScalar(array.doubles(), s, right);
        } else {
            float s = single.dtype() == DType.FLOAT32
                    ? single.floats()[0]
                    : Casting.astype(single, pt).floats()[0];
            out = f.realKernel().applyScalarFloat(array.floats(), s, right);
        }
        return out == null ? null : Chunk.wrap(pt, shape, out);
    }

    /** {@code f(a, b)} with a Python scalar {@code b}, typed by {@link DTypes#resultTypeWithScalar}. */
    public static Chunk binary(BinaryFunction f, Chunk a, Scalar b) {
        DType t = scalarType(f, a.dtype(), b);
        return binary(f, a.dtype() == t ? a : astype(a, t), scalarChunk(f.pythonName(), b, t));
    }

    /**
     * {@code f(a, b)} in float64 without expanding the operand that is broadcast along leading axes only: one operand
     * has the result's shape, and the other's shape, aligned to the right, is 1 on some leading axes and the result's
     * length on the rest (a row such as {@code mean(x, axis=0)} against {@code x}); null when that is not the case or
     * the function has no such loop.
     */
    /** Rows shorter than this are expanded: the row loops copy each stretch of the other operand through a buffer. */
    private static final int MIN_ROW = 16;

    private static Chunk rowFastPath(BinaryFunction f, Chunk a, Chunk b, DType pt, int[] shape) {
        if (pt != DType.FLOAT64 || a.dtype() != pt || b.dtype() != pt) {
            return null;
        }
        boolean rowRight = Arrays.equals(a.shape(), shape) && isTrailingRow(b.shape(), shape);
        boolean rowLeft = !rowRight && Arrays.equals(b.shape(), shape) && isTrailingRow(a.shape(), shape);
        if (!rowRight && !rowLeft) {
            return null;
        }
        Chunk full = rowRight ? a : b;
        Chunk row = rowRight ? b : a;
        if (row.size() < MIN_ROW) {
            return null;
        }
        double[] out = f.realKernel().applyRow(full.doubles(), row.doubles(), rowRight);
        return out == null ? null : Chunk.wrap(pt, shape, out);
    }

    /**
     * Whether {@code s}, aligned to the right of {@code shape}, has ones on its leading axes (at least one axis of
     * {@code shape} longer than 1 among them) and then exactly {@code shape}'s lengths, with more than one element.
     */
    static boolean isTrailingRow(int[] s, int[] shape) {
        int pad = shape.length - s.length;
        if (pad < 0) {
            return false;
        }
        int k = 0; // first axis of shape where s takes the full length
        while (k < shape.length && (k < pad || s[k - pad] == 1) && !(k >= pad && shape[k] == 1)) {
            k++;
        }
        long rowLength = 1;
        long repeats = 1;
        for (int i = 0; i < shape.length; i++) {
            if (i < k) {
                repeats *= shape[i];
            } else if (s[i - pad] != shape[i]) {
                return false;
            } else {
                rowLength *= shape[i];
            }
        }
        return rowLength > 1 && repeats > 1;
    }

    /** {@code f(a, b)} with a Python scalar {@code a}, typed by {@link DTypes#resultTypeWithScalar}. */
    public static Chunk binary(BinaryFunction f, Scalar a, Chunk b) {
        DType t = scalarType(f, b.dtype(), a);
        return binary(f, scalarChunk(f.pythonName(), a, t), b.dtype() == t ? b : astype(b, t));
    }

    /**
     * {@code x} with every element clamped to {@code [min, max]} (either bound may be null for none), computed as
     * {@code minimum(maximum(x, min), max)}: NaN in any input gives NaN, and where min exceeds max the result is max.
     * The bounds must broadcast to the shape of {@code x} and promote with it to the type of {@code x}.
     *
     * @throws InvalidArgumentException when {@code x} is not real-valued or a bound would change the result's type or
     *     shape
     */
    public static Chunk clip(Chunk x, Chunk min, Chunk max) {
        if (!Domain.REAL_NUMERIC.accepts(x.dtype())) {
            throw new InvalidArgumentException("clip: input of data type " + x.dtype()
                    + " is not supported; the Array API standard requires a real-valued data type");
        }
        Chunk r = x;
        if (min != null) {
            checkBound(x, min, "min");
            r = binary(BinaryFunction.MAXIMUM, r, min);
        }
        if (max != null) {
            checkBound(x, max, "max");
            r = binary(BinaryFunction.MINIMUM, r, max);
        }
        return r == x ? astype(x, x.dtype()) : r;
    }

    /** {@link #clip(Chunk, Chunk, Chunk)} with scalar bounds (either may be null), converted to the type of {@code x}. */
    public static Chunk clip(Chunk x, Scalar min, Scalar max) {
        DType t = x.dtype();
        return clip(
                x,
                min == null ? null : scalarChunk("clip", min, scalarType(BinaryFunction.MAXIMUM, t, min)),
                max == null ? null : scalarChunk("clip", max, scalarType(BinaryFunction.MINIMUM, t, max)));
    }

    private static void checkBound(Chunk x, Chunk bound, String name) {
        DType t;
        try {
            t = DTypes.resultType(x.dtype(), bound.dtype());
        } catch (InvalidArgumentException e) {
            throw new InvalidArgumentException(
                    "clip: " + name + " of data type " + bound.dtype()
                            + " cannot be combined with an input of data type " + x.dtype()
                            + "; the Array API standard defines no promotion between them",
                    e);
        }
        if (t != x.dtype()) {
            throw new InvalidArgumentException("clip: " + name + " of data type " + bound.dtype()
                    + " would promote the result from " + x.dtype() + " to " + t);
        }
        int[] s = Broadcast.shape("clip", x.shape(), bound.shape());
        if (!Arrays.equals(s, x.shape())) {
            throw new InvalidArgumentException("clip: " + name + " of shape " + Arrays.toString(bound.shape())
                    + " would broadcast the result from shape " + Arrays.toString(x.shape()) + " to "
                    + Arrays.toString(s));
        }
    }

    /**
     * A new chunk of type {@code to} with the elements of {@code x} converted as NumPy's {@code astype} does: integers
     * wrap to the target width, floats round to nearest, floats to integers truncate toward zero (out-of-range, NaN
     * and infinite values: see the note below), bool becomes 0/1 and nonzero becomes true. Casting a complex chunk to
     * a real type is refused, as the standard requires; complex to bool is allowed.
     *
     * <p>Converting a float whose truncation does not fit the integer type is undefined in C, so NumPy's result
     * depends on the platform; we reproduce NumPy on x86-64 ({@link #doubleToIntegerBits}).
     *
     * @throws InvalidArgumentException for complex to a real numeric type
     */
    public static Chunk astype(Chunk x, DType to) {
        if (x.size() > WIDE_BLOCK && wholeAstypeScratchBytes(x.dtype(), to, 1) > 0) {
            return inBlocks(x, null, to, x.shape(), (p, q) -> Casting.astype(p, to));
        }
        return Casting.astype(x, to);
    }

    /**
     * {@code kernel} applied to blocks of at most {@link #WIDE_BLOCK} elements of {@code a} and {@code b} (null for a
     * unary kernel) in C order, each block's result copied into a new chunk of type {@code rt} and shape {@code
     * shape}. The operands hold {@code shape}'s elements, or one element, which every block gets whole.
     */
    private static Chunk inBlocks(
            Chunk a, Chunk b, DType rt, int[] shape, java.util.function.BinaryOperator<Chunk> kernel) {
        Chunk out = Chunk.allocate(rt, shape);
        int n = out.size();
        int slots = rt.slotsPerElement();
        for (int off = 0; off < n; off += WIDE_BLOCK) {
            int len = Math.min(WIDE_BLOCK, n - off);
            Chunk r = kernel.apply(block(a, off, len), b == null ? null : block(b, off, len));
            if (r.dtype() != rt || r.size() != len) {
                throw new IllegalStateException("a block of " + len + " elements gave " + r + ", not " + rt);
            }
            System.arraycopy(r.data(), 0, out.data(), off * slots, len * slots);
        }
        return out;
    }

    /** Elements {@code [off, off + len)} of {@code c} in C order as a 1-d chunk; a single element as a 0-d chunk. */
    private static Chunk block(Chunk c, int off, int len) {
        if (c.size() == 1) {
            return c.ndim() == 0 ? c : Chunk.wrap(c.dtype(), new int[0], c.data());
        }
        int slots = c.dtype().slotsPerElement();
        Object data = c.data();
        Object piece = java.lang.reflect.Array.newInstance(data.getClass().getComponentType(), len * slots);
        System.arraycopy(data, off * slots, piece, 0, len * slots);
        return Chunk.wrap(c.dtype(), new int[] {len}, piece);
    }

    /**
     * Operand {@code c} of a binary call of result shape {@code shape} ({@code n} elements), ready to be cut into
     * blocks: as it is when it has those elements (in C order, a broadcast that only adds axes of length 1 leaves them
     * in place) or one element; otherwise broadcast to the shape, in its own type.
     */
    private static Chunk blockOperand(Chunk c, int[] shape, int n) {
        return c.size() == n || c.size() == 1 ? c : Broadcast.expand(c, shape);
    }

    /**
     * Whether a binary call converts its operands to working arrays wider than their elements (a promotion, a type
     * the kernels widen, or a result narrowed back): such calls run in blocks.
     */
    private static boolean widens(BinaryFunction f, DType a, DType b, DType pt) {
        return a != pt || b != pt || workingCopyBytes(pt, 1) > 0 || narrowingBytes(pt, f.resultType(pt), 1) > 0;
    }

    /**
     * {@code v} converted to the integer type {@code t} as {@link #astype} converts each element: truncated toward
     * zero, and NaN, infinities and values outside the type as NumPy on x86-64 converts them (int8…int64, uint8 and
     * uint16: through a signed 32- or 64-bit integer whose invalid result is its minimum, then wrapped; uint64: NaN,
     * −∞ and values below −2<sup>63</sup> give 2<sup>63</sup>, 2<sup>64</sup> and above give 0; uint32: wrapped
     * within the int64 range, 0 beyond it), returned as the type's bits in a long.
     *
     * @throws IllegalArgumentException when {@code t} is not an integer type
     */
    public static long doubleToIntegerBits(double v, DType t) {
        if (!t.isInteger()) {
            throw new IllegalArgumentException("doubleToIntegerBits: " + t + " is not an integer data type");
        }
        return Casting.doubleToIntegerBits(v, t);
    }

    /** A chunk of the type and shape of {@code x} filled with {@code value} converted to that type. */
    public static Chunk fullLike(Chunk x, Scalar value) {
        return Chunk.full(x.dtype(), value, x.shape());
    }

    /**
     * An upper bound of the bytes {@link #unary} allocates for an input of {@code elements} elements of type {@code in}
     * beyond its result: the input promoted to the function's {@link UnaryFunction#workingType} (integers to float64
     * for {@code reciprocal}), converted to the kernel's working array, and the result before it is narrowed.
     * Plans add it to a task's projected memory.
     */
    public static long unaryScratchBytes(UnaryFunction f, DType in, long elements) {
        if (elements > WIDE_BLOCK && wholeUnaryScratchBytes(f, in, 1) > 0) {
            // One block's working arrays, the block cut from the input and its result before it is copied out.
            return wholeUnaryScratchBytes(f, in, WIDE_BLOCK)
                    + (long) WIDE_BLOCK * (in.itemSizeBytes() + f.resultType(in).itemSizeBytes());
        }
        return wholeUnaryScratchBytes(f, in, elements);
    }

    /** What {@link #unary} allocates beyond its result when it converts the whole chunk at once. */
    private static long wholeUnaryScratchBytes(UnaryFunction f, DType in, long elements) {
        DType w = f.workingType(in);
        long promoted = w == in ? 0 : wholeAstypeScratchBytes(in, w, elements) + elements * w.itemSizeBytes();
        return promoted + workingCopyBytes(w, elements) + narrowingBytes(w, f.resultType(in), elements);
    }

    /**
     * An upper bound of the bytes {@link #binary(BinaryFunction, Chunk, Chunk)} allocates beyond its result, for inputs
     * of {@code aElements} and {@code bElements} elements of types {@code a} and {@code b} giving {@code outElements}
     * elements: each input promoted, broadcast and converted to the working type, and the result before it is
     * narrowed. Types must be valid for {@code f}.
     */
    public static long binaryScratchBytes(
            BinaryFunction f, DType a, DType b, long aElements, long bElements, long outElements) {
        DType pt = DTypes.resultType(a, b);
        if (outElements > WIDE_BLOCK && widens(f, a, b, pt)) {
            // Operands of neither the result's elements nor one element are broadcast whole, in their own types;
            // then each block: its pieces of the operands, their working arrays, and its result before it is copied.
            long broadcast = (aElements == outElements || aElements == 1 ? 0 : outElements * a.itemSizeBytes())
                    + (bElements == outElements || bElements == 1 ? 0 : outElements * b.itemSizeBytes());
            return broadcast
                    + wholeBinaryScratchBytes(
                            f, a, b, aElements == 1 ? 1 : WIDE_BLOCK, bElements == 1 ? 1 : WIDE_BLOCK, WIDE_BLOCK)
                    + (long) WIDE_BLOCK
                            * (a.itemSizeBytes()
                                    + b.itemSizeBytes()
                                    + f.resultType(pt).itemSizeBytes());
        }
        return wholeBinaryScratchBytes(f, a, b, aElements, bElements, outElements);
    }

    /** What {@link #binary(BinaryFunction, Chunk, Chunk)} allocates beyond its result without blocks. */
    private static long wholeBinaryScratchBytes(
            BinaryFunction f, DType a, DType b, long aElements, long bElements, long outElements) {
        DType pt = DTypes.resultType(a, b);
        return operandBytes(a, pt, aElements, outElements)
                + operandBytes(b, pt, bElements, outElements)
                + narrowingBytes(pt, f.resultType(pt), outElements);
    }

    /** An upper bound of the bytes {@link #astype} allocates beyond its result, for {@code elements} elements. */
    public static long astypeScratchBytes(DType from, DType to, long elements) {
        if (elements > WIDE_BLOCK && wholeAstypeScratchBytes(from, to, 1) > 0) {
            return wholeAstypeScratchBytes(from, to, WIDE_BLOCK)
                    + (long) WIDE_BLOCK * (from.itemSizeBytes() + to.itemSizeBytes());
        }
        return wholeAstypeScratchBytes(from, to, elements);
    }

    /** What {@link Casting#astype} allocates beyond its result. */
    private static long wholeAstypeScratchBytes(DType from, DType to, long elements) {
        if (from == to) {
            return 0;
        }
        long working = workingCopyBytes(from, elements);
        long doubles = (from == DType.BOOL || from.isInteger()) && (to.isFloating() || to.isComplex())
                ? elements * 8L * to.slotsPerElement()
                : 0;
        return working + (to.itemSizeBytes() == 8L * to.slotsPerElement() ? 0 : doubles);
    }

    private static long operandBytes(DType t, DType promoted, long elements, long outElements) {
        long bytes = 0;
        if (t != promoted) {
            bytes += elements * promoted.itemSizeBytes();
        }
        if (elements != outElements) {
            bytes += outElements * promoted.itemSizeBytes();
        }
        return bytes + workingCopyBytes(promoted, outElements);
    }

    /** Bytes of {@code elements} elements of {@code t} converted to the kernels' long or double working arrays. */
    private static long workingCopyBytes(DType t, long elements) {
        if (t == DType.BOOL || t == DType.INT64 || t == DType.UINT64 || t == DType.FLOAT64 || t == DType.COMPLEX128) {
            return 0;
        }
        return elements * 8L * t.slotsPerElement();
    }

    /** Bytes of a working-type result that is then narrowed to {@code result} (bool results are built directly). */
    private static long narrowingBytes(DType working, DType result, long elements) {
        if (result == DType.BOOL || workingCopyBytes(result, 1) == 0) {
            return 0;
        }
        return elements * 8L * working.slotsPerElement();
    }

    private static DType promote(BinaryFunction f, DType a, DType b) {
        try {
            return DTypes.resultType(a, b);
        } catch (InvalidArgumentException e) {
            throw new InvalidArgumentException(
                    f.pythonName() + ": the Array API standard defines no promotion between data types " + a + " and "
                            + b + "; cast one input explicitly with astype",
                    e);
        }
    }

    private static DType scalarType(BinaryFunction f, DType array, Scalar s) {
        try {
            return DTypes.resultTypeWithScalar(array, s.form());
        } catch (InvalidArgumentException e) {
            throw new InvalidArgumentException(
                    f.pythonName() + ": a " + array + " array cannot be combined with the "
                            + s.form().name().toLowerCase(java.util.Locale.ROOT) + " scalar " + s
                            + " under the Array API standard's scalar rules",
                    e);
        }
    }

    /** A 0-d chunk of type {@code t} holding {@code s}; integer scalars must fit the integer type. */
    private static Chunk scalarChunk(String function, Scalar s, DType t) {
        DTypes.checkScalarFits(function, s, t);
        return Chunk.full(t, s);
    }
}
