package io.cubed.dtype;

/**
 * Conversions between float32 and float64 that keep a NaN's bits: its sign, its payload and whether it is signalling.
 * Java's own conversions ({@code (double) f}, {@code (float) d}) run on the processor's instructions, which on x86-64
 * quiet a signalling NaN (set the top bit of its mantissa): float32 {@code 0x7fa00000} widens to {@code
 * 0x7ffc000000000000} and narrows back to {@code 0x7fe00000}. A fill value is held as a double ({@link Scalar}) and
 * written as float32 elements, and a Zarr v3 fill value such as {@code "0x7fa00000"} must come back with the same bits.
 * Other values convert as Java converts them.
 */
public final class FloatBits {
    private FloatBits() {}

    private static final int FLOAT_EXPONENT = 0x7f800000;
    private static final int FLOAT_MANTISSA = 0x007fffff;
    /** How far a float32 mantissa lies below a float64 one: 52 - 23 bits. */
    private static final int SHIFT = 29;

    /**
     * {@code f} as a double: a NaN keeps its sign and its 23 mantissa bits as the top of the double's 52 (so a
     * signalling NaN stays signalling, and {@link #narrow} gives back the same float bits).
     */
    public static double widen(float f) {
        int bits = Float.floatToRawIntBits(f);
        if ((bits & FLOAT_EXPONENT) != FLOAT_EXPONENT || (bits & FLOAT_MANTISSA) == 0) {
            return f;
        }
        long sign = (long) (bits >>> 31) << 63;
        return Double.longBitsToDouble(sign | 0x7ff0000000000000L | ((long) (bits & FLOAT_MANTISSA) << SHIFT));
    }

    /**
     * {@code d} as a float32 (the nearest, as {@code (float) d}): a NaN keeps its sign and the top 23 bits of its
     * mantissa, signalling or quiet as they say; one whose payload lies only in the low 29 bits, which no float keeps,
     * becomes the quiet NaN of its sign.
     */
    public static float narrow(double d) {
        if (!Double.isNaN(d)) {
            return (float) d;
        }
        long bits = Double.doubleToRawLongBits(d);
        int mantissa = (int) (bits >>> SHIFT) & FLOAT_MANTISSA;
        int sign = (int) (bits >>> 63) << 31;
        return Float.intBitsToFloat(sign | FLOAT_EXPONENT | (mantissa == 0 ? 0x00400000 : mantissa));
    }
}
