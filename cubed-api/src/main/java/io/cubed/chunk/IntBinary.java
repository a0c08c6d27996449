package io.cubed.chunk;

import io.cubed.dtype.DType;
import io.cubed.error.InvalidArgumentException;

/**
 * Binary loops on integers of promoted type {@code t}, held in the widened {@code long[]} working arrays of
 * {@link Casting#toLongs}, one method per function of {@link BinaryFunction}: results are computed modulo
 * 2<sup>64</sup> and later wrapped to the type's width (int8 127 + 1 = -128). Unsigned types are zero-extended, so
 * only uint64 needs the unsigned helpers of {@link Long}.
 *
 * <p>Division by zero gives 0 for floor_divide and remainder, as NumPy does (it also warns); floor_divide of the
 * minimum by -1 wraps to the minimum. Shifts by a count that is negative or at least the width give 0 (left) and 0 or
 * -1 (right, by sign), as NumPy does. pow with a negative integer exponent throws, as NumPy does.
 */
final class IntBinary {
    private IntBinary() {}

    static long[] add(long[] a, long[] b, DType t) {
        long[] out = new long[a.length];
        for (int i = 0; i < a.length; i++) {
            out[i] = a[i] + b[i];
        }
        return out;
    }

    static long[] subtract(long[] a, long[] b, DType t) {
        long[] out = new long[a.length];
        for (int i = 0; i < a.length; i++) {
            out[i] = a[i] - b[i];
        }
        return out;
    }

    static long[] multiply(long[] a, long[] b, DType t) {
        long[] out = new long[a.length];
        for (int i = 0; i < a.length; i++) {
            out[i] = a[i] * b[i];
        }
        return out;
    }

    static long[] bitwiseAnd(long[] a, long[] b, DType t) {
        long[] out = new long[a.length];
        for (int i = 0; i < a.length; i++) {
            out[i] = a[i] & b[i];
        }
        return out;
    }

    static long[] bitwiseOr(long[] a, long[] b, DType t) {
        long[] out = new long[a.length];
        for (int i = 0; i < a.length; i++) {
            out[i] = a[i] | b[i];
        }
        return out;
    }

    static long[] bitwiseXor(long[] a, long[] b, DType t) {
        long[] out = new long[a.length];
        for (int i = 0; i < a.length; i++) {
            out[i] = a[i] ^ b[i];
        }
        return out;
    }

    static long[] bitwiseLeftShift(long[] a, long[] b, DType t) {
        int width = t.itemSizeBytes() * 8;
        long[] out = new long[a.length];
        for (int i = 0; i < a.length; i++) {
            out[i] = b[i] < 0 || b[i] >= width ? 0 : a[i] << b[i];
        }
        return out;
    }

    static long[] bitwiseRightShift(long[] a, long[] b, DType t) {
        boolean u64 = t == DType.UINT64;
        int width = t.itemSizeBytes() * 8;
        long[] out = new long[a.length];
        for (int i = 0; i < a.length; i++) {
            if (b[i] < 0 || b[i] >= width) {
                out[i] = !u64 && a[i] < 0 ? -1 : 0;
            } else {
                out[i] = u64 ? a[i] >>> b[i] : a[i] >> b[i];
            }
        }
        return out;
    }

    static long[] floorDivide(long[] a, long[] b, DType t) {
        boolean u64 = t == DType.UINT64;
        long[] out = new long[a.length];
        for (int i = 0; i < a.length; i++) {
            out[i] = b[i] == 0 ? 0 : u64 ? Long.divideUnsigned(a[i], b[i]) : Math.floorDiv(a[i], b[i]);
        }
        return out;
    }

    static long[] remainder(long[] a, long[] b, DType t) {
        boolean u64 = t == DType.UINT64;
        long[] out = new long[a.length];
        for (int i = 0; i < a.length; i++) {
            out[i] = b[i] == 0 ? 0 : u64 ? Long.remainderUnsigned(a[i], b[i]) : Math.floorMod(a[i], b[i]);
        }
        return out;
    }

    static long[] maximum(long[] a, long[] b, DType t) {
        boolean u64 = t == DType.UINT64;
        long[] out = new long[a.length];
        for (int i = 0; i < a.length; i++) {
            out[i] = compare(a[i], b[i], u64) >= 0 ? a[i] : b[i];
        }
        return out;
    }

    static long[] minimum(long[] a, long[] b, DType t) {
        boolean u64 = t == DType.UINT64;
        long[] out = new long[a.length];
        for (int i = 0; i < a.length; i++) {
            out[i] = compare(a[i], b[i], u64) <= 0 ? a[i] : b[i];
        }
        return out;
    }

    static long[] pow(long[] a, long[] b, DType t) {
        long[] out = new long[a.length];
        for (int i = 0; i < a.length; i++) {
            if (b[i] < 0 && t.kind() == DType.Kind.SIGNED) {
                throw new InvalidArgumentException("pow: " + t + " base " + a[i] + " with negative exponent " + b[i]
                        + ": integers to negative integer powers are not allowed (as in NumPy); "
                        + "cast to a floating-point type first");
            }
            out[i] = pow(a[i], b[i]);
        }
        return out;
    }

    static boolean[] equal(long[] a, long[] b, DType t) {
        boolean[] r = new boolean[a.length];
        for (int i = 0; i < a.length; i++) {
            r[i] = a[i] == b[i];
        }
        return r;
    }

    static boolean[] notEqual(long[] a, long[] b, DType t) {
        boolean[] r = new boolean[a.length];
        for (int i = 0; i < a.length; i++) {
            r[i] = a[i] != b[i];
        }
        return r;
    }

    static boolean[] greater(long[] a, long[] b, DType t) {
        boolean u64 = t == DType.UINT64;
        boolean[] r = new boolean[a.length];
        for (int i = 0; i < a.length; i++) {
            r[i] = compare(a[i], b[i], u64) > 0;
        }
        return r;
    }

    static boolean[] greaterEqual(long[] a, long[] b, DType t) {
        boolean u64 = t == DType.UINT64;
        boolean[] r = new boolean[a.length];
        for (int i = 0; i < a.length; i++) {
            r[i] = compare(a[i], b[i], u64) >= 0;
        }
        return r;
    }

    static boolean[] less(long[] a, long[] b, DType t) {
        boolean u64 = t == DType.UINT64;
        boolean[] r = new boolean[a.length];
        for (int i = 0; i < a.length; i++) {
            r[i] = compare(a[i], b[i], u64) < 0;
        }
        return r;
    }

    static boolean[] lessEqual(long[] a, long[] b, DType t) {
        boolean u64 = t == DType.UINT64;
        boolean[] r = new boolean[a.length];
        for (int i = 0; i < a.length; i++) {
            r[i] = compare(a[i], b[i], u64) <= 0;
        }
        return r;
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
