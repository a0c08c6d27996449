package io.cubed.chunk;

import io.cubed.dtype.DType;
import io.cubed.dtype.DTypes;
import io.cubed.dtype.IInfo;
import java.util.Random;

/** Deterministic pseudo-random test chunks with the special values of each type mixed in. */
final class TestInputs {
    /** Which values to draw. */
    enum Range {
        /** Special values (0, -0, ±inf, NaN, type limits) plus random values of every magnitude. */
        FULL,
        /** Finite values of moderate magnitude (|x| up to about 10), no specials. */
        MODERATE,
        /** Small non-negative integers 0..12 (exponents). */
        EXPONENT,
        /** Integers from -2 to width + 1 (shift counts). */
        SHIFT
    }

    private static final double[] SPECIAL_DOUBLES = {
        0.0,
        -0.0,
        1.0,
        -1.0,
        0.5,
        -0.5,
        1.5,
        2.5,
        -2.5,
        3.5,
        Double.POSITIVE_INFINITY,
        Double.NEGATIVE_INFINITY,
        Double.NaN,
        Double.MAX_VALUE,
        -Double.MAX_VALUE,
        Double.MIN_NORMAL,
        Double.MIN_VALUE,
        -Double.MIN_VALUE,
        1e300,
        -1e-300,
        Math.PI,
        0x1p52 + 0.5,
        2.0,
        3.0,
        -3.0,
        0.9999999,
        1.0000001
    };

    private static final float[] SPECIAL_FLOATS = {
        Float.MAX_VALUE, -Float.MAX_VALUE, Float.MIN_NORMAL, Float.MIN_VALUE, 1e30f, 0x1p23f + 0.5f
    };

    private TestInputs() {}

    static Chunk chunk(DType t, Range range, int n, long seed) {
        Random r = new Random(seed);
        Chunk c = Chunk.allocate(t, n);
        switch (t.kind()) {
            case BOOL:
                for (int i = 0; i < n; i++) {
                    c.booleans()[i] = r.nextBoolean();
                }
                return c;
            case SIGNED:
            case UNSIGNED:
                long[] l = new long[n];
                for (int i = 0; i < n; i++) {
                    l[i] = integer(t, range, r, i);
                }
                return Chunk.wrap(t, new int[] {n}, Casting.fromLongs(l, t));
            default:
                int slots = t.slotsPerElement();
                double[] d = new double[n * slots];
                for (int i = 0; i < d.length; i++) {
                    d[i] = real(t, range, r, i);
                }
                return Chunk.wrap(t, new int[] {n}, Casting.fromDoubles(d, t));
        }
    }

    private static long integer(DType t, Range range, Random r, int i) {
        IInfo info = DTypes.iinfo(t);
        boolean signed = t.kind() == DType.Kind.SIGNED;
        if (range == Range.EXPONENT) {
            return r.nextInt(13);
        }
        if (range == Range.SHIFT) {
            return (signed ? -2 : 0) + r.nextInt(info.bits() + 4);
        }
        long[] specials = {0, 1, -1, 2, info.min(), info.max(), info.min() + 1, info.max() - 1, 7, -7};
        if (i < specials.length) {
            return specials[i];
        }
        return r.nextInt(3) == 0 ? r.nextInt(41) - 20 : r.nextLong();
    }

    private static double real(DType t, Range range, Random r, int i) {
        boolean f32 = DTypes.realOf(t) == DType.FLOAT32;
        if (range == Range.EXPONENT) {
            return r.nextInt(13);
        }
        if (range == Range.FULL) {
            if (i < SPECIAL_DOUBLES.length) {
                return SPECIAL_DOUBLES[i];
            }
            if (f32 && i - SPECIAL_DOUBLES.length < SPECIAL_FLOATS.length) {
                return SPECIAL_FLOATS[i - SPECIAL_DOUBLES.length];
            }
            if (r.nextInt(4) == 0) {
                double m = Math.scalb(r.nextDouble() + 0.5, r.nextInt(f32 ? 200 : 1600) - (f32 ? 100 : 800));
                return r.nextBoolean() ? m : -m;
            }
        }
        switch (r.nextInt(4)) {
            case 0:
                return (r.nextInt(41) - 20) / 2.0;
            case 1:
                return r.nextDouble() * 4 - 2;
            default:
                return r.nextDouble() * 20 - 10;
        }
    }
}
