package io.cubed.chunk;

import io.cubed.dtype.DType;
import io.cubed.error.InvalidArgumentException;

/**
 * Conversions between chunk element arrays: widening to the {@code long[]} / {@code double[]} working arrays of the
 * kernels, narrowing back, and {@link Elementwise#astype}'s casts with NumPy semantics.
 */
final class Casting {
    private static final double TWO_63 = 0x1p63;
    private static final double TWO_64 = 0x1p64;
    private static final double TWO_31 = 0x1p31;

    private Casting() {}

    /**
     * The elements of a bool or integer chunk as longs: signed types sign-extended, unsigned zero-extended, uint64 as
     * its bits, bool as 0/1. For int64/uint64 this is the chunk's own array (callers must not write to it).
     */
    static long[] toLongs(Chunk c) {
        int n = c.size();
        long[] out;
        switch (c.dtype()) {
            case INT64:
            case UINT64:
                return c.longs();
            case BOOL:
                boolean[] z = c.booleans();
                out = new long[n];
                for (int i = 0; i < n; i++) {
                    out[i] = z[i] ? 1 : 0;
                }
                return out;
            case INT8:
                byte[] b = c.bytes();
                out = new long[n];
                for (int i = 0; i < n; i++) {
                    out[i] = b[i];
                }
                return out;
            case UINT8:
                byte[] ub = c.bytes();
                out = new long[n];
                for (int i = 0; i < n; i++) {
                    out[i] = ub[i] & 0xFFL;
                }
                return out;
            case INT16:
                short[] s = c.shorts();
                out = new long[n];
                for (int i = 0; i < n; i++) {
                    out[i] = s[i];
                }
                return out;
            case UINT16:
                short[] us = c.shorts();
                out = new long[n];
                for (int i = 0; i < n; i++) {
                    out[i] = us[i] & 0xFFFFL;
                }
                return out;
            case INT32:
                int[] iv = c.ints();
                out = new long[n];
                for (int i = 0; i < n; i++) {
                    out[i] = iv[i];
                }
                return out;
            case UINT32:
                int[] uv = c.ints();
                out = new long[n];
                for (int i = 0; i < n; i++) {
                    out[i] = uv[i] & 0xFFFFFFFFL;
                }
                return out;
            default:
                throw new AssertionError(c.dtype());
        }
    }

    /** The integer array of type {@code t} holding {@code v} wrapped to the type's width ({@code v} itself for 64 bits). */
    static Object fromLongs(long[] v, DType t) {
        int n = v.length;
        switch (t) {
            case INT64:
            case UINT64:
                return v;
            case INT8:
            case UINT8:
                byte[] b = new byte[n];
                for (int i = 0; i < n; i++) {
                    b[i] = (byte) v[i];
                }
                return b;
            case INT16:
            case UINT16:
                short[] s = new short[n];
                for (int i = 0; i < n; i++) {
                    s[i] = (short) v[i];
                }
                return s;
            case INT32:
            case UINT32:
                int[] iv = new int[n];
                for (int i = 0; i < n; i++) {
                    iv[i] = (int) v[i];
                }
                return iv;
            default:
                throw new AssertionError(t);
        }
    }

    /**
     * The slots of a floating-point chunk (real or interleaved complex) as doubles; for float64/complex128 this is the
     * chunk's own array (callers must not write to it).
     */
    static double[] toDoubles(Chunk c) {
        if (c.dtype() == DType.FLOAT64 || c.dtype() == DType.COMPLEX128) {
            return c.doubles();
        }
        float[] f = c.floats();
        double[] d = TileArrays.doubles(f.length);
        for (int i = 0; i < f.length; i++) {
            d[i] = f[i];
        }
        return d;
    }

    /** The array of floating-point type {@code t} holding {@code v} rounded to its precision ({@code v} itself for 64 bits). */
    static Object fromDoubles(double[] v, DType t) {
        if (t == DType.FLOAT64 || t == DType.COMPLEX128) {
            return v;
        }
        float[] f = TileArrays.floats(v.length);
        for (int i = 0; i < v.length; i++) {
            f[i] = (float) v[i];
        }
        return f;
    }

    /** The uint64 held in the bits of {@code v}, correctly rounded to a double. */
    static double uint64ToDouble(long v) {
        if (v >= 0) {
            return v;
        }
        // Halve keeping the lost bit as a sticky bit so the single rounding of the conversion stays correct.
        return (double) ((v >>> 1) | (v & 1)) * 2.0;
    }

    /** The uint64 held in the bits of {@code v}, correctly rounded to a float. */
    static float uint64ToFloat(long v) {
        if (v >= 0) {
            return v;
        }
        return (float) ((v >>> 1) | (v & 1)) * 2.0f;
    }

    /**
     * A double converted to integer type {@code t}, truncating toward zero, as the type's bits in a long. Values whose
     * truncation is outside the type's range, NaN and infinities are undefined behaviour in C and platform-defined in
     * NumPy; we reproduce NumPy on x86-64. The signed types, uint8 and uint16 convert through a 32- or 64-bit signed
     * integer whose invalid result is its minimum, then wrap. uint64 converts a value below 2<sup>63</sup> (and NaN)
     * that way (NaN, -inf and values below -2<sup>63</sup> give 2<sup>63</sup>, other negative values wrap modulo
     * 2<sup>64</sup>), and a larger one as the value less 2<sup>63</sup> with the top bit set (2<sup>64</sup> and more,
     * and +inf, give 0). uint32 gives the value wrapped modulo 2<sup>32</sup> when it is within the int64 range and 0
     * otherwise, as NumPy's element-at-a-time loop does (its vectorized loop, which NumPy takes for longer arrays, gives
     * 2<sup>31</sup> for some of these values instead, so NumPy's own result depends on the array's length).
     */
    static long doubleToIntegerBits(double v, DType t) {
        switch (t) {
            case INT8:
            case INT16:
            case INT32:
            case UINT8:
            case UINT16:
                return v > -TWO_31 - 1 && v < TWO_31 ? (int) v : Integer.MIN_VALUE;
            case INT64:
                return v >= -TWO_63 && v < TWO_63 ? (long) v : Long.MIN_VALUE;
            case UINT32:
                return v > -TWO_63 - 1 && v < TWO_63 ? (long) v & 0xFFFFFFFFL : 0;
            case UINT64:
                if (v >= TWO_63) {
                    // The signed conversion's invalid result, the minimum, flipped by the top bit: 0.
                    return v < TWO_64 ? (long) (v - TWO_63) ^ Long.MIN_VALUE : 0;
                }
                return v >= -TWO_63 ? (long) v : Long.MIN_VALUE;
            default:
                throw new AssertionError(t);
        }
    }

    /** {@link Elementwise#astype}: a new chunk of type {@code to} holding the elements of {@code x} converted. */
    static Chunk astype(Chunk x, DType to) {
        DType from = x.dtype();
        int n = x.size();
        int[] shape = x.shape();
        if (from.isComplex() && !to.isComplex() && to != DType.BOOL) {
            throw new InvalidArgumentException("astype: casting " + from + " to " + to
                    + " is not allowed by the Array API standard (it would drop the imaginary part); "
                    + "use real() or abs() first");
        }
        if (to == DType.BOOL) {
            boolean[] out = new boolean[n];
            if (from.isFloating() || from.isComplex()) {
                double[] d = toDoubles(x);
                int slots = from.slotsPerElement();
                for (int i = 0; i < n; i++) {
                    out[i] = d[i * slots] != 0 || (slots == 2 && d[i * slots + 1] != 0);
                }
            } else {
                long[] l = toLongs(x);
                for (int i = 0; i < n; i++) {
                    out[i] = l[i] != 0;
                }
            }
            return Chunk.wrap(to, shape, out);
        }
        if (from == DType.BOOL || from.isInteger()) {
            long[] l = toLongs(x);
            if (to.isInteger()) {
                return Chunk.wrap(to, shape, fromLongs(l == x.data() ? l.clone() : l, to));
            }
            boolean u64 = from == DType.UINT64;
            int slots = to.slotsPerElement();
            double[] d = new double[n * slots];
            for (int i = 0; i < n; i++) {
                // float32 targets round once from the exact integer, not through double.
                d[i * slots] = to == DType.FLOAT32 || to == DType.COMPLEX64
                        ? (u64 ? uint64ToFloat(l[i]) : (float) l[i])
                        : (u64 ? uint64ToDouble(l[i]) : (double) l[i]);
            }
            return Chunk.wrap(to, shape, fromDoubles(d, to));
        }
        double[] d = toDoubles(x);
        if (to.isInteger()) {
            long[] l = new long[n];
            for (int i = 0; i < n; i++) {
                l[i] = doubleToIntegerBits(d[i], to);
            }
            return Chunk.wrap(to, shape, fromLongs(l, to));
        }
        if (from.isComplex() == to.isComplex()) {
            return Chunk.wrap(to, shape, fromDoubles(d == x.data() ? d.clone() : d, to));
        }
        double[] c = new double[2 * n];
        for (int i = 0; i < n; i++) {
            c[2 * i] = d[i];
        }
        return Chunk.wrap(to, shape, fromDoubles(c, to));
    }
}
