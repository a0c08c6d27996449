package io.cubed.array;

import io.cubed.dtype.DType;
import io.cubed.dtype.DTypes;
import io.cubed.error.InvalidArgumentException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The Array API standard's inspection functions ({@code __array_namespace_info__()}): what this library supports and
 * its default data types. There are no devices to choose (every task computes on the heap of the executor that runs
 * it), so {@code default_device} and {@code devices} have no counterpart.
 */
public final class Info {
    private Info() {}

    /** The revision of the Array API standard the function names and semantics follow. */
    public static final String ARRAY_API_VERSION = "2024.12";

    /**
     * What the library supports, as the standard's {@code capabilities()}: boolean-mask indexing and functions with
     * data-dependent output shapes are not supported (every operation of a plan needs its output shape and chunks
     * before anything runs); the number of dimensions is not limited ({@code maxDimensions} null).
     */
    public record Capabilities(boolean booleanIndexing, boolean dataDependentShapes, Integer maxDimensions) {}

    /** The default data types, as the standard's {@code default_dtypes()}. */
    public record DefaultDtypes(DType realFloating, DType complexFloating, DType integral, DType indexing) {}

    /** The library's capabilities. */
    public static Capabilities capabilities() {
        return new Capabilities(false, false, null);
    }

    /** float64, complex128, int64 and int64 (the type of indices, as {@code argmax} returns). */
    public static DefaultDtypes defaultDtypes() {
        return new DefaultDtypes(DTypes.defaultFloat(), DTypes.defaultComplex(), DTypes.defaultInt(), DType.INT64);
    }

    /**
     * The supported data types by name, in the standard's order: all 13 without {@code kinds}, else those of any of the
     * kinds, which are named as for {@link DTypes#isdtype} ("bool", "signed integer", "unsigned integer", "integral",
     * "real floating", "complex floating", "numeric").
     */
    public static Map<String, DType> dtypes(String... kinds) {
        Map<String, DType> out = new LinkedHashMap<>();
        for (DType t : DType.values()) {
            if (kinds.length == 0 || matches(t, kinds)) {
                out.put(t.typeName(), t);
            }
        }
        return out;
    }

    private static boolean matches(DType t, String[] kinds) {
        try {
            return DTypes.isdtype(t, kinds);
        } catch (InvalidArgumentException e) {
            throw new InvalidArgumentException("dtypes: " + e.getMessage().replaceFirst("^isdtype: ", ""), e);
        }
    }
}
