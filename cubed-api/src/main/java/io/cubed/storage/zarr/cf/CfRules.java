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
        DType numeric = dtype;
        if (options.maskAndScale() && dtype != DType.BOOL) {
            List<Object> fills = new ArrayList<>();
            Object fillAttr = attrs.get("_FillValue");
            if (zarrFill != null && options.zarrFillValueAsMask(zarrFormat)) {
                // xarray gives the Zarr fill value as _FillValue (and a v2 .zattrs has none of its own).
                fills.add(zarrFill.form() == Scalar.Form.INTEGER ? zarrFill.longValue() : zarrFill.doubleValue());
            } else if (fillAttr != null) {
                fills.addAll(numbers(fillAttr, "_FillValue", what));
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
                if (dtype.isFloating()) {
                    floatMasks.add(d);
                } else {
                    Long bits = integral(f, dtype);
                    if (bits != null) {
                        integerMasks.add(bits);
                    }
                }
            }
            if (masked && dtype.isInteger()) {
                numeric = dtype.itemSizeBytes() <= 2 ? DType.FLOAT32 : DType.FLOAT64;
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
        }
        boolean bool = time == null && numeric == dtype && dtype.isInteger() && "bool".equals(attrs.get("dtype"));
        Map<String, String> kept = new LinkedHashMap<>();
        for (String k : List.of("units", "calendar", "long_name", "standard_name")) {
            if (attrs.get(k) instanceof String s) {
                kept.put(k, s);
            }
        }
        CfDecoding d = new CfDecoding(
                what,
                dtype,
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
        if (time == null) {
            return d;
        }
        if (values == null ? !time.calendar().everyDateIsGregorian() : !d.everyTimeHasALabel(values)) {
            return d.withNumericTimes();
        }
        return d;
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
        BigInteger v;
        if (fill instanceof Long l) {
            v = BigInteger.valueOf(l);
        } else if (fill instanceof BigInteger b) {
            v = b;
        } else {
            double d = (Double) fill;
            if (Double.isInfinite(d) || d != Math.rint(d)) {
                return null;
            }
            v = new java.math.BigDecimal(d).toBigInteger();
        }
        boolean unsigned =
                dtype == DType.UINT8 || dtype == DType.UINT16 || dtype == DType.UINT32 || dtype == DType.UINT64;
        int bits = dtype.itemSizeBytes() * 8;
        BigInteger min =
                unsigned ? BigInteger.ZERO : BigInteger.ONE.shiftLeft(bits - 1).negate();
        BigInteger max = unsigned
                ? BigInteger.ONE.shiftLeft(bits).subtract(BigInteger.ONE)
                : BigInteger.ONE.shiftLeft(bits - 1).subtract(BigInteger.ONE);
        if (v.compareTo(min) < 0 || v.compareTo(max) > 0) {
            return null;
        }
        return v.longValue();
    }
}
