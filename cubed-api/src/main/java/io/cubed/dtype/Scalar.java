package io.cubed.dtype;

import java.io.Serializable;
import java.util.Objects;

/**
 * One value of any {@link DType}, used for fill values and constants. Integers keep their 64 bits (an unsigned
 * 64-bit value above {@link Long#MAX_VALUE} is stored in the same bits); floats and complex numbers keep double
 * precision.
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
    private final double re;
    private final double im;

    private Scalar(Form form, long bits, double re, double im) {
        this.form = form;
        this.bits = bits;
        this.re = re;
        this.im = im;
    }

    public static Scalar ofBoolean(boolean value) {
        return new Scalar(Form.BOOL, value ? 1 : 0, value ? 1 : 0, 0);
    }

    /** An integer; for unsigned 64-bit values pass the two's-complement bits. */
    public static Scalar ofLong(long value) {
        return new Scalar(Form.INTEGER, value, value, 0);
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

    /** The value as a 64-bit integer (truncated toward zero from floats; for complex, the truncated real part). */
    public long longValue() {
        return bits;
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
                && Double.doubleToLongBits(re) == Double.doubleToLongBits(s.re)
                && Double.doubleToLongBits(im) == Double.doubleToLongBits(s.im);
    }

    @Override
    public int hashCode() {
        return Objects.hash(form, bits, re, im);
    }

    @Override
    public String toString() {
        switch (form) {
            case BOOL:
                return Boolean.toString(bits != 0);
            case INTEGER:
                return Long.toString(bits);
            case REAL:
                return Double.toString(re);
            default:
                return "(" + re + (im < 0 || Double.isNaN(im) ? "" : "+") + im + "j)";
        }
    }
}
