package io.cubed.chunk;

import io.cubed.dtype.DType;
import io.cubed.error.InvalidArgumentException;
import java.util.Arrays;

/**
 * Kernels of the blocked scans ({@code cumulative_sum}, {@code cumulative_prod}) and of {@code diff} on one chunk:
 * the inclusive scan along an axis, slices along an axis, and combining a scanned chunk with the running total of the
 * chunks before it. Integers accumulate in 64 bits and wrap to the result type; floating point in double, rounded to
 * float32 per element for float32 results; complex in pairs of doubles.
 */
public final class Scans {
    private Scans() {}

    /** The inclusive scan (running sum or product) of {@code x} along {@code axis}, in type {@code resultType}. */
    public static Chunk scan(Chunk x, int axis, boolean prod, DType resultType) {
        Chunk c = x.dtype() == resultType ? copy(x) : Casting.astype(x, resultType);
        int[] s = c.shape();
        int len = s[axis];
        int inner = 1;
        for (int a = axis + 1; a < s.length; a++) {
            inner *= s[a];
        }
        int outer = len == 0 ? 0 : c.size() / (len * Math.max(1, inner));
        if (inner == 0) {
            return c;
        }
        if (resultType.isComplex()) {
            double[] d = Casting.toDoubles(c);
            double[] w = d == c.data() ? d : d.clone();
            for (int o = 0; o < outer; o++) {
                for (int i = 1; i < len; i++) {
                    int cur = (o * len + i) * inner;
                    int prev = cur - inner;
                    for (int k = 0; k < inner; k++) {
                        combineComplex(w, 2 * (cur + k), w, 2 * (prev + k), prod);
                    }
                }
            }
            return Chunk.wrap(resultType, s, Casting.fromDoubles(w, resultType));
        }
        if (resultType.isFloating()) {
            double[] d = Casting.toDoubles(c);
            double[] w = d == c.data() ? d : d.clone();
            boolean f32 = resultType == DType.FLOAT32;
            for (int o = 0; o < outer; o++) {
                for (int i = 1; i < len; i++) {
                    int cur = (o * len + i) * inner;
                    int prev = cur - inner;
                    for (int k = 0; k < inner; k++) {
                        double v = prod ? w[cur + k] * w[prev + k] : w[cur + k] + w[prev + k];
                        w[cur + k] = f32 ? (float) v : v;
                    }
                }
            }
            return Chunk.wrap(resultType, s, Casting.fromDoubles(w, resultType));
        }
        long[] l = Casting.toLongs(c);
        for (int o = 0; o < outer; o++) {
            for (int i = 1; i < len; i++) {
                int cur = (o * len + i) * inner;
                int prev = cur - inner;
                for (int k = 0; k < inner; k++) {
                    l[cur + k] = prod ? l[cur + k] * l[prev + k] : l[cur + k] + l[prev + k];
                }
            }
        }
        return Chunk.wrap(resultType, s, Casting.fromLongs(l, resultType));
    }

    private static void combineComplex(double[] w, int i, double[] b, int j, boolean prod) {
        if (prod) {
            double re = w[i] * b[j] - w[i + 1] * b[j + 1];
            double im = w[i] * b[j + 1] + w[i + 1] * b[j];
            w[i] = re;
            w[i + 1] = im;
        } else {
            w[i] += b[j];
            w[i + 1] += b[j + 1];
        }
    }

    /** A new chunk with the elements of {@code x}. */
    public static Chunk copy(Chunk x) {
        Chunk c = Chunk.allocate(x.dtype(), x.shape());
        Chunk.copyRegion(x, new int[x.ndim()], c, new int[x.ndim()], x.shape());
        return c;
    }

    /** Elements {@code [from, to)} of {@code x} along {@code axis}, as a new chunk (the axis kept). */
    public static Chunk slice(Chunk x, int axis, int from, int to) {
        int[] shape = x.shape();
        if (from < 0 || to > shape[axis] || from > to) {
            throw new InvalidArgumentException("slice [" + from + ", " + to + ") along axis " + axis
                    + " is outside chunk shape " + Arrays.toString(shape));
        }
        int[] ext = shape.clone();
        ext[axis] = to - from;
        int[] src = new int[shape.length];
        src[axis] = from;
        Chunk c = Chunk.allocate(x.dtype(), ext);
        Chunk.copyRegion(x, src, c, new int[shape.length], ext);
        return c;
    }

    /**
     * {@code scanned} combined with {@code offset} (the running total of the chunks before, length 1 along
     * {@code axis}, of the same type): every element along the axis plus (or times) the offset, as a new chunk.
     */
    public static Chunk applyOffset(Chunk scanned, Chunk offset, int axis, boolean prod) {
        DType t = scanned.dtype();
        if (offset.dtype() != t) {
            offset = Casting.astype(offset, t);
        }
        int[] s = scanned.shape();
        int len = s[axis];
        int inner = 1;
        for (int a = axis + 1; a < s.length; a++) {
            inner *= s[a];
        }
        int outer = len * inner == 0 ? 0 : scanned.size() / (len * inner);
        if (t.isComplex()) {
            double[] w = Casting.toDoubles(scanned).clone();
            double[] off = Casting.toDoubles(offset);
            for (int o = 0; o < outer; o++) {
                for (int i = 0; i < len; i++) {
                    for (int k = 0; k < inner; k++) {
                        combineComplex(w, 2 * ((o * len + i) * inner + k), off, 2 * (o * inner + k), prod);
                    }
                }
            }
            return Chunk.wrap(t, s, Casting.fromDoubles(w, t));
        }
        if (t.isFloating()) {
            double[] w = Casting.toDoubles(scanned).clone();
            double[] off = Casting.toDoubles(offset);
            for (int o = 0; o < outer; o++) {
                for (int i = 0; i < len; i++) {
                    int base = (o * len + i) * inner;
                    for (int k = 0; k < inner; k++) {
                        w[base + k] = prod ? w[base + k] * off[o * inner + k] : w[base + k] + off[o * inner + k];
                    }
                }
            }
            return Chunk.wrap(t, s, Casting.fromDoubles(w, t));
        }
        long[] w = Casting.toLongs(scanned).clone();
        long[] off = Casting.toLongs(offset);
        for (int o = 0; o < outer; o++) {
            for (int i = 0; i < len; i++) {
                int base = (o * len + i) * inner;
                for (int k = 0; k < inner; k++) {
                    w[base + k] = prod ? w[base + k] * off[o * inner + k] : w[base + k] + off[o * inner + k];
                }
            }
        }
        return Chunk.wrap(t, s, Casting.fromLongs(w, t));
    }
}
