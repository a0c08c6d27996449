package io.cubed.array;

import io.cubed.chunk.BinaryFunction;
import io.cubed.chunk.UnaryFunction;
import io.cubed.dtype.DType;
import io.cubed.dtype.Scalar;

/**
 * The elementwise functions of the Array API standard on lazy arrays, with NumPy broadcasting and the standard's type
 * promotion. Each call adds one blockwise operation to the plan and runs nothing: every output chunk is computed from
 * the corresponding chunks of the inputs by the chunk kernels of {@link io.cubed.chunk.Elementwise}, which define the
 * results for every data type (see there for the few places where the standard leaves them open).
 *
 * <p>The functions are the rows of two tables, {@link UnaryFunction} and {@link BinaryFunction} (name, accepted
 * types, result type rule, loop per family of types); each method here is one line naming its row, and
 * {@link #unary} and {@link #binary} take any row. Every binary function has three forms: two arrays, an array and a
 * scalar, a scalar and an array. Scalars follow the standard's rules for Python scalars:
 * {@code add(x, Scalar.ofDouble(1.5))} keeps a float32 {@code x} float32, and an integer scalar must fit an integer
 * array's type.
 *
 * <p>Everything that can be checked without data is checked at the call: data types outside a function's domain,
 * undefined promotions, integer scalars outside the array's type, shapes that do not broadcast. Inputs with different
 * chunks along a shared axis are rechunked to common chunks first. The memory the kernels need beyond the input and
 * output chunks (promoted, broadcast and widened copies) is added to each task's projected memory.
 */
public final class Elementwise {
    private Elementwise() {}

    /** {@code f} applied to every element of {@code x}; the result type is {@link UnaryFunction#resultType}. */
    public static CubedArray unary(UnaryFunction f, CubedArray x) {
        return ElementwiseOps.unary(f, x);
    }

    /** {@code f} applied to corresponding elements of {@code a} and {@code b} after promotion and broadcasting. */
    public static CubedArray binary(BinaryFunction f, CubedArray a, CubedArray b) {
        return ElementwiseOps.binary(f, a, b);
    }

    /** {@code f(a, b)} with a Python-style scalar {@code b} (typed by {@code DTypes.resultTypeWithScalar}). */
    public static CubedArray binary(BinaryFunction f, CubedArray a, Scalar b) {
        return ElementwiseOps.binary(f, a, b);
    }

    /** {@code f(a, b)} with a Python-style scalar {@code a} (typed by {@code DTypes.resultTypeWithScalar}). */
    public static CubedArray binary(BinaryFunction f, Scalar a, CubedArray b) {
        return ElementwiseOps.binary(f, a, b);
    }

    /**
     * {@code x} with every element clamped to {@code [min, max]}; either bound may be null. The bounds broadcast to the
     * shape of {@code x} and must not change its type: NaN in any input gives NaN, and where min exceeds max the
     * result is max.
     */
    public static CubedArray clip(CubedArray x, CubedArray min, CubedArray max) {
        return ElementwiseOps.clip(x, min, max);
    }

    /** {@link #clip(CubedArray, CubedArray, CubedArray)} with scalar bounds (either may be null). */
    public static CubedArray clip(CubedArray x, Scalar min, Scalar max) {
        return ElementwiseOps.clip(x, min, max);
    }

    /** {@code clip} with an array lower bound and a scalar upper bound (either may be null), as NumPy mixes them. */
    public static CubedArray clip(CubedArray x, CubedArray min, Scalar max) {
        return ElementwiseOps.clip(x, min, max);
    }

    /** {@code clip} with a scalar lower bound and an array upper bound (either may be null). */
    public static CubedArray clip(CubedArray x, Scalar min, CubedArray max) {
        return ElementwiseOps.clip(x, min, max);
    }

    /**
     * {@code x} converted to {@code dtype} as NumPy's {@code astype} does (see
     * {@link io.cubed.chunk.Elementwise#astype}): {@code x} itself when it already has that type. Complex to a real
     * numeric type is refused, as the standard requires.
     */
    public static CubedArray astype(CubedArray x, DType dtype) {
        return ElementwiseOps.astype(x, dtype);
    }

    // ---- the rows of UnaryFunction ----

    /** {@code abs(x)}: the absolute value; for complex input its magnitude (a real type). */
    public static CubedArray abs(CubedArray x) {
        return unary(UnaryFunction.ABS, x);
    }

    /** {@code acos(x)}: the inverse cosine, in radians. */
    public static CubedArray acos(CubedArray x) {
        return unary(UnaryFunction.ACOS, x);
    }

    /** {@code acosh(x)}: the inverse hyperbolic cosine. */
    public static CubedArray acosh(CubedArray x) {
        return unary(UnaryFunction.ACOSH, x);
    }

    /** {@code asin(x)}: the inverse sine, in radians. */
    public static CubedArray asin(CubedArray x) {
        return unary(UnaryFunction.ASIN, x);
    }

    /** {@code asinh(x)}: the inverse hyperbolic sine. */
    public static CubedArray asinh(CubedArray x) {
        return unary(UnaryFunction.ASINH, x);
    }

    /** {@code atan(x)}: the inverse tangent, in radians. */
    public static CubedArray atan(CubedArray x) {
        return unary(UnaryFunction.ATAN, x);
    }

    /** {@code atanh(x)}: the inverse hyperbolic tangent. */
    public static CubedArray atanh(CubedArray x) {
        return unary(UnaryFunction.ATANH, x);
    }

    /** {@code bitwise_invert(x)}: the bitwise inversion (logical not for bool). */
    public static CubedArray bitwiseInvert(CubedArray x) {
        return unary(UnaryFunction.BITWISE_INVERT, x);
    }

    /** {@code ceil(x)}: the smallest integer not less than each element. */
    public static CubedArray ceil(CubedArray x) {
        return unary(UnaryFunction.CEIL, x);
    }

    /** {@code conj(x)}: the complex conjugate. */
    public static CubedArray conj(CubedArray x) {
        return unary(UnaryFunction.CONJ, x);
    }

    /** {@code cos(x)}: the cosine. */
    public static CubedArray cos(CubedArray x) {
        return unary(UnaryFunction.COS, x);
    }

    /** {@code cosh(x)}: the hyperbolic cosine. */
    public static CubedArray cosh(CubedArray x) {
        return unary(UnaryFunction.COSH, x);
    }

    /** {@code exp(x)}: e raised to each element. */
    public static CubedArray exp(CubedArray x) {
        return unary(UnaryFunction.EXP, x);
    }

    /** {@code expm1(x)}: exp(x) - 1, accurate for small x. */
    public static CubedArray expm1(CubedArray x) {
        return unary(UnaryFunction.EXPM1, x);
    }

    /** {@code floor(x)}: the largest integer not greater than each element. */
    public static CubedArray floor(CubedArray x) {
        return unary(UnaryFunction.FLOOR, x);
    }

    /** {@code imag(x)}: the imaginary part of complex input (a real type). */
    public static CubedArray imag(CubedArray x) {
        return unary(UnaryFunction.IMAG, x);
    }

    /** {@code isfinite(x)}: true where an element is finite. */
    public static CubedArray isfinite(CubedArray x) {
        return unary(UnaryFunction.ISFINITE, x);
    }

    /** {@code isinf(x)}: true where an element is infinite. */
    public static CubedArray isinf(CubedArray x) {
        return unary(UnaryFunction.ISINF, x);
    }

    /** {@code isnan(x)}: true where an element is NaN. */
    public static CubedArray isnan(CubedArray x) {
        return unary(UnaryFunction.ISNAN, x);
    }

    /** {@code log(x)}: the natural logarithm. */
    public static CubedArray log(CubedArray x) {
        return unary(UnaryFunction.LOG, x);
    }

    /** {@code log10(x)}: the base-10 logarithm. */
    public static CubedArray log10(CubedArray x) {
        return unary(UnaryFunction.LOG10, x);
    }

    /** {@code log1p(x)}: log(1 + x), accurate for small x. */
    public static CubedArray log1p(CubedArray x) {
        return unary(UnaryFunction.LOG1P, x);
    }

    /** {@code log2(x)}: the base-2 logarithm. */
    public static CubedArray log2(CubedArray x) {
        return unary(UnaryFunction.LOG2, x);
    }

    /** {@code logical_not(x)}: the logical negation of bool input. */
    public static CubedArray logicalNot(CubedArray x) {
        return unary(UnaryFunction.LOGICAL_NOT, x);
    }

    /** {@code negative(x)}: the numerical negation. */
    public static CubedArray negative(CubedArray x) {
        return unary(UnaryFunction.NEGATIVE, x);
    }

    /** {@code positive(x)}: each element unchanged (a copy). */
    public static CubedArray positive(CubedArray x) {
        return unary(UnaryFunction.POSITIVE, x);
    }

    /** {@code real(x)}: the real part of complex input (a real type). */
    public static CubedArray real(CubedArray x) {
        return unary(UnaryFunction.REAL, x);
    }

    /** {@code reciprocal(x)}: 1 / x; integer input gives float64 (the default floating type). */
    public static CubedArray reciprocal(CubedArray x) {
        return unary(UnaryFunction.RECIPROCAL, x);
    }

    /** {@code round(x)}: each element rounded to the nearest integer, halves to even. */
    public static CubedArray round(CubedArray x) {
        return unary(UnaryFunction.ROUND, x);
    }

    /** {@code sign(x)}: the sign (-1, 0 or 1; x/|x| for complex). */
    public static CubedArray sign(CubedArray x) {
        return unary(UnaryFunction.SIGN, x);
    }

    /** {@code signbit(x)}: true where the sign bit is set (also for -0.0 and negative NaN). */
    public static CubedArray signbit(CubedArray x) {
        return unary(UnaryFunction.SIGNBIT, x);
    }

    /** {@code sin(x)}: the sine. */
    public static CubedArray sin(CubedArray x) {
        return unary(UnaryFunction.SIN, x);
    }

    /** {@code sinh(x)}: the hyperbolic sine. */
    public static CubedArray sinh(CubedArray x) {
        return unary(UnaryFunction.SINH, x);
    }

    /** {@code sqrt(x)}: the principal square root. */
    public static CubedArray sqrt(CubedArray x) {
        return unary(UnaryFunction.SQRT, x);
    }

    /** {@code square(x)}: each element times itself. */
    public static CubedArray square(CubedArray x) {
        return unary(UnaryFunction.SQUARE, x);
    }

    /** {@code tan(x)}: the tangent. */
    public static CubedArray tan(CubedArray x) {
        return unary(UnaryFunction.TAN, x);
    }

    /** {@code tanh(x)}: the hyperbolic tangent. */
    public static CubedArray tanh(CubedArray x) {
        return unary(UnaryFunction.TANH, x);
    }

    /** {@code trunc(x)}: each element rounded toward zero. */
    public static CubedArray trunc(CubedArray x) {
        return unary(UnaryFunction.TRUNC, x);
    }

    // ---- the rows of BinaryFunction, each with an array or a scalar on either side ----

    /** {@code add(a, b)}: the sum. */
    public static CubedArray add(CubedArray a, CubedArray b) {
        return binary(BinaryFunction.ADD, a, b);
    }

    /** {@link #add(CubedArray, CubedArray)} with a scalar {@code b}. */
    public static CubedArray add(CubedArray a, Scalar b) {
        return binary(BinaryFunction.ADD, a, b);
    }

    /** {@link #add(CubedArray, CubedArray)} with a scalar {@code a}. */
    public static CubedArray add(Scalar a, CubedArray b) {
        return binary(BinaryFunction.ADD, a, b);
    }

    /** {@code atan2(a, b)}: the angle of the point (b, a), i.e. atan(a / b) in the right quadrant. */
    public static CubedArray atan2(CubedArray a, CubedArray b) {
        return binary(BinaryFunction.ATAN2, a, b);
    }

    /** {@link #atan2(CubedArray, CubedArray)} with a scalar {@code b}. */
    public static CubedArray atan2(CubedArray a, Scalar b) {
        return binary(BinaryFunction.ATAN2, a, b);
    }

    /** {@link #atan2(CubedArray, CubedArray)} with a scalar {@code a}. */
    public static CubedArray atan2(Scalar a, CubedArray b) {
        return binary(BinaryFunction.ATAN2, a, b);
    }

    /** {@code bitwise_and(a, b)}: the bitwise and. */
    public static CubedArray bitwiseAnd(CubedArray a, CubedArray b) {
        return binary(BinaryFunction.BITWISE_AND, a, b);
    }

    /** {@link #bitwiseAnd(CubedArray, CubedArray)} with a scalar {@code b}. */
    public static CubedArray bitwiseAnd(CubedArray a, Scalar b) {
        return binary(BinaryFunction.BITWISE_AND, a, b);
    }

    /** {@link #bitwiseAnd(CubedArray, CubedArray)} with a scalar {@code a}. */
    public static CubedArray bitwiseAnd(Scalar a, CubedArray b) {
        return binary(BinaryFunction.BITWISE_AND, a, b);
    }

    /** {@code bitwise_left_shift(a, b)}: a shifted left by b bits. */
    public static CubedArray bitwiseLeftShift(CubedArray a, CubedArray b) {
        return binary(BinaryFunction.BITWISE_LEFT_SHIFT, a, b);
    }

    /** {@link #bitwiseLeftShift(CubedArray, CubedArray)} with a scalar {@code b}. */
    public static CubedArray bitwiseLeftShift(CubedArray a, Scalar b) {
        return binary(BinaryFunction.BITWISE_LEFT_SHIFT, a, b);
    }

    /** {@link #bitwiseLeftShift(CubedArray, CubedArray)} with a scalar {@code a}. */
    public static CubedArray bitwiseLeftShift(Scalar a, CubedArray b) {
        return binary(BinaryFunction.BITWISE_LEFT_SHIFT, a, b);
    }

    /** {@code bitwise_or(a, b)}: the bitwise or. */
    public static CubedArray bitwiseOr(CubedArray a, CubedArray b) {
        return binary(BinaryFunction.BITWISE_OR, a, b);
    }

    /** {@link #bitwiseOr(CubedArray, CubedArray)} with a scalar {@code b}. */
    public static CubedArray bitwiseOr(CubedArray a, Scalar b) {
        return binary(BinaryFunction.BITWISE_OR, a, b);
    }

    /** {@link #bitwiseOr(CubedArray, CubedArray)} with a scalar {@code a}. */
    public static CubedArray bitwiseOr(Scalar a, CubedArray b) {
        return binary(BinaryFunction.BITWISE_OR, a, b);
    }

    /** {@code bitwise_right_shift(a, b)}: a shifted right by b bits (arithmetic for signed types). */
    public static CubedArray bitwiseRightShift(CubedArray a, CubedArray b) {
        return binary(BinaryFunction.BITWISE_RIGHT_SHIFT, a, b);
    }

    /** {@link #bitwiseRightShift(CubedArray, CubedArray)} with a scalar {@code b}. */
    public static CubedArray bitwiseRightShift(CubedArray a, Scalar b) {
        return binary(BinaryFunction.BITWISE_RIGHT_SHIFT, a, b);
    }

    /** {@link #bitwiseRightShift(CubedArray, CubedArray)} with a scalar {@code a}. */
    public static CubedArray bitwiseRightShift(Scalar a, CubedArray b) {
        return binary(BinaryFunction.BITWISE_RIGHT_SHIFT, a, b);
    }

    /** {@code bitwise_xor(a, b)}: the bitwise exclusive or. */
    public static CubedArray bitwiseXor(CubedArray a, CubedArray b) {
        return binary(BinaryFunction.BITWISE_XOR, a, b);
    }

    /** {@link #bitwiseXor(CubedArray, CubedArray)} with a scalar {@code b}. */
    public static CubedArray bitwiseXor(CubedArray a, Scalar b) {
        return binary(BinaryFunction.BITWISE_XOR, a, b);
    }

    /** {@link #bitwiseXor(CubedArray, CubedArray)} with a scalar {@code a}. */
    public static CubedArray bitwiseXor(Scalar a, CubedArray b) {
        return binary(BinaryFunction.BITWISE_XOR, a, b);
    }

    /** {@code copysign(a, b)}: the magnitude of a with the sign of b. */
    public static CubedArray copysign(CubedArray a, CubedArray b) {
        return binary(BinaryFunction.COPYSIGN, a, b);
    }

    /** {@link #copysign(CubedArray, CubedArray)} with a scalar {@code b}. */
    public static CubedArray copysign(CubedArray a, Scalar b) {
        return binary(BinaryFunction.COPYSIGN, a, b);
    }

    /** {@link #copysign(CubedArray, CubedArray)} with a scalar {@code a}. */
    public static CubedArray copysign(Scalar a, CubedArray b) {
        return binary(BinaryFunction.COPYSIGN, a, b);
    }

    /**
     * {@code divide(a, b)}: the true quotient. Floating-point inputs keep their promoted type; two integer inputs give
     * float64, as NumPy's true division does (the standard leaves integer inputs to the implementation).
     */
    public static CubedArray divide(CubedArray a, CubedArray b) {
        return ElementwiseOps.divide(a, b);
    }

    /** {@link #divide(CubedArray, CubedArray)} with a scalar {@code b} (an integer array gives float64). */
    public static CubedArray divide(CubedArray a, Scalar b) {
        return ElementwiseOps.divide(a, b);
    }

    /** {@link #divide(CubedArray, CubedArray)} with a scalar {@code a} (an integer array gives float64). */
    public static CubedArray divide(Scalar a, CubedArray b) {
        return ElementwiseOps.divide(a, b);
    }

    /** {@code equal(a, b)}: true where a equals b. */
    public static CubedArray equal(CubedArray a, CubedArray b) {
        return binary(BinaryFunction.EQUAL, a, b);
    }

    /** {@link #equal(CubedArray, CubedArray)} with a scalar {@code b}. */
    public static CubedArray equal(CubedArray a, Scalar b) {
        return binary(BinaryFunction.EQUAL, a, b);
    }

    /** {@link #equal(CubedArray, CubedArray)} with a scalar {@code a}. */
    public static CubedArray equal(Scalar a, CubedArray b) {
        return binary(BinaryFunction.EQUAL, a, b);
    }

    /** {@code floor_divide(a, b)}: the quotient rounded toward negative infinity. */
    public static CubedArray floorDivide(CubedArray a, CubedArray b) {
        return binary(BinaryFunction.FLOOR_DIVIDE, a, b);
    }

    /** {@link #floorDivide(CubedArray, CubedArray)} with a scalar {@code b}. */
    public static CubedArray floorDivide(CubedArray a, Scalar b) {
        return binary(BinaryFunction.FLOOR_DIVIDE, a, b);
    }

    /** {@link #floorDivide(CubedArray, CubedArray)} with a scalar {@code a}. */
    public static CubedArray floorDivide(Scalar a, CubedArray b) {
        return binary(BinaryFunction.FLOOR_DIVIDE, a, b);
    }

    /** {@code greater(a, b)}: true where a is greater than b. */
    public static CubedArray greater(CubedArray a, CubedArray b) {
        return binary(BinaryFunction.GREATER, a, b);
    }

    /** {@link #greater(CubedArray, CubedArray)} with a scalar {@code b}. */
    public static CubedArray greater(CubedArray a, Scalar b) {
        return binary(BinaryFunction.GREATER, a, b);
    }

    /** {@link #greater(CubedArray, CubedArray)} with a scalar {@code a}. */
    public static CubedArray greater(Scalar a, CubedArray b) {
        return binary(BinaryFunction.GREATER, a, b);
    }

    /** {@code greater_equal(a, b)}: true where a is greater than or equal to b. */
    public static CubedArray greaterEqual(CubedArray a, CubedArray b) {
        return binary(BinaryFunction.GREATER_EQUAL, a, b);
    }

    /** {@link #greaterEqual(CubedArray, CubedArray)} with a scalar {@code b}. */
    public static CubedArray greaterEqual(CubedArray a, Scalar b) {
        return binary(BinaryFunction.GREATER_EQUAL, a, b);
    }

    /** {@link #greaterEqual(CubedArray, CubedArray)} with a scalar {@code a}. */
    public static CubedArray greaterEqual(Scalar a, CubedArray b) {
        return binary(BinaryFunction.GREATER_EQUAL, a, b);
    }

    /** {@code hypot(a, b)}: sqrt(a^2 + b^2) without undue overflow. */
    public static CubedArray hypot(CubedArray a, CubedArray b) {
        return binary(BinaryFunction.HYPOT, a, b);
    }

    /** {@link #hypot(CubedArray, CubedArray)} with a scalar {@code b}. */
    public static CubedArray hypot(CubedArray a, Scalar b) {
        return binary(BinaryFunction.HYPOT, a, b);
    }

    /** {@link #hypot(CubedArray, CubedArray)} with a scalar {@code a}. */
    public static CubedArray hypot(Scalar a, CubedArray b) {
        return binary(BinaryFunction.HYPOT, a, b);
    }

    /** {@code less(a, b)}: true where a is less than b. */
    public static CubedArray less(CubedArray a, CubedArray b) {
        return binary(BinaryFunction.LESS, a, b);
    }

    /** {@link #less(CubedArray, CubedArray)} with a scalar {@code b}. */
    public static CubedArray less(CubedArray a, Scalar b) {
        return binary(BinaryFunction.LESS, a, b);
    }

    /** {@link #less(CubedArray, CubedArray)} with a scalar {@code a}. */
    public static CubedArray less(Scalar a, CubedArray b) {
        return binary(BinaryFunction.LESS, a, b);
    }

    /** {@code less_equal(a, b)}: true where a is less than or equal to b. */
    public static CubedArray lessEqual(CubedArray a, CubedArray b) {
        return binary(BinaryFunction.LESS_EQUAL, a, b);
    }

    /** {@link #lessEqual(CubedArray, CubedArray)} with a scalar {@code b}. */
    public static CubedArray lessEqual(CubedArray a, Scalar b) {
        return binary(BinaryFunction.LESS_EQUAL, a, b);
    }

    /** {@link #lessEqual(CubedArray, CubedArray)} with a scalar {@code a}. */
    public static CubedArray lessEqual(Scalar a, CubedArray b) {
        return binary(BinaryFunction.LESS_EQUAL, a, b);
    }

    /** {@code logaddexp(a, b)}: log(exp(a) + exp(b)) without undue overflow. */
    public static CubedArray logaddexp(CubedArray a, CubedArray b) {
        return binary(BinaryFunction.LOGADDEXP, a, b);
    }

    /** {@link #logaddexp(CubedArray, CubedArray)} with a scalar {@code b}. */
    public static CubedArray logaddexp(CubedArray a, Scalar b) {
        return binary(BinaryFunction.LOGADDEXP, a, b);
    }

    /** {@link #logaddexp(CubedArray, CubedArray)} with a scalar {@code a}. */
    public static CubedArray logaddexp(Scalar a, CubedArray b) {
        return binary(BinaryFunction.LOGADDEXP, a, b);
    }

    /** {@code logical_and(a, b)}: the logical and of bool inputs. */
    public static CubedArray logicalAnd(CubedArray a, CubedArray b) {
        return binary(BinaryFunction.LOGICAL_AND, a, b);
    }

    /** {@link #logicalAnd(CubedArray, CubedArray)} with a scalar {@code b}. */
    public static CubedArray logicalAnd(CubedArray a, Scalar b) {
        return binary(BinaryFunction.LOGICAL_AND, a, b);
    }

    /** {@link #logicalAnd(CubedArray, CubedArray)} with a scalar {@code a}. */
    public static CubedArray logicalAnd(Scalar a, CubedArray b) {
        return binary(BinaryFunction.LOGICAL_AND, a, b);
    }

    /** {@code logical_or(a, b)}: the logical or of bool inputs. */
    public static CubedArray logicalOr(CubedArray a, CubedArray b) {
        return binary(BinaryFunction.LOGICAL_OR, a, b);
    }

    /** {@link #logicalOr(CubedArray, CubedArray)} with a scalar {@code b}. */
    public static CubedArray logicalOr(CubedArray a, Scalar b) {
        return binary(BinaryFunction.LOGICAL_OR, a, b);
    }

    /** {@link #logicalOr(CubedArray, CubedArray)} with a scalar {@code a}. */
    public static CubedArray logicalOr(Scalar a, CubedArray b) {
        return binary(BinaryFunction.LOGICAL_OR, a, b);
    }

    /** {@code logical_xor(a, b)}: the logical exclusive or of bool inputs. */
    public static CubedArray logicalXor(CubedArray a, CubedArray b) {
        return binary(BinaryFunction.LOGICAL_XOR, a, b);
    }

    /** {@link #logicalXor(CubedArray, CubedArray)} with a scalar {@code b}. */
    public static CubedArray logicalXor(CubedArray a, Scalar b) {
        return binary(BinaryFunction.LOGICAL_XOR, a, b);
    }

    /** {@link #logicalXor(CubedArray, CubedArray)} with a scalar {@code a}. */
    public static CubedArray logicalXor(Scalar a, CubedArray b) {
        return binary(BinaryFunction.LOGICAL_XOR, a, b);
    }

    /** {@code maximum(a, b)}: the larger element (NaN if either is NaN). */
    public static CubedArray maximum(CubedArray a, CubedArray b) {
        return binary(BinaryFunction.MAXIMUM, a, b);
    }

    /** {@link #maximum(CubedArray, CubedArray)} with a scalar {@code b}. */
    public static CubedArray maximum(CubedArray a, Scalar b) {
        return binary(BinaryFunction.MAXIMUM, a, b);
    }

    /** {@link #maximum(CubedArray, CubedArray)} with a scalar {@code a}. */
    public static CubedArray maximum(Scalar a, CubedArray b) {
        return binary(BinaryFunction.MAXIMUM, a, b);
    }

    /** {@code minimum(a, b)}: the smaller element (NaN if either is NaN). */
    public static CubedArray minimum(CubedArray a, CubedArray b) {
        return binary(BinaryFunction.MINIMUM, a, b);
    }

    /** {@link #minimum(CubedArray, CubedArray)} with a scalar {@code b}. */
    public static CubedArray minimum(CubedArray a, Scalar b) {
        return binary(BinaryFunction.MINIMUM, a, b);
    }

    /** {@link #minimum(CubedArray, CubedArray)} with a scalar {@code a}. */
    public static CubedArray minimum(Scalar a, CubedArray b) {
        return binary(BinaryFunction.MINIMUM, a, b);
    }

    /** {@code multiply(a, b)}: the product. */
    public static CubedArray multiply(CubedArray a, CubedArray b) {
        return binary(BinaryFunction.MULTIPLY, a, b);
    }

    /** {@link #multiply(CubedArray, CubedArray)} with a scalar {@code b}. */
    public static CubedArray multiply(CubedArray a, Scalar b) {
        return binary(BinaryFunction.MULTIPLY, a, b);
    }

    /** {@link #multiply(CubedArray, CubedArray)} with a scalar {@code a}. */
    public static CubedArray multiply(Scalar a, CubedArray b) {
        return binary(BinaryFunction.MULTIPLY, a, b);
    }

    /** {@code nextafter(a, b)}: the next representable value after a toward b. */
    public static CubedArray nextafter(CubedArray a, CubedArray b) {
        return binary(BinaryFunction.NEXTAFTER, a, b);
    }

    /** {@link #nextafter(CubedArray, CubedArray)} with a scalar {@code b}. */
    public static CubedArray nextafter(CubedArray a, Scalar b) {
        return binary(BinaryFunction.NEXTAFTER, a, b);
    }

    /** {@link #nextafter(CubedArray, CubedArray)} with a scalar {@code a}. */
    public static CubedArray nextafter(Scalar a, CubedArray b) {
        return binary(BinaryFunction.NEXTAFTER, a, b);
    }

    /** {@code not_equal(a, b)}: true where a differs from b. */
    public static CubedArray notEqual(CubedArray a, CubedArray b) {
        return binary(BinaryFunction.NOT_EQUAL, a, b);
    }

    /** {@link #notEqual(CubedArray, CubedArray)} with a scalar {@code b}. */
    public static CubedArray notEqual(CubedArray a, Scalar b) {
        return binary(BinaryFunction.NOT_EQUAL, a, b);
    }

    /** {@link #notEqual(CubedArray, CubedArray)} with a scalar {@code a}. */
    public static CubedArray notEqual(Scalar a, CubedArray b) {
        return binary(BinaryFunction.NOT_EQUAL, a, b);
    }

    /** {@code pow(a, b)}: a raised to the power b. */
    public static CubedArray pow(CubedArray a, CubedArray b) {
        return binary(BinaryFunction.POW, a, b);
    }

    /** {@link #pow(CubedArray, CubedArray)} with a scalar {@code b}. */
    public static CubedArray pow(CubedArray a, Scalar b) {
        return binary(BinaryFunction.POW, a, b);
    }

    /** {@link #pow(CubedArray, CubedArray)} with a scalar {@code a}. */
    public static CubedArray pow(Scalar a, CubedArray b) {
        return binary(BinaryFunction.POW, a, b);
    }

    /** {@code remainder(a, b)}: the remainder of floor division, with the sign of b. */
    public static CubedArray remainder(CubedArray a, CubedArray b) {
        return binary(BinaryFunction.REMAINDER, a, b);
    }

    /** {@link #remainder(CubedArray, CubedArray)} with a scalar {@code b}. */
    public static CubedArray remainder(CubedArray a, Scalar b) {
        return binary(BinaryFunction.REMAINDER, a, b);
    }

    /** {@link #remainder(CubedArray, CubedArray)} with a scalar {@code a}. */
    public static CubedArray remainder(Scalar a, CubedArray b) {
        return binary(BinaryFunction.REMAINDER, a, b);
    }

    /** {@code subtract(a, b)}: the difference a - b. */
    public static CubedArray subtract(CubedArray a, CubedArray b) {
        return binary(BinaryFunction.SUBTRACT, a, b);
    }

    /** {@link #subtract(CubedArray, CubedArray)} with a scalar {@code b}. */
    public static CubedArray subtract(CubedArray a, Scalar b) {
        return binary(BinaryFunction.SUBTRACT, a, b);
    }

    /** {@link #subtract(CubedArray, CubedArray)} with a scalar {@code a}. */
    public static CubedArray subtract(Scalar a, CubedArray b) {
        return binary(BinaryFunction.SUBTRACT, a, b);
    }
}
