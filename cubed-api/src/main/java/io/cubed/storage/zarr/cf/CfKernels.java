package io.cubed.storage.zarr.cf;

import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.error.InvalidArgumentException;

/**
 * The loops of {@link CfDecoding} over a run of elements of one chunk ({@code n} elements from C-order position {@code
 * from}) into an array of the decoded type (from {@code off}). Mask and scale run as numpy runs them for xarray: the
 * stored values converted to the decoded float type, multiplied by {@code scale_factor} and added {@code add_offset}
 * (each rounded to that type first) in separate IEEE operations, then NaN wherever the stored value equals a mask
 * value.
 */
final class CfKernels {
    private CfKernels() {}

    /**
     * How an int16 array packed into float32 decodes ({@code value * scale + offset}, NaN at the mask values), for
     * {@link VectorCfKernels}: a missing {@code scale_factor} is 1 and a missing {@code add_offset} is -0.0, which
     * change no value (not even the sign of a zero), so that one loop serves every such array.
     */
    record Int16ToFloat32(float scale, float offset, short[] masks) {}

    /**
     * {@code n} int16 values of {@code raw} from {@code from}, decoded as {@code p} says, into {@code f} from {@code
     * off}, the index of each masked one recorded in {@code missing} (when not null); returns how many. The vector
     * loops once {@link CfWarmup} has found them warm, else the lookup in {@code table} (the same values, NaN at the
     * mask values).
     */
    static int int16ToFloat32(
            Chunk raw,
            int from,
            Int16ToFloat32 p,
            float[] table,
            long[] masks,
            float[] f,
            int off,
            int n,
            int[] missing) {
        if (CfWarmup.VECTOR.useVector(n)) {
            return VectorCfKernels.int16ToFloat32(
                    raw.shorts(), from, p.scale(), p.offset(), p.masks(), f, off, n, missing);
        }
        return lookup(raw, from, table, masks, f, off, n, missing);
    }

    /** Elements {@code from .. from + n} of {@code raw}, masked and scaled, into {@code f} (float32 decoding). */
    static void toFloat32(Chunk raw, int from, CfDecoding d, float[] f, int off, int n) {
        Double s = d.scale();
        Double o = d.offset();
        if (raw.dtype() == DType.INT16 && s != null && o != null) {
            // The packed ERA5 case in one pass: Java rounds the product to float before adding, as numpy's two
            // in-place steps do (no fused multiply-add).
            short[] in = raw.shorts();
            float sf = (float) (double) s;
            float of = (float) (double) o;
            for (int i = 0; i < n; i++) {
                f[off + i] = in[from + i] * sf + of;
            }
        } else {
            toFloats(raw, from, f, off, n);
            if (s != null) {
                float sf = (float) (double) s;
                for (int i = off; i < off + n; i++) {
                    f[i] *= sf;
                }
            }
            if (o != null) {
                float of = (float) (double) o;
                for (int i = off; i < off + n; i++) {
                    f[i] += of;
                }
            }
        }
        mask(raw, from, d, f, null, off, n);
    }

    /** Elements {@code from .. from + n} of {@code raw}, masked and scaled, into {@code f} (float64 decoding). */
    static void toFloat64(Chunk raw, int from, CfDecoding d, double[] f, int off, int n) {
        toDoubles(raw, from, f, off, n);
        Double s = d.scale();
        Double o = d.offset();
        if (s != null) {
            double sd = s;
            for (int i = off; i < off + n; i++) {
                f[i] *= sd;
            }
        }
        if (o != null) {
            double od = o;
            for (int i = off; i < off + n; i++) {
                f[i] += od;
            }
        }
        mask(raw, from, d, null, f, off, n);
    }

    private static void toFloats(Chunk raw, int from, float[] f, int off, int n) {
        switch (raw.dtype()) {
            case FLOAT32:
                System.arraycopy(raw.floats(), from, f, off, n);
                return;
            case INT16: {
                short[] s = raw.shorts();
                for (int i = 0; i < n; i++) {
                    f[off + i] = s[from + i];
                }
                return;
            }
            case UINT16: {
                short[] s = raw.shorts();
                for (int i = 0; i < n; i++) {
                    f[off + i] = s[from + i] & 0xffff;
                }
                return;
            }
            case INT8: {
                byte[] b = raw.bytes();
                for (int i = 0; i < n; i++) {
                    f[off + i] = b[from + i];
                }
                return;
            }
            case UINT8: {
                byte[] b = raw.bytes();
                for (int i = 0; i < n; i++) {
                    f[off + i] = b[from + i] & 0xff;
                }
                return;
            }
            default:
                for (int i = 0; i < n; i++) {
                    f[off + i] = (float) raw.getDouble(from + i);
                }
        }
    }

    private static void toDoubles(Chunk raw, int from, double[] f, int off, int n) {
        switch (raw.dtype()) {
            case FLOAT64:
                System.arraycopy(raw.doubles(), from, f, off, n);
                return;
            case INT32: {
                int[] s = raw.ints();
                for (int i = 0; i < n; i++) {
                    f[off + i] = s[from + i];
                }
                return;
            }
            case INT64: {
                long[] s = raw.longs();
                for (int i = 0; i < n; i++) {
                    f[off + i] = s[from + i];
                }
                return;
            }
            case INT16: {
                short[] s = raw.shorts();
                for (int i = 0; i < n; i++) {
                    f[off + i] = s[from + i];
                }
                return;
            }
            case BOOL: {
                boolean[] b = raw.booleans();
                for (int i = 0; i < n; i++) {
                    f[off + i] = b[from + i] ? 1 : 0;
                }
                return;
            }
            default:
                for (int i = 0; i < n; i++) {
                    f[off + i] = raw.getDouble(from + i);
                }
        }
    }

    /** Sets NaN in {@code f} (float32) or {@code g} (float64) wherever the stored value is a mask value. */
    private static void mask(Chunk raw, int from, CfDecoding d, float[] f, double[] g, int off, int n) {
        if (raw.dtype().isFloating()) {
            for (double m : d.floatMasks()) {
                if (raw.dtype() == DType.FLOAT32) {
                    float[] r = raw.floats();
                    float mf = (float) m;
                    for (int i = 0; i < n; i++) {
                        if (r[from + i] == mf) {
                            setNaN(f, g, off + i);
                        }
                    }
                } else {
                    double[] r = raw.doubles();
                    for (int i = 0; i < n; i++) {
                        if (r[from + i] == m) {
                            setNaN(f, g, off + i);
                        }
                    }
                }
            }
            return;
        }
        for (long m : d.integerMasks()) {
            switch (raw.dtype()) {
                case INT16:
                case UINT16: {
                    short[] r = raw.shorts();
                    short ms = (short) m;
                    for (int i = 0; i < n; i++) {
                        if (r[from + i] == ms) {
                            setNaN(f, g, off + i);
                        }
                    }
                    break;
                }
                case INT8:
                case UINT8: {
                    byte[] r = raw.bytes();
                    byte mb = (byte) m;
                    for (int i = 0; i < n; i++) {
                        if (r[from + i] == mb) {
                            setNaN(f, g, off + i);
                        }
                    }
                    break;
                }
                case INT32:
                case UINT32: {
                    int[] r = raw.ints();
                    int mi = (int) m;
                    for (int i = 0; i < n; i++) {
                        if (r[from + i] == mi) {
                            setNaN(f, g, off + i);
                        }
                    }
                    break;
                }
                case INT64:
                case UINT64: {
                    long[] r = raw.longs();
                    for (int i = 0; i < n; i++) {
                        if (r[from + i] == m) {
                            setNaN(f, g, off + i);
                        }
                    }
                    break;
                }
                default:
                    throw new AssertionError(raw.dtype());
            }
        }
    }

    private static void setNaN(float[] f, double[] g, int i) {
        if (f != null) {
            f[i] = Float.NaN;
        } else {
            g[i] = Double.NaN;
        }
    }

    /**
     * Times of {@code n} elements of {@code numbers} (an integer or floating chunk, masked and scaled) from {@code from},
     * in microseconds since 1970-01-01, into {@code t} from {@code off}.
     */
    static void times(Chunk numbers, int from, CfTimeUnits units, String what, long[] t, int off, int n) {
        boolean floating = numbers.dtype().isFloating();
        for (int i = 0; i < n; i++) {
            int at = from + i;
            long m = floating ? units.labelMicros(numbers.getDouble(at)) : units.labelMicros(numbers.getLong(at));
            if (m == CfTimeUnits.UNREPRESENTABLE) {
                throw unrepresentable(
                        floating ? Double.toString(numbers.getDouble(at)) : Long.toString(numbers.getLong(at)),
                        units,
                        what);
            }
            t[off + i] = m;
        }
    }

    /**
     * Times of {@code n} elements of the integer chunk {@code raw} (as read: unsigned values widened) from {@code
     * from}, {@link CfTimeUnits#NAT} where the value is one of {@code masks}, into {@code t} from {@code off}: the
     * stored integers themselves, exact at any size.
     */
    static void maskedIntegerTimes(
            Chunk raw, int from, long[] masks, CfTimeUnits units, String what, long[] t, int off, int n) {
        for (int i = 0; i < n; i++) {
            long v = raw.getLong(from + i);
            if (isMask(v, masks)) {
                t[off + i] = CfTimeUnits.NAT;
                continue;
            }
            long m = units.labelMicros(v);
            if (m == CfTimeUnits.UNREPRESENTABLE) {
                throw unrepresentable(Long.toString(v), units, what);
            }
            t[off + i] = m;
        }
    }

    /** True when {@code v} is one of {@code masks}. */
    static boolean isMask(long v, long[] masks) {
        for (long m : masks) {
            if (v == m) {
                return true;
            }
        }
        return false;
    }

    private static InvalidArgumentException unrepresentable(String value, CfTimeUnits units, String what) {
        return new InvalidArgumentException("CF time decoding: the value " + value + " of " + what + " in units "
                + units
                + (units.isDuration()
                        ? " is no duration a long holds in microseconds"
                        : " has no timestamp (dates of years 1 to 9999 on the Gregorian calendar)")
                + "; read it undecoded with the option decodeTimes=false");
    }

    /**
     * Decodes {@code n} values of an 8- or 16-bit integer chunk from {@code from} by {@code table} (the decoded value of
     * each stored bit pattern, a {@code float[]} or {@code double[]}) into {@code dst} from {@code off}; records in
     * {@code missing} (when not null) the index in {@code dst} of each value equal to one of {@code masks} (the only
     * values the table makes NaN) and returns how many.
     */
    static int lookup(Chunk raw, int from, Object table, long[] masks, Object dst, int off, int n, int[] missing) {
        int k = 0;
        if (raw.dtype().itemSizeBytes() == 2 && table instanceof float[] t && masks.length == 1 && missing != null) {
            // The packed ERA5 case: one pass, the mask compared on the stored value already loaded.
            short[] in = raw.shorts();
            float[] f = (float[]) dst;
            short m = (short) masks[0];
            for (int i = 0; i < n; i++) {
                short x = in[from + i];
                f[off + i] = t[x & 0xffff];
                if (x == m) {
                    missing[k++] = off + i;
                }
            }
            return k;
        }
        int bits = raw.dtype().itemSizeBytes() == 2 ? 0xffff : 0xff;
        for (int i = 0; i < n; i++) {
            int x = raw.dtype().itemSizeBytes() == 2 ? raw.shorts()[from + i] & bits : raw.bytes()[from + i] & bits;
            if (table instanceof float[] t) {
                ((float[]) dst)[off + i] = t[x];
            } else {
                ((double[]) dst)[off + i] = ((double[]) table)[x];
            }
        }
        if (missing != null) {
            for (int i = 0; i < n; i++) {
                int x = raw.dtype().itemSizeBytes() == 2 ? raw.shorts()[from + i] & bits : raw.bytes()[from + i] & bits;
                for (long m : masks) {
                    if (x == (m & bits)) {
                        missing[k++] = off + i;
                        break;
                    }
                }
            }
        }
        return k;
    }

    /** Records the index of each NaN (floats) or {@link CfTimeUnits#NAT} (longs) of {@code dst} in the run. */
    static int missing(Object dst, int off, int n, int[] missing) {
        int k = 0;
        if (dst instanceof float[] f) {
            return CfWarmup.VECTOR.useVector(n) ? VectorCfKernels.nans(f, off, n, missing) : nans(f, off, n, missing);
        } else if (dst instanceof double[] d) {
            for (int i = off; i < off + n; i++) {
                if (Double.isNaN(d[i])) {
                    missing[k++] = i;
                }
            }
        } else if (dst instanceof long[] t) {
            for (int i = off; i < off + n; i++) {
                if (t[i] == CfTimeUnits.NAT) {
                    missing[k++] = i;
                }
            }
        }
        return k;
    }

    /** The scalar loop of {@link #missing} on float32: the index of each NaN of {@code f[off .. off + n]}. */
    static int nans(float[] f, int off, int n, int[] missing) {
        int k = 0;
        for (int i = off; i < off + n; i++) {
            if (Float.isNaN(f[i])) {
                missing[k++] = i;
            }
        }
        return k;
    }

    /**
     * {@code n} masked or scaled values of xarray's encoded booleans ({@code numbers}, float) as bool into {@code b}
     * from {@code off}: nonzero is true, NaN included, as numpy casts floats to bool.
     */
    static void boolsOfNumbers(Chunk numbers, boolean[] b, int off, int n) {
        for (int i = 0; i < n; i++) {
            b[off + i] = numbers.getDouble(i) != 0;
        }
    }

    /** {@code n} integers of xarray's encoded booleans from {@code from} as bool (nonzero is true) into {@code b}. */
    static void bools(Chunk raw, int from, boolean[] b, int off, int n) {
        for (int i = 0; i < n; i++) {
            b[off + i] = raw.getLong(from + i) != 0;
        }
    }
}
