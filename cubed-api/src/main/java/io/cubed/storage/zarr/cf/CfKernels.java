package io.cubed.storage.zarr.cf;

import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.error.InvalidArgumentException;

/**
 * The loops of {@link CfDecoding} over one chunk. Mask and scale run as numpy runs them for xarray: the stored values
 * converted to the decoded float type, multiplied by {@code scale_factor} and added {@code add_offset} (each rounded
 * to that type first) in separate IEEE operations, then NaN wherever the stored value equals a mask value.
 */
final class CfKernels {
    private CfKernels() {}

    /** {@code raw} masked and scaled into a chunk of {@link CfDecoding#numeric}. */
    static Chunk maskAndScale(Chunk raw, CfDecoding d) {
        int n = raw.size();
        Chunk out = Chunk.allocate(d.numeric(), raw.shape());
        if (d.numeric() == DType.FLOAT32) {
            float[] f = out.floats();
            toFloats(raw, f);
            Double s = d.scale();
            Double o = d.offset();
            if (s != null) {
                float sf = (float) (double) s;
                for (int i = 0; i < n; i++) {
                    f[i] *= sf;
                }
            }
            if (o != null) {
                float of = (float) (double) o;
                for (int i = 0; i < n; i++) {
                    f[i] += of;
                }
            }
            mask(raw, d, out);
        } else if (d.numeric() == DType.FLOAT64) {
            double[] f = out.doubles();
            toDoubles(raw, f);
            Double s = d.scale();
            Double o = d.offset();
            if (s != null) {
                double sd = s;
                for (int i = 0; i < n; i++) {
                    f[i] *= sd;
                }
            }
            if (o != null) {
                double od = o;
                for (int i = 0; i < n; i++) {
                    f[i] += od;
                }
            }
            mask(raw, d, out);
        } else {
            throw new AssertionError(d.numeric());
        }
        return out;
    }

    private static void toFloats(Chunk raw, float[] f) {
        int n = f.length;
        switch (raw.dtype()) {
            case FLOAT32:
                System.arraycopy(raw.floats(), 0, f, 0, n);
                return;
            case INT16: {
                short[] s = raw.shorts();
                for (int i = 0; i < n; i++) {
                    f[i] = s[i];
                }
                return;
            }
            case UINT16: {
                short[] s = raw.shorts();
                for (int i = 0; i < n; i++) {
                    f[i] = s[i] & 0xffff;
                }
                return;
            }
            case INT8: {
                byte[] b = raw.bytes();
                for (int i = 0; i < n; i++) {
                    f[i] = b[i];
                }
                return;
            }
            case UINT8: {
                byte[] b = raw.bytes();
                for (int i = 0; i < n; i++) {
                    f[i] = b[i] & 0xff;
                }
                return;
            }
            default:
                for (int i = 0; i < n; i++) {
                    f[i] = (float) raw.getDouble(i);
                }
        }
    }

    private static void toDoubles(Chunk raw, double[] f) {
        int n = f.length;
        switch (raw.dtype()) {
            case FLOAT64:
                System.arraycopy(raw.doubles(), 0, f, 0, n);
                return;
            case INT32: {
                int[] s = raw.ints();
                for (int i = 0; i < n; i++) {
                    f[i] = s[i];
                }
                return;
            }
            case INT64: {
                long[] s = raw.longs();
                for (int i = 0; i < n; i++) {
                    f[i] = s[i];
                }
                return;
            }
            case INT16: {
                short[] s = raw.shorts();
                for (int i = 0; i < n; i++) {
                    f[i] = s[i];
                }
                return;
            }
            case BOOL: {
                boolean[] b = raw.booleans();
                for (int i = 0; i < n; i++) {
                    f[i] = b[i] ? 1 : 0;
                }
                return;
            }
            default:
                for (int i = 0; i < n; i++) {
                    f[i] = raw.getDouble(i);
                }
        }
    }

    /** Sets NaN in {@code out} wherever {@code raw} holds a mask value. */
    private static void mask(Chunk raw, CfDecoding d, Chunk out) {
        int n = raw.size();
        if (raw.dtype().isFloating()) {
            double[] masks = d.floatMasks();
            for (double m : masks) {
                if (raw.dtype() == DType.FLOAT32) {
                    float[] r = raw.floats();
                    float mf = (float) m;
                    for (int i = 0; i < n; i++) {
                        if (r[i] == mf) {
                            setNaN(out, i);
                        }
                    }
                } else {
                    double[] r = raw.doubles();
                    for (int i = 0; i < n; i++) {
                        if (r[i] == m) {
                            setNaN(out, i);
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
                        if (r[i] == ms) {
                            setNaN(out, i);
                        }
                    }
                    break;
                }
                case INT8:
                case UINT8: {
                    byte[] r = raw.bytes();
                    byte mb = (byte) m;
                    for (int i = 0; i < n; i++) {
                        if (r[i] == mb) {
                            setNaN(out, i);
                        }
                    }
                    break;
                }
                case INT32:
                case UINT32: {
                    int[] r = raw.ints();
                    int mi = (int) m;
                    for (int i = 0; i < n; i++) {
                        if (r[i] == mi) {
                            setNaN(out, i);
                        }
                    }
                    break;
                }
                case INT64:
                case UINT64: {
                    long[] r = raw.longs();
                    for (int i = 0; i < n; i++) {
                        if (r[i] == m) {
                            setNaN(out, i);
                        }
                    }
                    break;
                }
                default:
                    throw new AssertionError(raw.dtype());
            }
        }
    }

    private static void setNaN(Chunk out, int i) {
        if (out.dtype() == DType.FLOAT32) {
            out.floats()[i] = Float.NaN;
        } else {
            out.doubles()[i] = Double.NaN;
        }
    }

    /** Times of {@code numbers} (an integer or floating chunk) in microseconds since 1970-01-01. */
    static Chunk times(Chunk numbers, CfTimeUnits units, String what) {
        int n = numbers.size();
        Chunk out = Chunk.allocate(DType.INT64, numbers.shape());
        long[] t = out.longs();
        boolean floating = numbers.dtype().isFloating();
        for (int i = 0; i < n; i++) {
            long m = floating ? units.labelMicros(numbers.getDouble(i)) : units.labelMicros(numbers.getLong(i));
            if (m == CfTimeUnits.UNREPRESENTABLE) {
                throw new InvalidArgumentException("CF time decoding: the value "
                        + (floating ? Double.toString(numbers.getDouble(i)) : Long.toString(numbers.getLong(i)))
                        + " of " + what + " in units " + units + " has no timestamp (dates of years 1 to 9999"
                        + " on the Gregorian calendar); read it undecoded with the option decodeTimes=false");
            }
            t[i] = m;
        }
        return out;
    }

    /** An integer chunk of xarray's encoded booleans as bool: nonzero is true. */
    static Chunk bools(Chunk raw) {
        Chunk out = Chunk.allocate(DType.BOOL, raw.shape());
        boolean[] b = out.booleans();
        for (int i = 0; i < b.length; i++) {
            b[i] = raw.getLong(i) != 0;
        }
        return out;
    }
}
