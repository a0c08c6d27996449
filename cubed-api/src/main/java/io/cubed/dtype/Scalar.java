package io.cubed.dtype;

import java.io.Serializable;
import java.util.Objects;

/**
 * One value of any {@link DType}, used for fill values and constants. Integers keep their 64 bits; floats and complex
 * numbers keep double precision.
 *
 * <p>{@link #ofLong} is a signed integer: {@code ofLong(-1)} is minus one. An unsigned 64-bit value above
 * {@link Long#MAX_VALUE} (up to 2<sup>64</sup>−1) is made with {@link #ofUnsignedLong}, which stores the same bits and
 * remembers that they are unsigned, so that {@code ofUnsignedLong(-1L)} is 18446744073709551615 and not −1. Where a
 * scalar becomes an element of an integer type (an operand of {@code add}, a bound of {@code clip}, a value of
 * {@code where} or {@code full}, …), the exact value must fit that type: −1 is refused for uint64 and
 * 2<sup>64</sup>−1 is accepted, see {@link #fits(DType)}.
 */
public final class Scalar implements Serializable {
    private static final long serialVersionUID = 1L;

    /** Which representation the scalar holds. */
    public enum Form {
        BOOL,
        INTEGER,
        REAL,
        COMPLEX
    }

    private final Form form;
    private final long bits;
    /** Whether {@code bits} is an unsigned integer above {@link Long#MAX_VALUE} (negative as a long). */
    private final boolean unsignedAbove;

    private final double re;
    private final double im;

    private Scalar(Form form, long bits, double re, double im) {
        this(form, bits, false, re, im);
    }

    private Scalar(Form form, long bits, boolean unsignedAbove, double re, double im) {
        this.form = form;
        this.bits = bits;
        this.unsignedAbove = unsignedAbove;
        this.re = re;
        this.im = im;
    }

    public static Scalar ofBoolean(boolean value) {
        return new Scalar(Form.BOOL, value ? 1 : 0, value ? 1 : 0, 0);
    }

    /** A signed integer: {@code ofLong(-1)} is −1 (refused where it must fit an unsigned type). */
    public static Scalar ofLong(long value) {
        return new Scalar(Form.INTEGER, value, value, 0);
    }

    /**
     * An unsigned 64-bit integer given by its bits: {@code ofUnsignedLong(-1L)} is 2<sup>64</sup>−1, a value of uint64
     * only. Bits of a value up to {@link Long#MAX_VALUE} give the same scalar as {@link #ofLong}.
     */
    public static Scalar ofUnsignedLong(long bits) {
        if (bits >= 0) {
            return ofLong(bits);
        }
        return new Scalar(Form.INTEGER, bits, true, Double.parseDouble(Long.toUnsignedString(bits)), 0);
    }

    public static Scalar ofDouble(double value) {
        return new Scalar(Form.REAL, (long) value, value, 0);
    }

    public static Scalar ofComplex(double re, double im) {
        return new Scalar(Form.COMPLEX, (long) re, re, im);
    }

    /** The zero of every type. */
    public static Scalar zero() {
        return ofLong(0);
    }

    public Form form() {
        return form;
    }

    public boolean booleanValue() {
        return form == Form.BOOL || form == Form.INTEGER ? bits != 0 : re != 0 || im != 0;
    }

    /**
     * The value as a 64-bit integer (truncated toward zero from floats; for complex, the truncated real part); an
     * unsigned value above {@link Long#MAX_VALUE} gives its bits (see {@link #isUnsignedAboveLongMax}).
     */
    public long longValue() {
        return bits;
    }

    /** Whether this is an integer above {@link Long#MAX_VALUE} made by {@link #ofUnsignedLong}. */
    public boolean isUnsignedAboveLongMax() {
        return unsignedAbove;
    }

    /**
     * Whether this integer's exact value is in the range of the integer type {@code t} ({@link DTypes#iinfo}): −1
     * fits int8 but not uint64, 2<sup>64</sup>−1 ({@code ofUnsignedLong(-1L)}) fits uint64 only. Scalars of other
     * forms, and types other than integers, always fit: their conversion is not a range question.
     */
    public boolean fits(DType t) {
        if (form != Form.INTEGER || !t.isInteger()) {
            return true;
        }
        IInfo info = DTypes.iinfo(t);
        if (unsignedAbove) {
            return t == DType.UINT64;
        }
        return bits >= info.min() && (t == DType.UINT64 || bits <= info.max());
    }

    /** The value as a double (for complex, the real part; unsigned 64-bit values are not reinterpreted). */
    public double doubleValue() {
        return re;
    }

    public double realPart() {
        return re;
    }

    public double imagPart() {
        return im;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof Scalar)) {
            return false;
        }
        Scalar s = (Scalar) o;
        return form == s.form
                && bits == s.bits
                && unsignedAbove == s.unsignedAbove
                && Double.doubleToLongBits(re) == Double.doubleToLongBits(s.re)
                && Double.doubleToLongBits(im) == Double.doubleToLongBits(s.im);
    }

    @Override
    public int hashCode() {
        return Objects.hash(form, bits, unsignedAbove, re, im);
    }

    @Override
    public String toString() {
        switch (form) {
            case BOOL:
                return Boolean.toString(bits != 0);
            case INTEGER:
                return unsignedAbove ? Long.toUnsignedString(bits) : Long.toString(bits);
            case REAL:
                return Double.toString(re);
            default:
                return "(" + re + (im < 0 || Double.isNaN(im) ? "" : "+") + im + "j)";
        }
    }
}
