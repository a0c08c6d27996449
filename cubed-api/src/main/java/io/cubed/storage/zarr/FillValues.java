package io.cubed.storage.zarr;

import io.cubed.dtype.DType;
import io.cubed.dtype.DTypes;
import io.cubed.dtype.Scalar;
import io.cubed.error.InvalidArgumentException;
import io.cubed.error.StorageException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.List;

/**
 * The JSON encoding of Zarr v2 {@code fill_value}: numbers, {@code "NaN"}, {@code "Infinity"} and {@code "-Infinity"}
 * for floats, {@code [re, im]} for complex numbers, booleans, and {@code null} (no fill value).
 */
final class FillValues {
    private FillValues() {}

    /**
     * The fill value for {@code dtype} read from {@code json}, or {@code null} for JSON null. An integer must lie within
     * the range of an integer {@code dtype} (300 is no {@code int8}, −1 no {@code uint64}), a bool's is
     * {@code true}/{@code false} (or 0/1): NumPy 1 wrapped such values with a deprecation warning, NumPy 2 refuses them,
     * and wrapping would fill missing chunks with a value nobody wrote.
     */
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
                    return bool(integer(json));
                case SIGNED:
                case UNSIGNED:
                    return inRange(integer(json), dtype);
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
            throw new StorageException("bad fill_value " + MetadataDocuments.show(json) + " for dtype " + dtype + " in "
                    + where + ": " + e.getMessage());
        }
    }

    /**
     * {@code fill} as the fill value of a new array of {@code dtype} ({@code null}: none), refused where the array
     * cannot hold it: an integer outside an integer type's range, a number with a fraction, NaN or ±∞ for an integer
     * type, anything but true/false/0/1 for bool, a complex number with an imaginary part for a real type. A value
     * that holds an integer or a bool becomes that integer or bool; floating-point values are kept bit for bit.
     */
    static Scalar forNewArray(Scalar fill, DType dtype) {
        if (fill == null) {
            return null;
        }
        try {
            boolean complex = fill.form() == Scalar.Form.COMPLEX;
            if (complex && !dtype.isComplex() && fill.imagPart() != 0) {
                throw new IllegalArgumentException("a " + dtype + " has no imaginary part");
            }
            switch (dtype.kind()) {
                case BOOL:
                    return bool(exactInteger(fill));
                case SIGNED:
                case UNSIGNED:
                    return inRange(exactInteger(fill), dtype);
                case FLOAT:
                    return complex ? Scalar.ofDouble(fill.realPart()) : fill;
                default:
                    return fill;
            }
        } catch (IllegalArgumentException e) {
            throw new InvalidArgumentException(
                    "bad fill value " + fill + " for a new " + dtype + " array: " + e.getMessage());
        }
    }

    /** The exact integer {@code s} holds: a bool as 0 or 1, a float only when finite and without a fraction. */
    private static BigInteger exactInteger(Scalar s) {
        switch (s.form()) {
            case BOOL:
                return s.booleanValue() ? BigInteger.ONE : BigInteger.ZERO;
            case INTEGER:
                return s.isUnsignedAboveLongMax()
                        ? new BigInteger(Long.toUnsignedString(s.longValue()))
                        : BigInteger.valueOf(s.longValue());
            default:
                return integralDouble(s.realPart());
        }
    }

    /** The integer {@code d} equals; refuses NaN, ±∞ and a fraction. */
    private static BigInteger integralDouble(double d) {
        if (!Double.isFinite(d) || d != Math.rint(d)) {
            throw new IllegalArgumentException("expected an integer");
        }
        return new BigDecimal(d).toBigIntegerExact();
    }

    /** A bool fill value given as a number: 0 or 1. */
    private static Scalar bool(BigInteger b) {
        if (b.signum() < 0 || b.compareTo(BigInteger.ONE) > 0) {
            throw new IllegalArgumentException("a bool fill value is true or false (or 0 or 1)");
        }
        return Scalar.ofBoolean(b.signum() != 0);
    }

    /** {@code v} as a scalar of the integer type {@code dtype}; refuses a value outside its range. */
    private static Scalar inRange(BigInteger v, DType dtype) {
        BigInteger min = DTypes.integerMin(dtype);
        BigInteger max = DTypes.integerMax(dtype);
        if (v.compareTo(min) < 0 || v.compareTo(max) > 0) {
            throw new IllegalArgumentException(v + " lies outside the data type's range [" + min + ", " + max + "]");
        }
        // 2^63 and above (uint64 only) are unsigned values, not negative longs: a fill of 2^64 - 1 masks as 1.8e19
        // and converts to float as such.
        return v.bitLength() < 64 ? Scalar.ofLong(v.longValue()) : Scalar.ofUnsignedLong(v.longValue());
    }

    /** The integer a JSON value holds: an integer, a number without a fraction (3.0), or a boolean (0 or 1). */
    private static BigInteger integer(Object json) {
        if (json instanceof Long) {
            return BigInteger.valueOf((Long) json);
        }
        if (json instanceof BigInteger) {
            return (BigInteger) json;
        }
        if (json instanceof Double) {
            return integralDouble((Double) json);
        }
        if (json instanceof Boolean) {
            return (Boolean) json ? BigInteger.ONE : BigInteger.ZERO;
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
                // A uint64 value above 2^63 - 1 is written as such; any other value as the integer it is (parse and
                // forNewArray refuse one outside the type, -1 say, rather than write it as 2^64 - 1).
                long bits = value.longValue();
                return value.isUnsignedAboveLongMax() ? new BigInteger(Long.toUnsignedString(bits)) : (Object) bits;
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
        // A float32 array stores the float nearest to d; write that value so readers agree on it. Beyond float32's
        // range that is ±infinity (1e300 as float32, as NumPy converts it), written as the string zarr-python writes.
        double stored = dtype == DType.FLOAT32 || dtype == DType.COMPLEX64 ? (double) (float) d : d;
        if (Double.isInfinite(stored)) {
            return stored > 0 ? "Infinity" : "-Infinity";
        }
        return stored;
    }
}
