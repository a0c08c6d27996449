package io.cubed.storage.zarr;

import io.cubed.dtype.DType;
import io.cubed.dtype.Scalar;
import io.cubed.error.StorageException;
import java.math.BigInteger;
import java.util.List;
import java.util.Locale;

/**
 * How Zarr v3 writes a data type and a fill value in {@code zarr.json}: {@code data_type} names such as {@code
 * "float64"}, and {@code fill_value} as a boolean, an integer, a float (a number, {@code "NaN"}, {@code "Infinity"},
 * {@code "-Infinity"} or hex bits) or a pair of floats for complex types.
 */
final class V3DataTypes {
    private V3DataTypes() {}

    /** The data type a {@code data_type} value names; {@code where} (the document's URL) goes into the error. */
    static DType parse(Object json, String where) {
        if (json instanceof String) {
            switch ((String) json) {
                case "bool":
                    return DType.BOOL;
                case "int8":
                    return DType.INT8;
                case "int16":
                    return DType.INT16;
                case "int32":
                    return DType.INT32;
                case "int64":
                    return DType.INT64;
                case "uint8":
                    return DType.UINT8;
                case "uint16":
                    return DType.UINT16;
                case "uint32":
                    return DType.UINT32;
                case "uint64":
                    return DType.UINT64;
                case "float32":
                    return DType.FLOAT32;
                case "float64":
                    return DType.FLOAT64;
                case "complex64":
                    return DType.COMPLEX64;
                case "complex128":
                    return DType.COMPLEX128;
                default:
                    break;
            }
        }
        throw new StorageException("unsupported data_type " + json + " in " + where + ": Cubed reads bool, int8-64, "
                + "uint8-64, float32/64 and complex64/128");
    }

    /** The v3 name of {@code dtype}, e.g. {@code "float64"}. */
    static String name(DType dtype) {
        return dtype.name().toLowerCase(Locale.ROOT);
    }

    /** The fill value a {@code fill_value} value holds for {@code dtype}; required in v3. */
    static Scalar fillValue(Object json, DType dtype, String where) {
        if (json == null) {
            throw new StorageException("malformed " + where + ": fill_value is required in Zarr v3");
        }
        if (dtype == DType.BOOL && !(json instanceof Boolean)) {
            throw new StorageException(
                    "bad fill_value " + json + " for data_type bool in " + where + ": expected " + "true or false");
        }
        switch (dtype.kind()) {
            case FLOAT:
                return Scalar.ofDouble(floatValue(json, dtype.itemSizeBytes(), dtype, where));
            case COMPLEX:
                if (!(json instanceof List) || ((List<?>) json).size() != 2) {
                    throw new StorageException("bad fill_value " + json + " for data_type " + name(dtype) + " in "
                            + where + ": expected [real, imaginary]");
                }
                List<?> l = (List<?>) json;
                int half = dtype.itemSizeBytes() / 2;
                return Scalar.ofComplex(
                        floatValue(l.get(0), half, dtype, where), floatValue(l.get(1), half, dtype, where));
            case SIGNED:
            case UNSIGNED:
                if (!(json instanceof Long || json instanceof BigInteger)) {
                    throw new StorageException("bad fill_value " + json + " for data_type " + name(dtype) + " in "
                            + where + ": expected an integer");
                }
                checkRange(new BigInteger(json.toString()), dtype, where);
                return FillValues.parse(json, dtype, where);
            default:
                return FillValues.parse(json, dtype, where);
        }
    }

    /**
     * Refuses an integer fill value outside the range of {@code dtype} (the specification requires one within it): 300
     * is no {@code uint8}, and wrapping it would fill missing chunks with 44.
     */
    private static void checkRange(BigInteger v, DType dtype, String where) {
        BigInteger min = io.cubed.dtype.DTypes.integerMin(dtype);
        BigInteger max = io.cubed.dtype.DTypes.integerMax(dtype);
        if (v.compareTo(min) < 0 || v.compareTo(max) > 0) {
            throw new StorageException("bad fill_value " + v + " for data_type " + name(dtype) + " in " + where
                    + ": it lies outside the data type's range [" + min + ", " + max + "]");
        }
    }

    /**
     * The {@code fill_value} JSON of {@code value} for an array of {@code dtype}: as {@link FillValues#toJson}, except
     * that a NaN other than the one {@code "NaN"} denotes (sign bit 0, only the mantissa's top bit set) is written as its
     * hex bits, the only form that keeps them.
     */
    static Object fillToJson(Scalar value, DType dtype) {
        Object json = FillValues.toJson(value, dtype);
        if (dtype.kind() == DType.Kind.FLOAT) {
            return nanBits(value.doubleValue(), dtype.itemSizeBytes(), json);
        }
        if (dtype.kind() == DType.Kind.COMPLEX && json instanceof List<?> l) {
            int half = dtype.itemSizeBytes() / 2;
            return java.util.Arrays.asList(
                    nanBits(value.realPart(), half, l.get(0)), nanBits(value.imagPart(), half, l.get(1)));
        }
        return json;
    }

    /** {@code json}, or the hex bits of {@code d} (as a float of {@code size} bytes) when it is a non-canonical NaN. */
    private static Object nanBits(double d, int size, Object json) {
        if (!Double.isNaN(d)) {
            return json;
        }
        if (size == 4) {
            int bits = Float.floatToRawIntBits(io.cubed.dtype.FloatBits.narrow(d));
            return bits == 0x7fc00000 ? json : String.format(Locale.ROOT, "0x%08x", bits);
        }
        long bits = Double.doubleToRawLongBits(d);
        return bits == 0x7ff8000000000000L ? json : String.format(Locale.ROOT, "0x%016x", bits);
    }

    /** A float fill value: a number, "NaN", "Infinity", "-Infinity" or the hex bits ("0x7fc00000"). */
    private static double floatValue(Object json, int size, DType dtype, String where) {
        if (json instanceof String s && s.startsWith("0x")) {
            if (s.length() != 2 + 2 * size) {
                throw new StorageException("bad fill_value " + json + " for data_type " + name(dtype) + " in " + where
                        + ": a hex fill value needs " + 2 * size + " hex digits");
            }
            try {
                long bits = Long.parseUnsignedLong(s.substring(2), 16);
                // Widened bit for bit: a (double) conversion would quiet a signalling NaN such as 0x7fa00000.
                return size == 4
                        ? io.cubed.dtype.FloatBits.widen(Float.intBitsToFloat((int) bits))
                        : Double.longBitsToDouble(bits);
            } catch (NumberFormatException e) {
                throw new StorageException(
                        "bad fill_value " + json + " for data_type " + name(dtype) + " in " + where, e);
            }
        }
        if (json instanceof Number || "NaN".equals(json) || "Infinity".equals(json) || "-Infinity".equals(json)) {
            Scalar s = FillValues.parse(json, DType.FLOAT64, where);
            return s.doubleValue();
        }
        throw new StorageException("bad fill_value " + json + " for data_type " + name(dtype) + " in " + where
                + ": expected a number, \"NaN\", \"Infinity\", \"-Infinity\" or hex bits such as \"0x7fc00000\"");
    }
}
