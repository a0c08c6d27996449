package io.cubed.chunk;

import io.cubed.dtype.DType;
import java.util.Arrays;

/**
 * Unary loops on integers held in the widened {@code long[]} working arrays of {@link Casting#toLongs}, one method per
 * function of {@link UnaryFunction}: results are computed modulo 2<sup>64</sup> and later wrapped to the type's
 * width, which gives NumPy's wraparound ({@code negative} of int8 -128 is -128). Unsigned types are zero-extended.
 * The binary loops are in {@link IntBinary}.
 */
final class IntUnary {
    private IntUnary() {}

    static long[] abs(long[] x, DType t) {
        if (t.kind() == DType.Kind.UNSIGNED) {
            return x.clone();
        }
        long[] out = new long[x.length];
        for (int i = 0; i < x.length; i++) {
            out[i] = Math.abs(x[i]);
        }
        return out;
    }

    static long[] bitwiseInvert(long[] x, DType t) {
        long[] out = new long[x.length];
        for (int i = 0; i < x.length; i++) {
            out[i] = ~x[i];
        }
        return out;
    }

    static long[] negative(long[] x, DType t) {
        long[] out = new long[x.length];
        for (int i = 0; i < x.length; i++) {
            out[i] = -x[i];
        }
        return out;
    }

    static long[] square(long[] x, DType t) {
        long[] out = new long[x.length];
        for (int i = 0; i < x.length; i++) {
            out[i] = x[i] * x[i];
        }
        return out;
    }

    static long[] sign(long[] x, DType t) {
        boolean unsigned = t.kind() == DType.Kind.UNSIGNED;
        long[] out = new long[x.length];
        for (int i = 0; i < x.length; i++) {
            out[i] = unsigned ? (x[i] != 0 ? 1 : 0) : Long.signum(x[i]);
        }
        return out;
    }

    /** The identity (a copy): {@code positive}, and the rounding functions, which leave integers unchanged. */
    static long[] copy(long[] x, DType t) {
        return x.clone();
    }

    /** {@code isfinite}: every integer is finite. */
    static boolean[] allTrue(long[] x, DType t) {
        boolean[] out = new boolean[x.length];
        Arrays.fill(out, true);
        return out;
    }

    /** {@code isinf} and {@code isnan}: no integer is infinite or NaN. */
    static boolean[] allFalse(long[] x, DType t) {
        return new boolean[x.length];
    }
}
