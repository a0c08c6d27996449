package io.cubed.dtype;

import io.cubed.error.InvalidArgumentException;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.Locale;

/**
 * The data type functions of the Python Array API standard (2023.12): type promotion ({@link #resultType}), the
 * Python-scalar rules ({@link #resultTypeWithScalar}), {@link #canCast}, {@link #finfo}, {@link #iinfo} and
 * {@link #isdtype}, plus helpers between real and complex floating-point types.
 *
 * <p>Only the promotions the standard defines are allowed: mixing kinds (bool with numbers, integers with floating
 * point) and int64/uint64 combinations throw {@link InvalidArgumentException} instead of guessing as NumPy does.
 */
public final class DTypes {
    private DTypes() {}

    /** The least value of integer type {@code t} (0 for the unsigned types). */
    public static BigInteger integerMin(DType t) {
        requireInteger(t);
        return t.kind() == DType.Kind.UNSIGNED
                ? BigInteger.ZERO
                : BigInteger.ONE.shiftLeft(8 * t.itemSizeBytes() - 1).negate();
    }

    /** The greatest value of integer type {@code t}. */
    public static BigInteger integerMax(DType t) {
        requireInteger(t);
        int bits = 8 * t.itemSizeBytes() - (t.kind() == DType.Kind.UNSIGNED ? 0 : 1);
        return BigInteger.ONE.shiftLeft(bits).subtract(BigInteger.ONE);
    }

    private static void requireInteger(DType t) {
        if (!t.isInteger()) {
            throw new IllegalArgumentException(t + " is not an integer data type");
        }
    }

    /** The default real floating-point type, float64. */
    public static DType defaultFloat() {
        return DType.FLOAT64;
    }

    /** The default complex floating-point type, complex128. */
    public static DType defaultComplex() {
        return DType.COMPLEX128;
    }

    /** The default integer type, int64. */
    public static DType defaultInt() {
        return DType.INT64;
    }

    /** The complex type whose components have the precision of {@code realFloat} (float32 → complex64); complex types map to themselves. */
    public static DType complexOf(DType realFloat) {
        switch (realFloat) {
            case FLOAT32:
            case COMPLEX64:
                return DType.COMPLEX64;
            case FLOAT64:
            case COMPLEX128:
                return DType.COMPLEX128;
            default:
                throw new InvalidArgumentException(
                        "complexOf: " + realFloat + " is not a floating-point data type; expected float32 or float64");
        }
    }

    /** The real type of one component of {@code complex} (complex64 → float32); real floating types map to themselves. */
    public static DType realOf(DType complex) {
        switch (complex) {
            case FLOAT32:
            case COMPLEX64:
                return DType.FLOAT32;
            case FLOAT64:
            case COMPLEX128:
                return DType.FLOAT64;
            default:
                throw new InvalidArgumentException(
                        "realOf: " + complex + " is not a floating-point data type; expected complex64 or complex128");
        }
    }

    /**
     * The type the standard's promotion table gives for {@code dtypes} combined, applied pairwise left to right.
     *
     * @throws InvalidArgumentException when no type is given or a pair has no promotion in the standard
     */
    public static DType resultType(DType... dtypes) {
        if (dtypes.length == 0) {
            throw new InvalidArgumentException("resultType: at least one data type is required");
        }
        DType r = dtypes[0];
        for (int i = 1; i < dtypes.length; i++) {
            r = promote(r, dtypes[i]);
        }
        return r;
    }

    /** The promoted type of two types, or null when the standard defines none. */
    static DType promoteOrNull(DType a, DType b) {
        if (a == b) {
            return a;
        }
        DType.Kind ka = a.kind();
        DType.Kind kb = b.kind();
        if (ka == DType.Kind.BOOL || kb == DType.Kind.BOOL) {
            return null;
        }
        if (a.isInteger() && b.isInteger()) {
            if (ka == kb) {
                return a.itemSizeBytes() >= b.itemSizeBytes() ? a : b;
            }
            DType s = ka == DType.Kind.SIGNED ? a : b;
            DType u = ka == DType.Kind.SIGNED ? b : a;
            if (u.itemSizeBytes() < s.itemSizeBytes()) {
                return s;
            }
            if (u.itemSizeBytes() == 8) {
                return null;
            }
            return signedOfSize(2 * u.itemSizeBytes());
        }
        if (a.isInteger() || b.isInteger()) {
            return null;
        }
        // Both floating (real or complex): the wider precision; complex if either is.
        boolean wide = realOf(a) == DType.FLOAT64 || realOf(b) == DType.FLOAT64;
        boolean complex = a.isComplex() || b.isComplex();
        DType real = wide ? DType.FLOAT64 : DType.FLOAT32;
        return complex ? complexOf(real) : real;
    }

    private static DType promote(DType a, DType b) {
        DType r = promoteOrNull(a, b);
        if (r == null) {
            throw new InvalidArgumentException("resultType: the Array API standard defines no promotion between " + a
                    + " and " + b + "; cast one of them explicitly with astype");
        }
        return r;
    }

    private static DType signedOfSize(int bytes) {
        switch (bytes) {
            case 1:
                return DType.INT8;
            case 2:
                return DType.INT16;
            case 4:
                return DType.INT32;
            default:
                return DType.INT64;
        }
    }

    /**
     * The result type of an array of type {@code array} combined with a Python scalar of form {@code scalarForm}, per
     * the standard's mixing rules: a bool scalar with a bool array, an int scalar with an integer or floating array,
     * a float scalar with a floating array, all keep the array's type; a complex scalar with a real floating array
     * gives the complex type of the same precision.
     *
     * @throws InvalidArgumentException for the combinations the standard leaves undefined (e.g. a float scalar with an
     *     integer array)
     */
    public static DType resultTypeWithScalar(DType array, Scalar.Form scalarForm) {
        DType.Kind k = array.kind();
        boolean ok;
        switch (scalarForm) {
            case BOOL:
                ok = k == DType.Kind.BOOL;
                break;
            case INTEGER:
                ok = k != DType.Kind.BOOL;
                break;
            case REAL:
                ok = k == DType.Kind.FLOAT || k == DType.Kind.COMPLEX;
                break;
            default:
                ok = k == DType.Kind.FLOAT || k == DType.Kind.COMPLEX;
                if (ok) {
                    return complexOf(array);
                }
        }
        if (!ok) {
            throw new InvalidArgumentException("resultTypeWithScalar: the Array API standard defines no promotion of a "
                    + array + " array with a Python " + scalarForm.name().toLowerCase(Locale.ROOT)
                    + " scalar; convert the scalar or cast the array explicitly");
        }
        return array;
    }

    /** True when the standard's promotion lattice allows {@code from} to be promoted to {@code to} (its can_cast). */
    public static boolean canCast(DType from, DType to) {
        return promoteOrNull(from, to) == to;
    }

    /**
     * Machine limits of a floating-point type; for a complex type, of its real component type.
     *
     * @throws InvalidArgumentException when {@code dtype} is not floating point
     */
    public static FInfo finfo(DType dtype) {
        if (!dtype.isFloating() && !dtype.isComplex()) {
            throw new InvalidArgumentException("finfo: " + dtype + " is not a floating-point data type");
        }
        if (realOf(dtype) == DType.FLOAT32) {
            return new FInfo(32, Math.ulp(1.0f), Float.MAX_VALUE, -Float.MAX_VALUE, Float.MIN_NORMAL, DType.FLOAT32);
        }
        return new FInfo(64, Math.ulp(1.0), Double.MAX_VALUE, -Double.MAX_VALUE, Double.MIN_NORMAL, DType.FLOAT64);
    }

    /**
     * Machine limits of an integer type.
     *
     * @throws InvalidArgumentException when {@code dtype} is not an integer type
     */
    public static IInfo iinfo(DType dtype) {
        if (!dtype.isInteger()) {
            throw new InvalidArgumentException("iinfo: " + dtype + " is not an integer data type");
        }
        int bits = dtype.itemSizeBytes() * 8;
        if (dtype.kind() == DType.Kind.SIGNED) {
            long max = bits == 64 ? Long.MAX_VALUE : (1L << (bits - 1)) - 1;
            return new IInfo(bits, max, -max - 1, dtype);
        }
        long max = bits == 64 ? -1L : (1L << bits) - 1;
        return new IInfo(bits, max, 0, dtype);
    }

    /**
     * Refuses an integer scalar that does not fit the integer type {@code t} it is about to become an element of
     * ({@link Scalar#fits}): the one check behind every function taking a Python-style scalar, so that
     * {@code add(int8Array, 300)} or {@code where(c, uint64Array, -1)} is refused instead of wrapping, as NumPy 2 refuses
     * them (NEP 50). Other scalars and types pass.
     *
     * @param function the function named in the message, e.g. {@code "add"}
     * @throws InvalidArgumentException naming the function, the value and the type's range
     */
    public static void checkScalarFits(String function, Scalar s, DType t) {
        if (!s.fits(t)) {
            IInfo info = iinfo(t);
            throw new InvalidArgumentException(function + ": the integer scalar " + s + " is outside the range ["
                    + info.min() + ", " + info.maxExact() + "] of data type " + t);
        }
    }

    /**
     * True when {@code dtype} is of any of the {@code kinds}: "bool", "signed integer", "unsigned integer",
     * "integral", "real floating", "complex floating", "numeric", or a data type name such as "int32".
     *
     * @throws InvalidArgumentException for an unknown kind or when no kind is given
     */
    public static boolean isdtype(DType dtype, String... kinds) {
        if (kinds.length == 0) {
            throw new InvalidArgumentException("isdtype: at least one kind is required");
        }
        boolean any = false;
        for (String kind : kinds) {
            any |= isKind(dtype, kind);
        }
        return any;
    }

    private static boolean isKind(DType dtype, String kind) {
        switch (kind) {
            case "bool":
                return dtype == DType.BOOL;
            case "signed integer":
                return dtype.kind() == DType.Kind.SIGNED;
            case "unsigned integer":
                return dtype.kind() == DType.Kind.UNSIGNED;
            case "integral":
                return dtype.isInteger();
            case "real floating":
                return dtype.isFloating();
            case "complex floating":
                return dtype.isComplex();
            case "numeric":
                return dtype != DType.BOOL;
            default:
                for (DType d : DType.values()) {
                    if (d.typeName().equals(kind)) {
                        return d == dtype;
                    }
                }
                throw new InvalidArgumentException("isdtype: unknown kind '" + kind + "'; expected one of "
                        + Arrays.asList(
                                "bool",
                                "signed integer",
                                "unsigned integer",
                                "integral",
                                "real floating",
                                "complex floating",
                                "numeric")
                        + " or a data type name");
        }
    }
}
