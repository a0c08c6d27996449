package io.cubed.chunk;

import io.cubed.dtype.DType;
import io.cubed.error.InvalidArgumentException;

/**
 * Integer kernels on the widened {@code long[]} working arrays of {@link Casting#toLongs}: results are computed modulo
 * 2<sup>64</sup> and later wrapped to the type's width, which gives NumPy's wraparound (int8 127 + 1 = -128).
 * Unsigned types are zero-extended, so only uint64 needs the unsigned helpers of {@link Long}.
 *
 * <p>Division by zero gives 0 for floor_divide and remainder, as NumPy does (it also warns); floor_divide of the
 * minimum by -1 wraps to the minimum. Shifts by a count that is negative or at least the width give 0 (left) and 0 or
 * -1 (right, by sign), as NumPy does. pow with a negative integer exponent throws, as NumPy does.
 */
final class IntegerKernels {
    private IntegerKernels() {}

    /** A unary function: a {@code long[]} of the same type, or a {@code boolean[]} for the predicates. */
    static Object unary(UnaryFunction f, long[] x, DType t) {
        int n = x.length;
        boolean unsigned = t.kind() == DType.Kind.UNSIGNED;
        long[] out = new long[n];
        switch (f) {
            case ABS:
                if (unsigned) {
                    System.arraycopy(x, 0, out, 0, n);
                } else {
                    for (int i = 0; i < n; i++) {
                        out[i] = Math.abs(x[i]);
                    }
                }
                return out;
            case BITWISE_INVERT:
                for (int i = 0; i < n; i++) {
                    out[i] = ~x[i];
                }
                return out;
            case NEGATIVE:
                for (int i = 0; i < n; i++) {
                    out[i] = -x[i];
                }
                return out;
            case SQUARE:
                for (int i = 0; i < n; i++) {
                    out[i] = x[i] * x[i];
                }
                return out;
            case SIGN:
                for (int i = 0; i < n; i++) {
                    out[i] = unsigned ? (x[i] != 0 ? 1 : 0) : Long.signum(x[i]);
                }
                return out;
            case CEIL:
            case FLOOR:
            case TRUNC:
            case ROUND:
            case POSITIVE:
                System.arraycopy(x, 0, out, 0, n);
                return out;
            case ISFINITE:
                boolean[] all = new boolean[n];
                java.util.Arrays.fill(all, true);
                return all;
            case ISINF:
            case ISNAN:
                return new boolean[n];
            default:
                throw new AssertionError(f);
        }
    }

    /** A binary function on same-length arrays of promoted type {@code t}: a {@code long[]} or a {@code boolean[]}. */
    static Object binary(BinaryFunction f, long[] a, long[] b, DType t) {
        int n = a.length;
        boolean u64 = t == DType.UINT64;
        int width = t.itemSizeBytes() * 8;
        long[] out = new long[n];
        switch (f) {
            case ADD:
                for (int i = 0; i < n; i++) {
                    out[i] = a[i] + b[i];
                }
                return out;
            case SUBTRACT:
                for (int i = 0; i < n; i++) {
                    out[i] = a[i] - b[i];
                }
                return out;
            case MULTIPLY:
                for (int i = 0; i < n; i++) {
                    out[i] = a[i] * b[i];
                }
                return out;
            case BITWISE_AND:
                for (int i = 0; i < n; i++) {
                    out[i] = a[i] & b[i];
                }
                return out;
            case BITWISE_OR:
                for (int i = 0; i < n; i++) {
                    out[i] = a[i] | b[i];
                }
                return out;
            case BITWISE_XOR:
                for (int i = 0; i < n; i++) {
                    out[i] = a[i] ^ b[i];
                }
                return out;
            case BITWISE_LEFT_SHIFT:
                for (int i = 0; i < n; i++) {
                    out[i] = b[i] < 0 || b[i] >= width ? 0 : a[i] << b[i];
                }
                return out;
            case BITWISE_RIGHT_SHIFT:
                for (int i = 0; i < n; i++) {
                    if (b[i] < 0 || b[i] >= width) {
                        out[i] = !u64 && a[i] < 0 ? -1 : 0;
                    } else {
                        out[i] = u64 ? a[i] >>> b[i] : a[i] >> b[i];
                    }
                }
                return out;
            case FLOOR_DIVIDE:
                for (int i = 0; i < n; i++) {
                    out[i] = b[i] == 0 ? 0 : u64 ? Long.divideUnsigned(a[i], b[i]) : Math.floorDiv(a[i], b[i]);
                }
                return out;
            case REMAINDER:
                for (int i = 0; i < n; i++) {
                    out[i] = b[i] == 0 ? 0 : u64 ? Long.remainderUnsigned(a[i], b[i]) : Math.floorMod(a[i], b[i]);
                }
                return out;
            case MAXIMUM:
                for (int i = 0; i < n; i++) {
                    out[i] = compare(a[i], b[i], u64) >= 0 ? a[i] : b[i];
                }
                return out;
            case MINIMUM:
                for (int i = 0; i < n; i++) {
                    out[i] = compare(a[i], b[i], u64) <= 0 ? a[i] : b[i];
                }
                return out;
            case POW:
                for (int i = 0; i < n; i++) {
                    if (b[i] < 0 && t.kind() == DType.Kind.SIGNED) {
                        throw new InvalidArgumentException("pow: " + t + " base " + a[i] + " with negative exponent "
                                + b[i] + ": integers to negative integer powers are not allowed (as in NumPy); "
                                + "cast to a floating-point type first");
                    }
                    out[i] = pow(a[i], b[i]);
                }
                return out;
            default:
                return compareBinary(f, a, b, u64);
        }
    }

    private static boolean[] compareBinary(BinaryFunction f, long[] a, long[] b, boolean u64) {
        int n = a.length;
        boolean[] r = new boolean[n];
        switch (f) {
            case EQUAL:
                for (int i = 0; i < n; i++) {
                    r[i] = a[i] == b[i];
                }
                return r;
            case NOT_EQUAL:
                for (int i = 0; i < n; i++) {
                    r[i] = a[i] != b[i];
                }
                return r;
            case GREATER:
                for (int i = 0; i < n; i++) {
                    r[i] = compare(a[i], b[i], u64) > 0;
                }
                return r;
            case GREATER_EQUAL:
                for (int i = 0; i < n; i++) {
                    r[i] = compare(a[i], b[i], u64) >= 0;
                }
                return r;
            case LESS:
                for (int i = 0; i < n; i++) {
                    r[i] = compare(a[i], b[i], u64) < 0;
                }
                return r;
            case LESS_EQUAL:
                for (int i = 0; i < n; i++) {
                    r[i] = compare(a[i], b[i], u64) <= 0;
                }
                return r;
            default:
                throw new AssertionError(f);
        }
    }

    private static int compare(long a, long b, boolean unsigned) {
        return unsigned ? Long.compareUnsigned(a, b) : Long.compare(a, b);
    }

    /** {@code base} to the power {@code exp} (exp read as unsigned bits) modulo 2<sup>64</sup>, by squaring. */
    static long pow(long base, long exp) {
        long result = 1;
        long b = base;
        long e = exp;
        while (e != 0) {
            if ((e & 1) != 0) {
                result *= b;
            }
            b *= b;
            e >>>= 1;
        }
        return result;
    }
}
