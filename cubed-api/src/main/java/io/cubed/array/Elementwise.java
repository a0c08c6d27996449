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
 * The elementwise functions of the Array API standard on lazy arrays, with NumPy broadcasting and the standard's type
 * promotion. Each call adds one blockwise operation to the plan and runs nothing: every output chunk is computed from
 * the corresponding chunks of the inputs by the chunk kernels of {@link io.cubed.chunk.Elementwise}, which define the
 * results for every data type (see there for the few places where the standard leaves them open).
 *
 * <p>Everything that can be checked without data is checked here, at the call: data types outside a function's
 * domain, undefined promotions, integer scalars outside the array's type, shapes that do not broadcast. Inputs with
 * different chunks along a shared axis are rechunked to common chunks first. The memory the kernels need beyond the
 * input and output chunks (promoted, broadcast and widened copies) is added to each task's projected memory.
 *
 * <p>Scalars follow the standard's rules for Python scalars: {@code add(x, Scalar.ofDouble(1.5))} keeps a float32
 * {@code x} float32, and an integer scalar must fit an integer array's type.
 */
public final class Elementwise {
    private Elementwise() {}

    /** {@code f} applied to every element of {@code x}; the result type is {@link UnaryFunction#resultType}. */
    public static CubedArray unary(UnaryFunction f, CubedArray x) {
        DType t = x.dtype();
        if (!f.domain().accepts(t)) {
            throw new InvalidArgumentException(f.pythonName() + ": " + describe(x) + " has data type " + t
                    + ", but the Array API standard requires " + f.domain().description());
        }
        DType rt = f.resultType(t);
        long elements = chunkElements(List.of(x));
        long scratch = io.cubed.chunk.Elementwise.unaryScratchBytes(f, t, elements);
        return Blockwise.mapBlocks(f.pythonName(), new UnaryBlocks(f), options(rt, scratch), List.of(x))
                .withDimsOf(x);
    }

    /** {@code f} applied to corresponding elements of {@code a} and {@code b} after promotion and broadcasting. */
    public static CubedArray binary(BinaryFunction f, CubedArray a, CubedArray b) {
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
        long scratch = io.cubed.chunk.Elementwise.binaryScratchBytes(
                f,
                a.dtype(),
                b.dtype(),
                chunkElements(List.of(a)),
                chunkElements(List.of(b)),
                chunkElements(List.of(a, b)));
        return Blockwise.mapBlocks(
                        f.pythonName(), new BinaryBlocks(f), options(f.resultType(pt), scratch), List.of(a, b))
                .withDimsOf(a, b);
    }

    /** {@code f(a, b)} with a Python-style scalar {@code b}, typed by {@link DTypes#resultTypeWithScalar}. */
    public static CubedArray binary(BinaryFunction f, CubedArray a, Scalar b) {
        DType rt = probe(f, a, b, () -> io.cubed.chunk.Elementwise.binary(f, zero(a), b));
        return withScalar(f, a, b, rt, new ScalarRightBlocks(f, b));
    }

    /** {@code f(a, b)} with a Python-style scalar {@code a}, typed by {@link DTypes#resultTypeWithScalar}. */
    public static CubedArray binary(BinaryFunction f, Scalar a, CubedArray b) {
        DType rt = probe(f, b, a, () -> io.cubed.chunk.Elementwise.binary(f, a, zero(b)));
        return withScalar(f, b, a, rt, new ScalarLeftBlocks(f, a));
    }

    private static CubedArray withScalar(BinaryFunction f, CubedArray x, Scalar s, DType rt, BlockFunction fn) {
        long n = chunkElements(List.of(x));
        DType working = DTypes.resultTypeWithScalar(x.dtype(), s.form());
        long scratch = io.cubed.chunk.Elementwise.astypeScratchBytes(x.dtype(), working, n)
                + (x.dtype() == working ? 0 : n * working.itemSizeBytes())
                + io.cubed.chunk.Elementwise.binaryScratchBytes(f, working, working, n, 1, n);
        return Blockwise.mapBlocks(f.pythonName(), fn, options(rt, scratch), List.of(x))
                .withDimsOf(x);
    }

    /**
     * {@code x} with every element clamped to {@code [min, max]}; either bound may be null. The bounds broadcast to the
     * shape of {@code x} and must not change its type: NaN in any input gives NaN, and where min exceeds max the
     * result is max.
     */
    public static CubedArray clip(CubedArray x, CubedArray min, CubedArray max) {
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
        return Blockwise.mapBlocks(
                        "clip",
                        new ClipBlocks(min != null, max != null, null, null),
                        options(x.dtype(), scratch),
                        inputs)
                .withDimsOf(x, min, max);
    }

    /** {@link #clip(CubedArray, CubedArray, CubedArray)} with scalar bounds (either may be null). */
    public static CubedArray clip(CubedArray x, Scalar min, Scalar max) {
        checkClipInput(x);
        try {
            io.cubed.chunk.Elementwise.clip(zero(x), min, max);
        } catch (InvalidArgumentException e) {
            throw new InvalidArgumentException(e.getMessage() + " (array " + describe(x) + ")", e);
        }
        long n = chunkElements(List.of(x));
        long scratch =
                2 * io.cubed.chunk.Elementwise.binaryScratchBytes(BinaryFunction.MAXIMUM, x.dtype(), x.dtype(), n, 1, n)
                        + 2 * n * x.dtype().itemSizeBytes();
        return Blockwise.mapBlocks(
                        "clip", new ClipBlocks(false, false, min, max), options(x.dtype(), scratch), List.of(x))
                .withDimsOf(x);
    }

    /**
     * {@code x} converted to {@code dtype} as NumPy's {@code astype} does (see {@link io.cubed.chunk.Elementwise#astype}):
     * {@code x} itself when it already has that type. Complex to a real numeric type is refused, as the standard
     * requires.
     */
    public static CubedArray astype(CubedArray x, DType dtype) {
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
        return Blockwise.mapBlocks("astype", new AstypeBlocks(dtype), options(dtype, scratch), List.of(x))
                .withDimsOf(x);
    }

    /** {@code abs(x)} of the Array API standard, elementwise: the absolute value; for complex input its magnitude (a real type). */
    public static CubedArray abs(CubedArray x) {
        return unary(UnaryFunction.ABS, x);
    }

    /** {@code acos(x)} of the Array API standard, elementwise: the inverse cosine, in radians. */
    public static CubedArray acos(CubedArray x) {
        return unary(UnaryFunction.ACOS, x);
    }

    /** {@code acosh(x)} of the Array API standard, elementwise: the inverse hyperbolic cosine. */
    public static CubedArray acosh(CubedArray x) {
        return unary(UnaryFunction.ACOSH, x);
    }

    /** {@code asin(x)} of the Array API standard, elementwise: the inverse sine, in radians. */
    public static CubedArray asin(CubedArray x) {
        return unary(UnaryFunction.ASIN, x);
    }

    /** {@code asinh(x)} of the Array API standard, elementwise: the inverse hyperbolic sine. */
    public static CubedArray asinh(CubedArray x) {
        return unary(UnaryFunction.ASINH, x);
    }

    /** {@code atan(x)} of the Array API standard, elementwise: the inverse tangent, in radians. */
    public static CubedArray atan(CubedArray x) {
        return unary(UnaryFunction.ATAN, x);
    }

    /** {@code atanh(x)} of the Array API standard, elementwise: the inverse hyperbolic tangent. */
    public static CubedArray atanh(CubedArray x) {
        return unary(UnaryFunction.ATANH, x);
    }

    /** {@code bitwise_invert(x)} of the Array API standard, elementwise: the bitwise inversion (logical not for bool). */
    public static CubedArray bitwiseInvert(CubedArray x) {
        return unary(UnaryFunction.BITWISE_INVERT, x);
    }

    /** {@code ceil(x)} of the Array API standard, elementwise: the smallest integer not less than each element. */
    public static CubedArray ceil(CubedArray x) {
        return unary(UnaryFunction.CEIL, x);
    }

    /** {@code conj(x)} of the Array API standard, elementwise: the complex conjugate. */
    public static CubedArray conj(CubedArray x) {
        return unary(UnaryFunction.CONJ, x);
    }

    /** {@code cos(x)} of the Array API standard, elementwise: the cosine. */
    public static CubedArray cos(CubedArray x) {
        return unary(UnaryFunction.COS, x);
    }

    /** {@code cosh(x)} of the Array API standard, elementwise: the hyperbolic cosine. */
    public static CubedArray cosh(CubedArray x) {
        return unary(UnaryFunction.COSH, x);
    }

    /** {@code exp(x)} of the Array API standard, elementwise: e raised to each element. */
    public static CubedArray exp(CubedArray x) {
        return unary(UnaryFunction.EXP, x);
    }

    /** {@code expm1(x)} of the Array API standard, elementwise: exp(x) - 1, accurate for small x. */
    public static CubedArray expm1(CubedArray x) {
        return unary(UnaryFunction.EXPM1, x);
    }

    /** {@code floor(x)} of the Array API standard, elementwise: the largest integer not greater than each element. */
    public static CubedArray floor(CubedArray x) {
        return unary(UnaryFunction.FLOOR, x);
    }

    /** {@code imag(x)} of the Array API standard, elementwise: the imaginary part of complex input (a real type). */
    public static CubedArray imag(CubedArray x) {
        return unary(UnaryFunction.IMAG, x);
    }

    /** {@code isfinite(x)} of the Array API standard, elementwise: true where an element is finite. */
    public static CubedArray isfinite(CubedArray x) {
        return unary(UnaryFunction.ISFINITE, x);
    }

    /** {@code isinf(x)} of the Array API standard, elementwise: true where an element is infinite. */
    public static CubedArray isinf(CubedArray x) {
        return unary(UnaryFunction.ISINF, x);
    }

    /** {@code isnan(x)} of the Array API standard, elementwise: true where an element is NaN. */
    public static CubedArray isnan(CubedArray x) {
        return unary(UnaryFunction.ISNAN, x);
    }

    /** {@code log(x)} of the Array API standard, elementwise: the natural logarithm. */
    public static CubedArray log(CubedArray x) {
        return unary(UnaryFunction.LOG, x);
    }

    /** {@code log1p(x)} of the Array API standard, elementwise: log(1 + x), accurate for small x. */
    public static CubedArray log1p(CubedArray x) {
        return unary(UnaryFunction.LOG1P, x);
    }

    /** {@code log2(x)} of the Array API standard, elementwise: the base-2 logarithm. */
    public static CubedArray log2(CubedArray x) {
        return unary(UnaryFunction.LOG2, x);
    }

    /** {@code log10(x)} of the Array API standard, elementwise: the base-10 logarithm. */
    public static CubedArray log10(CubedArray x) {
        return unary(UnaryFunction.LOG10, x);
    }

    /** {@code logical_not(x)} of the Array API standard, elementwise: the logical negation of bool input. */
    public static CubedArray logicalNot(CubedArray x) {
        return unary(UnaryFunction.LOGICAL_NOT, x);
    }

    /** {@code negative(x)} of the Array API standard, elementwise: the numerical negation. */
    public static CubedArray negative(CubedArray x) {
        return unary(UnaryFunction.NEGATIVE, x);
    }

    /** {@code positive(x)} of the Array API standard, elementwise: each element unchanged (a copy). */
    public static CubedArray positive(CubedArray x) {
        return unary(UnaryFunction.POSITIVE, x);
    }

    /** {@code real(x)} of the Array API standard, elementwise: the real part of complex input (a real type). */
    public static CubedArray real(CubedArray x) {
        return unary(UnaryFunction.REAL, x);
    }

    /** {@code round(x)} of the Array API standard, elementwise: each element rounded to the nearest integer, halves to even. */
    public static CubedArray round(CubedArray x) {
        return unary(UnaryFunction.ROUND, x);
    }

    /** {@code sign(x)} of the Array API standard, elementwise: the sign (-1, 0 or 1; x/|x| for complex). */
    public static CubedArray sign(CubedArray x) {
        return unary(UnaryFunction.SIGN, x);
    }

    /** {@code signbit(x)} of the Array API standard, elementwise: true where the sign bit is set (also for -0.0 and negative NaN). */
    public static CubedArray signbit(CubedArray x) {
        return unary(UnaryFunction.SIGNBIT, x);
    }

    /** {@code sin(x)} of the Array API standard, elementwise: the sine. */
    public static CubedArray sin(CubedArray x) {
        return unary(UnaryFunction.SIN, x);
    }

    /** {@code sinh(x)} of the Array API standard, elementwise: the hyperbolic sine. */
    public static CubedArray sinh(CubedArray x) {
        return unary(UnaryFunction.SINH, x);
    }

    /** {@code square(x)} of the Array API standard, elementwise: each element times itself. */
    public static CubedArray square(CubedArray x) {
        return unary(UnaryFunction.SQUARE, x);
    }

    /** {@code sqrt(x)} of the Array API standard, elementwise: the principal square root. */
    public static CubedArray sqrt(CubedArray x) {
        return unary(UnaryFunction.SQRT, x);
    }

    /** {@code tan(x)} of the Array API standard, elementwise: the tangent. */
    public static CubedArray tan(CubedArray x) {
        return unary(UnaryFunction.TAN, x);
    }

    /** {@code tanh(x)} of the Array API standard, elementwise: the hyperbolic tangent. */
    public static CubedArray tanh(CubedArray x) {
        return unary(UnaryFunction.TANH, x);
    }

    /** {@code trunc(x)} of the Array API standard, elementwise: each element rounded toward zero. */
    public static CubedArray trunc(CubedArray x) {
        return unary(UnaryFunction.TRUNC, x);
    }

    /** {@code add(a, b)} of the Array API standard, elementwise with broadcasting and type promotion: the sum. */
    public static CubedArray add(CubedArray a, CubedArray b) {
        return binary(BinaryFunction.ADD, a, b);
    }

    /** {@link #add(CubedArray, CubedArray)} with a Python-style scalar {@code b}. */
    public static CubedArray add(CubedArray a, Scalar b) {
        return binary(BinaryFunction.ADD, a, b);
    }

    /** {@link #add(CubedArray, CubedArray)} with a Python-style scalar {@code a}. */
    public static CubedArray add(Scalar a, CubedArray b) {
        return binary(BinaryFunction.ADD, a, b);
    }

    /** {@code atan2(a, b)} of the Array API standard, elementwise with broadcasting and type promotion: the angle of the point (b, a), i.e. atan(a / b) in the right quadrant. */
    public static CubedArray atan2(CubedArray a, CubedArray b) {
        return binary(BinaryFunction.ATAN2, a, b);
    }

    /** {@link #atan2(CubedArray, CubedArray)} with a Python-style scalar {@code b}. */
    public static CubedArray atan2(CubedArray a, Scalar b) {
        return binary(BinaryFunction.ATAN2, a, b);
    }

    /** {@link #atan2(CubedArray, CubedArray)} with a Python-style scalar {@code a}. */
    public static CubedArray atan2(Scalar a, CubedArray b) {
        return binary(BinaryFunction.ATAN2, a, b);
    }

    /** {@code bitwise_and(a, b)} of the Array API standard, elementwise with broadcasting and type promotion: the bitwise and. */
    public static CubedArray bitwiseAnd(CubedArray a, CubedArray b) {
        return binary(BinaryFunction.BITWISE_AND, a, b);
    }

    /** {@link #bitwiseAnd(CubedArray, CubedArray)} with a Python-style scalar {@code b}. */
    public static CubedArray bitwiseAnd(CubedArray a, Scalar b) {
        return binary(BinaryFunction.BITWISE_AND, a, b);
    }

    /** {@link #bitwiseAnd(CubedArray, CubedArray)} with a Python-style scalar {@code a}. */
    public static CubedArray bitwiseAnd(Scalar a, CubedArray b) {
        return binary(BinaryFunction.BITWISE_AND, a, b);
    }

    /** {@code bitwise_left_shift(a, b)} of the Array API standard, elementwise with broadcasting and type promotion: a shifted left by b bits. */
    public static CubedArray bitwiseLeftShift(CubedArray a, CubedArray b) {
        return binary(BinaryFunction.BITWISE_LEFT_SHIFT, a, b);
    }

    /** {@link #bitwiseLeftShift(CubedArray, CubedArray)} with a Python-style scalar {@code b}. */
    public static CubedArray bitwiseLeftShift(CubedArray a, Scalar b) {
        return binary(BinaryFunction.BITWISE_LEFT_SHIFT, a, b);
    }

    /** {@link #bitwiseLeftShift(CubedArray, CubedArray)} with a Python-style scalar {@code a}. */
    public static CubedArray bitwiseLeftShift(Scalar a, CubedArray b) {
        return binary(BinaryFunction.BITWISE_LEFT_SHIFT, a, b);
    }

    /** {@code bitwise_or(a, b)} of the Array API standard, elementwise with broadcasting and type promotion: the bitwise or. */
    public static CubedArray bitwiseOr(CubedArray a, CubedArray b) {
        return binary(BinaryFunction.BITWISE_OR, a, b);
    }

    /** {@link #bitwiseOr(CubedArray, CubedArray)} with a Python-style scalar {@code b}. */
    public static CubedArray bitwiseOr(CubedArray a, Scalar b) {
        return binary(BinaryFunction.BITWISE_OR, a, b);
    }

    /** {@link #bitwiseOr(CubedArray, CubedArray)} with a Python-style scalar {@code a}. */
    public static CubedArray bitwiseOr(Scalar a, CubedArray b) {
        return binary(BinaryFunction.BITWISE_OR, a, b);
    }

    /** {@code bitwise_right_shift(a, b)} of the Array API standard, elementwise with broadcasting and type promotion: a shifted right by b bits (arithmetic for signed types). */
    public static CubedArray bitwiseRightShift(CubedArray a, CubedArray b) {
        return binary(BinaryFunction.BITWISE_RIGHT_SHIFT, a, b);
    }

    /** {@link #bitwiseRightShift(CubedArray, CubedArray)} with a Python-style scalar {@code b}. */
    public static CubedArray bitwiseRightShift(CubedArray a, Scalar b) {
        return binary(BinaryFunction.BITWISE_RIGHT_SHIFT, a, b);
    }

    /** {@link #bitwiseRightShift(CubedArray, CubedArray)} with a Python-style scalar {@code a}. */
    public static CubedArray bitwiseRightShift(Scalar a, CubedArray b) {
        return binary(BinaryFunction.BITWISE_RIGHT_SHIFT, a, b);
    }

    /** {@code bitwise_xor(a, b)} of the Array API standard, elementwise with broadcasting and type promotion: the bitwise exclusive or. */
    public static CubedArray bitwiseXor(CubedArray a, CubedArray b) {
        return binary(BinaryFunction.BITWISE_XOR, a, b);
    }

    /** {@link #bitwiseXor(CubedArray, CubedArray)} with a Python-style scalar {@code b}. */
    public static CubedArray bitwiseXor(CubedArray a, Scalar b) {
        return binary(BinaryFunction.BITWISE_XOR, a, b);
    }

    /** {@link #bitwiseXor(CubedArray, CubedArray)} with a Python-style scalar {@code a}. */
    public static CubedArray bitwiseXor(Scalar a, CubedArray b) {
        return binary(BinaryFunction.BITWISE_XOR, a, b);
    }

    /** {@code copysign(a, b)} of the Array API standard, elementwise with broadcasting and type promotion: the magnitude of a with the sign of b. */
    public static CubedArray copysign(CubedArray a, CubedArray b) {
        return binary(BinaryFunction.COPYSIGN, a, b);
    }

    /** {@link #copysign(CubedArray, CubedArray)} with a Python-style scalar {@code b}. */
    public static CubedArray copysign(CubedArray a, Scalar b) {
        return binary(BinaryFunction.COPYSIGN, a, b);
    }

    /** {@link #copysign(CubedArray, CubedArray)} with a Python-style scalar {@code a}. */
    public static CubedArray copysign(Scalar a, CubedArray b) {
        return binary(BinaryFunction.COPYSIGN, a, b);
    }

    /** {@code divide(a, b)} of the Array API standard, elementwise with broadcasting and type promotion: the true quotient (floating-point inputs). */
    public static CubedArray divide(CubedArray a, CubedArray b) {
        return binary(BinaryFunction.DIVIDE, a, b);
    }

    /** {@link #divide(CubedArray, CubedArray)} with a Python-style scalar {@code b}. */
    public static CubedArray divide(CubedArray a, Scalar b) {
        return binary(BinaryFunction.DIVIDE, a, b);
    }

    /** {@link #divide(CubedArray, CubedArray)} with a Python-style scalar {@code a}. */
    public static CubedArray divide(Scalar a, CubedArray b) {
        return binary(BinaryFunction.DIVIDE, a, b);
    }

    /** {@code equal(a, b)} of the Array API standard, elementwise with broadcasting and type promotion: true where a equals b. */
    public static CubedArray equal(CubedArray a, CubedArray b) {
        return binary(BinaryFunction.EQUAL, a, b);
    }

    /** {@link #equal(CubedArray, CubedArray)} with a Python-style scalar {@code b}. */
    public static CubedArray equal(CubedArray a, Scalar b) {
        return binary(BinaryFunction.EQUAL, a, b);
    }

    /** {@link #equal(CubedArray, CubedArray)} with a Python-style scalar {@code a}. */
    public static CubedArray equal(Scalar a, CubedArray b) {
        return binary(BinaryFunction.EQUAL, a, b);
    }

    /** {@code floor_divide(a, b)} of the Array API standard, elementwise with broadcasting and type promotion: the quotient rounded toward negative infinity. */
    public static CubedArray floorDivide(CubedArray a, CubedArray b) {
        return binary(BinaryFunction.FLOOR_DIVIDE, a, b);
    }

    /** {@link #floorDivide(CubedArray, CubedArray)} with a Python-style scalar {@code b}. */
    public static CubedArray floorDivide(CubedArray a, Scalar b) {
        return binary(BinaryFunction.FLOOR_DIVIDE, a, b);
    }

    /** {@link #floorDivide(CubedArray, CubedArray)} with a Python-style scalar {@code a}. */
    public static CubedArray floorDivide(Scalar a, CubedArray b) {
        return binary(BinaryFunction.FLOOR_DIVIDE, a, b);
    }

    /** {@code greater(a, b)} of the Array API standard, elementwise with broadcasting and type promotion: true where a is greater than b. */
    public static CubedArray greater(CubedArray a, CubedArray b) {
        return binary(BinaryFunction.GREATER, a, b);
    }

    /** {@link #greater(CubedArray, CubedArray)} with a Python-style scalar {@code b}. */
    public static CubedArray greater(CubedArray a, Scalar b) {
        return binary(BinaryFunction.GREATER, a, b);
    }

    /** {@link #greater(CubedArray, CubedArray)} with a Python-style scalar {@code a}. */
    public static CubedArray greater(Scalar a, CubedArray b) {
        return binary(BinaryFunction.GREATER, a, b);
    }

    /** {@code greater_equal(a, b)} of the Array API standard, elementwise with broadcasting and type promotion: true where a is greater than or equal to b. */
    public static CubedArray greaterEqual(CubedArray a, CubedArray b) {
        return binary(BinaryFunction.GREATER_EQUAL, a, b);
    }

    /** {@link #greaterEqual(CubedArray, CubedArray)} with a Python-style scalar {@code b}. */
    public static CubedArray greaterEqual(CubedArray a, Scalar b) {
        return binary(BinaryFunction.GREATER_EQUAL, a, b);
    }

    /** {@link #greaterEqual(CubedArray, CubedArray)} with a Python-style scalar {@code a}. */
    public static CubedArray greaterEqual(Scalar a, CubedArray b) {
        return binary(BinaryFunction.GREATER_EQUAL, a, b);
    }

    /** {@code hypot(a, b)} of the Array API standard, elementwise with broadcasting and type promotion: sqrt(a^2 + b^2) without undue overflow. */
    public static CubedArray hypot(CubedArray a, CubedArray b) {
        return binary(BinaryFunction.HYPOT, a, b);
    }

    /** {@link #hypot(CubedArray, CubedArray)} with a Python-style scalar {@code b}. */
    public static CubedArray hypot(CubedArray a, Scalar b) {
        return binary(BinaryFunction.HYPOT, a, b);
    }

    /** {@link #hypot(CubedArray, CubedArray)} with a Python-style scalar {@code a}. */
    public static CubedArray hypot(Scalar a, CubedArray b) {
        return binary(BinaryFunction.HYPOT, a, b);
    }

    /** {@code less(a, b)} of the Array API standard, elementwise with broadcasting and type promotion: true where a is less than b. */
    public static CubedArray less(CubedArray a, CubedArray b) {
        return binary(BinaryFunction.LESS, a, b);
    }

    /** {@link #less(CubedArray, CubedArray)} with a Python-style scalar {@code b}. */
    public static CubedArray less(CubedArray a, Scalar b) {
        return binary(BinaryFunction.LESS, a, b);
    }

    /** {@link #less(CubedArray, CubedArray)} with a Python-style scalar {@code a}. */
    public static CubedArray less(Scalar a, CubedArray b) {
        return binary(BinaryFunction.LESS, a, b);
    }

    /** {@code less_equal(a, b)} of the Array API standard, elementwise with broadcasting and type promotion: true where a is less than or equal to b. */
    public static CubedArray lessEqual(CubedArray a, CubedArray b) {
        return binary(BinaryFunction.LESS_EQUAL, a, b);
    }

    /** {@link #lessEqual(CubedArray, CubedArray)} with a Python-style scalar {@code b}. */
    public static CubedArray lessEqual(CubedArray a, Scalar b) {
        return binary(BinaryFunction.LESS_EQUAL, a, b);
    }

    /** {@link #lessEqual(CubedArray, CubedArray)} with a Python-style scalar {@code a}. */
    public static CubedArray lessEqual(Scalar a, CubedArray b) {
        return binary(BinaryFunction.LESS_EQUAL, a, b);
    }

    /** {@code logaddexp(a, b)} of the Array API standard, elementwise with broadcasting and type promotion: log(exp(a) + exp(b)) without undue overflow. */
    public static CubedArray logaddexp(CubedArray a, CubedArray b) {
        return binary(BinaryFunction.LOGADDEXP, a, b);
    }

    /** {@link #logaddexp(CubedArray, CubedArray)} with a Python-style scalar {@code b}. */
    public static CubedArray logaddexp(CubedArray a, Scalar b) {
        return binary(BinaryFunction.LOGADDEXP, a, b);
    }

    /** {@link #logaddexp(CubedArray, CubedArray)} with a Python-style scalar {@code a}. */
    public static CubedArray logaddexp(Scalar a, CubedArray b) {
        return binary(BinaryFunction.LOGADDEXP, a, b);
    }

    /** {@code logical_and(a, b)} of the Array API standard, elementwise with broadcasting and type promotion: the logical and of bool inputs. */
    public static CubedArray logicalAnd(CubedArray a, CubedArray b) {
        return binary(BinaryFunction.LOGICAL_AND, a, b);
    }

    /** {@link #logicalAnd(CubedArray, CubedArray)} with a Python-style scalar {@code b}. */
    public static CubedArray logicalAnd(CubedArray a, Scalar b) {
        return binary(BinaryFunction.LOGICAL_AND, a, b);
    }

    /** {@link #logicalAnd(CubedArray, CubedArray)} with a Python-style scalar {@code a}. */
    public static CubedArray logicalAnd(Scalar a, CubedArray b) {
        return binary(BinaryFunction.LOGICAL_AND, a, b);
    }

    /** {@code logical_or(a, b)} of the Array API standard, elementwise with broadcasting and type promotion: the logical or of bool inputs. */
    public static CubedArray logicalOr(CubedArray a, CubedArray b) {
        return binary(BinaryFunction.LOGICAL_OR, a, b);
    }

    /** {@link #logicalOr(CubedArray, CubedArray)} with a Python-style scalar {@code b}. */
    public static CubedArray logicalOr(CubedArray a, Scalar b) {
        return binary(BinaryFunction.LOGICAL_OR, a, b);
    }

    /** {@link #logicalOr(CubedArray, CubedArray)} with a Python-style scalar {@code a}. */
    public static CubedArray logicalOr(Scalar a, CubedArray b) {
        return binary(BinaryFunction.LOGICAL_OR, a, b);
    }

    /** {@code logical_xor(a, b)} of the Array API standard, elementwise with broadcasting and type promotion: the logical exclusive or of bool inputs. */
    public static CubedArray logicalXor(CubedArray a, CubedArray b) {
        return binary(BinaryFunction.LOGICAL_XOR, a, b);
    }

    /** {@link #logicalXor(CubedArray, CubedArray)} with a Python-style scalar {@code b}. */
    public static CubedArray logicalXor(CubedArray a, Scalar b) {
        return binary(BinaryFunction.LOGICAL_XOR, a, b);
    }

    /** {@link #logicalXor(CubedArray, CubedArray)} with a Python-style scalar {@code a}. */
    public static CubedArray logicalXor(Scalar a, CubedArray b) {
        return binary(BinaryFunction.LOGICAL_XOR, a, b);
    }

    /** {@code maximum(a, b)} of the Array API standard, elementwise with broadcasting and type promotion: the larger element (NaN if either is NaN). */
    public static CubedArray maximum(CubedArray a, CubedArray b) {
        return binary(BinaryFunction.MAXIMUM, a, b);
    }

    /** {@link #maximum(CubedArray, CubedArray)} with a Python-style scalar {@code b}. */
    public static CubedArray maximum(CubedArray a, Scalar b) {
        return binary(BinaryFunction.MAXIMUM, a, b);
    }

    /** {@link #maximum(CubedArray, CubedArray)} with a Python-style scalar {@code a}. */
    public static CubedArray maximum(Scalar a, CubedArray b) {
        return binary(BinaryFunction.MAXIMUM, a, b);
    }

    /** {@code minimum(a, b)} of the Array API standard, elementwise with broadcasting and type promotion: the smaller element (NaN if either is NaN). */
    public static CubedArray minimum(CubedArray a, CubedArray b) {
        return binary(BinaryFunction.MINIMUM, a, b);
    }

    /** {@link #minimum(CubedArray, CubedArray)} with a Python-style scalar {@code b}. */
    public static CubedArray minimum(CubedArray a, Scalar b) {
        return binary(BinaryFunction.MINIMUM, a, b);
    }

    /** {@link #minimum(CubedArray, CubedArray)} with a Python-style scalar {@code a}. */
    public static CubedArray minimum(Scalar a, CubedArray b) {
        return binary(BinaryFunction.MINIMUM, a, b);
    }

    /** {@code multiply(a, b)} of the Array API standard, elementwise with broadcasting and type promotion: the product. */
    public static CubedArray multiply(CubedArray a, CubedArray b) {
        return binary(BinaryFunction.MULTIPLY, a, b);
    }

    /** {@link #multiply(CubedArray, CubedArray)} with a Python-style scalar {@code b}. */
    public static CubedArray multiply(CubedArray a, Scalar b) {
        return binary(BinaryFunction.MULTIPLY, a, b);
    }

    /** {@link #multiply(CubedArray, CubedArray)} with a Python-style scalar {@code a}. */
    public static CubedArray multiply(Scalar a, CubedArray b) {
        return binary(BinaryFunction.MULTIPLY, a, b);
    }

    /** {@code nextafter(a, b)} of the Array API standard, elementwise with broadcasting and type promotion: the next representable value after a toward b. */
    public static CubedArray nextafter(CubedArray a, CubedArray b) {
        return binary(BinaryFunction.NEXTAFTER, a, b);
    }

    /** {@link #nextafter(CubedArray, CubedArray)} with a Python-style scalar {@code b}. */
    public static CubedArray nextafter(CubedArray a, Scalar b) {
        return binary(BinaryFunction.NEXTAFTER, a, b);
    }

    /** {@link #nextafter(CubedArray, CubedArray)} with a Python-style scalar {@code a}. */
    public static CubedArray nextafter(Scalar a, CubedArray b) {
        return binary(BinaryFunction.NEXTAFTER, a, b);
    }

    /** {@code not_equal(a, b)} of the Array API standard, elementwise with broadcasting and type promotion: true where a differs from b. */
    public static CubedArray notEqual(CubedArray a, CubedArray b) {
        return binary(BinaryFunction.NOT_EQUAL, a, b);
    }

    /** {@link #notEqual(CubedArray, CubedArray)} with a Python-style scalar {@code b}. */
    public static CubedArray notEqual(CubedArray a, Scalar b) {
        return binary(BinaryFunction.NOT_EQUAL, a, b);
    }

    /** {@link #notEqual(CubedArray, CubedArray)} with a Python-style scalar {@code a}. */
    public static CubedArray notEqual(Scalar a, CubedArray b) {
        return binary(BinaryFunction.NOT_EQUAL, a, b);
    }

    /** {@code pow(a, b)} of the Array API standard, elementwise with broadcasting and type promotion: a raised to the power b. */
    public static CubedArray pow(CubedArray a, CubedArray b) {
        return binary(BinaryFunction.POW, a, b);
    }

    /** {@link #pow(CubedArray, CubedArray)} with a Python-style scalar {@code b}. */
    public static CubedArray pow(CubedArray a, Scalar b) {
        return binary(BinaryFunction.POW, a, b);
    }

    /** {@link #pow(CubedArray, CubedArray)} with a Python-style scalar {@code a}. */
    public static CubedArray pow(Scalar a, CubedArray b) {
        return binary(BinaryFunction.POW, a, b);
    }

    /** {@code remainder(a, b)} of the Array API standard, elementwise with broadcasting and type promotion: the remainder of floor division, with the sign of b. */
    public static CubedArray remainder(CubedArray a, CubedArray b) {
        return binary(BinaryFunction.REMAINDER, a, b);
    }

    /** {@link #remainder(CubedArray, CubedArray)} with a Python-style scalar {@code b}. */
    public static CubedArray remainder(CubedArray a, Scalar b) {
        return binary(BinaryFunction.REMAINDER, a, b);
    }

    /** {@link #remainder(CubedArray, CubedArray)} with a Python-style scalar {@code a}. */
    public static CubedArray remainder(Scalar a, CubedArray b) {
        return binary(BinaryFunction.REMAINDER, a, b);
    }

    /** {@code subtract(a, b)} of the Array API standard, elementwise with broadcasting and type promotion: the difference a - b. */
    public static CubedArray subtract(CubedArray a, CubedArray b) {
        return binary(BinaryFunction.SUBTRACT, a, b);
    }

    /** {@link #subtract(CubedArray, CubedArray)} with a Python-style scalar {@code b}. */
    public static CubedArray subtract(CubedArray a, Scalar b) {
        return binary(BinaryFunction.SUBTRACT, a, b);
    }

    /** {@link #subtract(CubedArray, CubedArray)} with a Python-style scalar {@code a}. */
    public static CubedArray subtract(Scalar a, CubedArray b) {
        return binary(BinaryFunction.SUBTRACT, a, b);
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
    private static DType probe(BinaryFunction f, CubedArray x, Scalar s, java.util.function.Supplier<Chunk> check) {
        try {
            return check.get().dtype();
        } catch (InvalidArgumentException e) {
            throw new InvalidArgumentException(e.getMessage() + " (array " + describe(x) + ", scalar " + s + ")", e);
        }
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

    private static MapBlocksOptions options(DType dtype, long scratchBytes) {
        return MapBlocksOptions.builder(dtype).extraMemBytes(scratchBytes).build();
    }

    private static String describe(CubedArray x) {
        return "array '" + x.name() + "' (" + x.dtype() + ", shape " + Arrays.toString(x.shape()) + ")";
    }

    /** Chunk function of {@link #unary}. */
    private record UnaryBlocks(UnaryFunction f) implements BlockFunction {
        @Override
        public Chunk apply(Chunk[] blocks, long[] blockId) {
            return io.cubed.chunk.Elementwise.unary(f, blocks[0]);
        }
    }

    /** Chunk function of {@link #binary(BinaryFunction, CubedArray, CubedArray)}. */
    private record BinaryBlocks(BinaryFunction f) implements BlockFunction {
        @Override
        public Chunk apply(Chunk[] blocks, long[] blockId) {
            return io.cubed.chunk.Elementwise.binary(f, blocks[0], blocks[1]);
        }
    }

    /** Chunk function of {@code f(array, scalar)}. */
    private record ScalarRightBlocks(BinaryFunction f, Scalar b) implements BlockFunction {
        @Override
        public Chunk apply(Chunk[] blocks, long[] blockId) {
            return io.cubed.chunk.Elementwise.binary(f, blocks[0], b);
        }
    }

    /** Chunk function of {@code f(scalar, array)}. */
    private record ScalarLeftBlocks(BinaryFunction f, Scalar a) implements BlockFunction {
        @Override
        public Chunk apply(Chunk[] blocks, long[] blockId) {
            return io.cubed.chunk.Elementwise.binary(f, a, blocks[0]);
        }
    }

    /** Chunk function of both forms of {@code clip}: array bounds follow {@code x} in the blocks, in order. */
    private record ClipBlocks(boolean minArray, boolean maxArray, Scalar min, Scalar max) implements BlockFunction {
        @Override
        public Chunk apply(Chunk[] blocks, long[] blockId) {
            if (!minArray && !maxArray) {
                return io.cubed.chunk.Elementwise.clip(blocks[0], min, max);
            }
            Chunk lo = minArray ? blocks[1] : null;
            Chunk hi = maxArray ? blocks[minArray ? 2 : 1] : null;
            return io.cubed.chunk.Elementwise.clip(blocks[0], lo, hi);
        }
    }

    /** Chunk function of {@link #astype}. */
    private record AstypeBlocks(DType to) implements BlockFunction {
        @Override
        public Chunk apply(Chunk[] blocks, long[] blockId) {
            return io.cubed.chunk.Elementwise.astype(blocks[0], to);
        }
    }
}
