package io.cubed.storage.zarr;

import io.cubed.dtype.DType;
import io.cubed.dtype.Scalar;
import io.cubed.error.StorageException;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.List;

/**
 * The JSON encoding of Zarr v2 {@code fill_value}: numbers, {@code "NaN"}, {@code "Infinity"} and {@code "-Infinity"}
 * for floats, {@code [re, im]} for complex numbers, booleans, and {@code null} (no fill value).
 */
final class FillValues {
    private FillValues() {}

    /** The fill value for {@code dtype} read from {@code json}, or {@code null} for JSON null. */
    static Scalar parse(Object json, DType dtype, String where) {
        if (json == null) {
            return null;
        }
        try {
            switch (dtype.kind()) {
                case BOOL:
                    if (json instanceof Boolean) {
                        return Scalar.ofBoolean((Boolean) json);
                    }
                    return Scalar.ofBoolean(integer(json) != 0);
                case SIGNED:
                    return Scalar.ofLong(integer(json));
                case UNSIGNED:
                    // 2^63 and above (uint64 only) are unsigned values, not negative longs: a fill of 2^64 - 1 masks
                    // as 1.8e19 and converts to float as such.
                    return dtype == DType.UINT64 ? Scalar.ofUnsignedLong(integer(json)) : Scalar.ofLong(integer(json));
                case FLOAT:
                    return Scalar.ofDouble(real(json));
                default:
                    if (json instanceof List && ((List<?>) json).size() == 2) {
                        List<?> l = (List<?>) json;
                        return Scalar.ofComplex(real(l.get(0)), real(l.get(1)));
                    }
                    return Scalar.ofComplex(real(json), 0);
            }
        } catch (IllegalArgumentException e) {
            throw new StorageException(
                    "bad fill_value " + json + " for dtype " + dtype + " in " + where + ": " + e.getMessage());
        }
    }

    private static long integer(Object json) {
        if (json instanceof Long) {
            return (Long) json;
        }
        if (json instanceof BigInteger) {
            BigInteger b = (BigInteger) json;
            if (b.signum() < 0 || b.bitLength() > 64) {
                throw new IllegalArgumentException("integer out of the 64-bit range");
            }
            return b.longValue();
        }
        if (json instanceof Double) {
            double d = (Double) json;
            if (d == Math.rint(d) && !Double.isInfinite(d)) {
                return (long) d;
            }
        }
        if (json instanceof Boolean) {
            return (Boolean) json ? 1 : 0;
        }
        throw new IllegalArgumentException("expected an integer");
    }

    private static double real(Object json) {
        if (json instanceof Number) {
            return json instanceof BigInteger ? ((BigInteger) json).doubleValue() : ((Number) json).doubleValue();
        }
        if (json instanceof String) {
            switch ((String) json) {
                case "NaN":
                    return Double.NaN;
                case "Infinity":
                    return Double.POSITIVE_INFINITY;
                case "-Infinity":
                    return Double.NEGATIVE_INFINITY;
                default:
                    break;
            }
        }
        throw new IllegalArgumentException("expected a number, \"NaN\", \"Infinity\" or \"-Infinity\"");
    }

    /** The JSON form of {@code value} for an array of {@code dtype}; {@code null} stays null. */
    static Object toJson(Scalar value, DType dtype) {
        if (value == null) {
            return null;
        }
        switch (dtype.kind()) {
            case BOOL:
                return value.booleanValue();
            case SIGNED:
                return value.longValue();
            case UNSIGNED:
                long bits = value.longValue();
                if (dtype != DType.UINT64) {
                    bits &= (1L << (8 * dtype.itemSizeBytes())) - 1;
                }
                return bits >= 0 ? (Object) bits : new BigInteger(Long.toUnsignedString(bits));
            case FLOAT:
                return real(value.doubleValue(), dtype);
            default:
                return Arrays.asList(real(value.realPart(), dtype), real(value.imagPart(), dtype));
        }
    }

    private static Object real(double d, DType dtype) {
        if (Double.isNaN(d)) {
            return "NaN";
        }
        if (Double.isInfinite(d)) {
            return d > 0 ? "Infinity" : "-Infinity";
        }
        // A float32 array stores the float nearest to d; write that value so readers agree on it.
        return dtype == DType.FLOAT32 || dtype == DType.COMPLEX64 ? (double) (float) d : d;
    }
}
