package io.cubed.storage.zarr.cf;

import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.dtype.Scalar;
import io.cubed.error.InvalidArgumentException;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The rules that decide an array's {@link CfDecoding} from its data type, Zarr fill value and attributes, as xarray
 * 2023.01's {@code CFMaskCoder}, {@code CFScaleOffsetCoder} and {@code CFDatetimeCoder} decide them (see {@link
 * CfDecoding} for the rules in brief and docs/sql.md for the table).
 */
final class CfRules {
    private CfRules() {}

    /**
     * The decoding of an array {@code what} of type {@code dtype} with Zarr fill value {@code zarrFill} (null: none) in
     * Zarr format {@code zarrFormat} and attributes {@code attrs}; {@code values}, when given, are all its values (a
     * coordinate's), against which times on any calendar are tried.
     */
    static CfDecoding decide(
            String what,
            DType dtype,
            Scalar zarrFill,
            int zarrFormat,
            Map<String, Object> attrs,
            CfOptions options,
            Chunk values) {
        if (dtype.isComplex()) {
            return CfDecoding.identity(what, dtype);
        }
        boolean masked = false;
        List<Long> integerMasks = new ArrayList<>();
        List<Double> floatMasks = new ArrayList<>();
        Double scale = null;
        Double offset = null;
        // xarray reads an integer array of the other sign under _Unsigned before it masks and scales it.
        DType view = options.maskAndScale() ? unsignedView(dtype, attrs.get("_Unsigned")) : dtype;
        DType numeric = view;
        if (options.maskAndScale() && dtype != DType.BOOL) {
            List<Object> fills = new ArrayList<>();
            Object fillAttr = attrs.get("_FillValue");
            if (zarrFill != null && options.zarrFillValueAsMask(zarrFormat)) {
                // xarray gives the Zarr fill value as _FillValue (and a v2 .zattrs has none of its own).
                fills.add(
                        zarrFill.isUnsignedAboveLongMax()
                                ? new java.math.BigInteger(Long.toUnsignedString(zarrFill.longValue()))
                                : zarrFill.form() == Scalar.Form.INTEGER
                                        ? zarrFill.longValue()
                                        : zarrFill.doubleValue());
            } else if (fillAttr != null) {
                fills.addAll(numbers(fillAttr, "_FillValue", what));
            }
            if (view != dtype) {
                // The _FillValue converts to the type read (missing_value does not: xarray leaves it as it is).
                fills.replaceAll(f -> converted(f, view));
            }
            if (attrs.get("missing_value") != null) {
                fills.addAll(numbers(attrs.get("missing_value"), "missing_value", what));
            }
            for (Object f : fills) {
                double d = f instanceof Long l ? (double) l : f instanceof BigInteger b ? b.doubleValue() : (Double) f;
                if (Double.isNaN(d)) {
                    continue;
                }
                masked = true;
                if (view.isFloating()) {
                    floatMasks.add(d);
                } else {
                    Long bits = integral(f, view);
                    if (bits != null) {
                        integerMasks.add(bits);
                    }
                }
            }
            if (masked && view.isInteger()) {
                numeric = view.itemSizeBytes() <= 2 ? DType.FLOAT32 : DType.FLOAT64;
            }
            Object sf = attrs.get("scale_factor");
            Object ao = attrs.get("add_offset");
            if (sf != null || ao != null) {
                scale = sf == null ? null : number(sf, "scale_factor", what);
                offset = ao == null ? null : number(ao, "add_offset", what);
                boolean small = numeric == DType.FLOAT32 || (numeric.isInteger() && numeric.itemSizeBytes() <= 2);
                numeric = small && (offset == null || numeric == DType.FLOAT32) ? DType.FLOAT32 : DType.FLOAT64;
            }
        }
        CfTimeUnits time = null;
        Object units = attrs.get("units");
        if (options.decodeTimes() && dtype != DType.BOOL && units instanceof String u && CfTimeUnits.isTime(u)) {
            Object cal = attrs.get("calendar");
            if (cal != null && !(cal instanceof String)) {
                throw new InvalidArgumentException("CF time decoding: " + what + " has calendar " + cal
                        + ", which is not a string; read it undecoded with the option decodeTimes=false");
            }
            time = CfTimeUnits.parse(u, (String) cal, what);
        } else if (options.decodeTimes()
                && dtype != DType.BOOL
                && units instanceof String u
                && CfTimeUnits.isDuration(u)) {
            // xarray decodes durations when it decodes times (decode_timedelta follows decode_times).
            time = CfTimeUnits.duration(u);
        }
        // xarray casts to bool after masking and scaling (BoolTypeArray): a masked value, NaN, is true.
        boolean bool = time == null && view.isInteger() && "bool".equals(attrs.get("dtype"));
        Map<String, String> kept = new LinkedHashMap<>();
        for (String k : List.of("units", "calendar", "long_name", "standard_name")) {
            if (attrs.get(k) instanceof String s) {
                kept.put(k, s);
            }
        }
        CfDecoding d = new CfDecoding(
                what,
                dtype,
                view,
                masked,
                integerMasks.stream().mapToLong(Long::longValue).toArray(),
                floatMasks.stream().mapToDouble(Double::doubleValue).toArray(),
                scale,
                offset,
                numeric,
                time,
                null,
                bool,
                Map.copyOf(kept));
        if (time == null || time.isDuration()) {
            return d;
        }
        if (values == null ? !time.calendar().everyDateIsGregorian() : !d.everyTimeHasALabel(values)) {
            return d.withNumericTimes();
        }
        return d;
    }

    /**
     * The type an integer array of {@code dtype} is read as under the attribute {@code _Unsigned} ({@code unsigned},
     * null when absent): the unsigned type of the same size for {@code "true"} on a signed type, the signed one for
     * {@code "false"} on an unsigned type, else {@code dtype} (as xarray, which also ignores other spellings and
     * non-integer types).
     */
    static DType unsignedView(DType dtype, Object unsigned) {
        if ("true".equals(unsigned)) {
            return switch (dtype) {
                case INT8 -> DType.UINT8;
                case INT16 -> DType.UINT16;
                case INT32 -> DType.UINT32;
                case INT64 -> DType.UINT64;
                default -> dtype;
            };
        }
        if ("false".equals(unsigned)) {
            return switch (dtype) {
                case UINT8 -> DType.INT8;
                case UINT16 -> DType.INT16;
                case UINT32 -> DType.INT32;
                case UINT64 -> DType.INT64;
                default -> dtype;
            };
        }
        return dtype;
    }

    /**
     * A fill value {@code f} (Long, BigInteger or Double) converted to the integer type {@code view} as NumPy converts
     * an integer to a narrower or other-signed one: its low bits, read with {@code view}'s sign (-1 is 255 as uint8);
     * values that are no whole numbers stay as they are (no element equals them).
     */
    private static Object converted(Object f, DType view) {
        BigInteger v = wholeNumber(f);
        if (v == null) {
            return f;
        }
        int bits = view.itemSizeBytes() * 8;
        BigInteger low = v.mod(BigInteger.ONE.shiftLeft(bits));
        if (!isUnsigned(view) && low.testBit(bits - 1)) {
            low = low.subtract(BigInteger.ONE.shiftLeft(bits));
        }
        return low.bitLength() < 64 ? (Object) low.longValue() : low;
    }

    private static List<Object> numbers(Object value, String attribute, String what) {
        List<Object> out = new ArrayList<>();
        for (Object v : value instanceof List<?> l ? l : List.of(value)) {
            if (v instanceof Long || v instanceof BigInteger) {
                out.add(v);
            } else if (v instanceof Number n) {
                out.add(n.doubleValue());
            } else {
                throw new InvalidArgumentException("CF decoding: " + what + " has " + attribute + " " + value
                        + ", which is not a number or a list of numbers; read it undecoded with the option"
                        + " maskAndScale=false");
            }
        }
        return out;
    }

    private static double number(Object value, String attribute, String what) {
        Object v = value;
        if (v instanceof List<?> l && l.size() == 1) {
            v = l.get(0);
        }
        if (!(v instanceof Number n)) {
            throw new InvalidArgumentException("CF decoding: " + what + " has " + attribute + " " + value
                    + ", which is not a number; read it undecoded with the option maskAndScale=false");
        }
        return n.doubleValue();
    }

    /** {@code fill} as the stored bits of an integer of {@code dtype}, or null when no element can equal it. */
    private static Long integral(Object fill, DType dtype) {
        BigInteger v = wholeNumber(fill);
        if (v == null) {
            return null;
        }
        if (v.compareTo(io.cubed.dtype.DTypes.integerMin(dtype)) < 0
                || v.compareTo(io.cubed.dtype.DTypes.integerMax(dtype)) > 0) {
            return null;
        }
        return v.longValue();
    }

    private static boolean isUnsigned(DType dtype) {
        return dtype == DType.UINT8 || dtype == DType.UINT16 || dtype == DType.UINT32 || dtype == DType.UINT64;
    }

    /** A fill value (Long, BigInteger or Double) as a whole number, or null when it is none (NaN, infinite, a fraction). */
    private static BigInteger wholeNumber(Object f) {
        if (f instanceof Long l) {
            return BigInteger.valueOf(l);
        }
        if (f instanceof BigInteger b) {
            return b;
        }
        double d = (Double) f;
        if (Double.isNaN(d) || Double.isInfinite(d) || d != Math.rint(d)) {
            return null;
        }
        return new java.math.BigDecimal(d).toBigInteger();
    }
}
