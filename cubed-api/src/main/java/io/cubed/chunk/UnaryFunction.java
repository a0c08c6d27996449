package io.cubed.chunk;

import io.cubed.dtype.DType;
import io.cubed.dtype.DTypes;
import java.util.Locale;

/**
 * The unary elementwise functions of the Array API standard (2023.12), each with the input types it accepts and the
 * type of its result.
 */
public enum UnaryFunction {
    ABS(Domain.NUMERIC, Result.REAL_OF_COMPLEX),
    ACOS(Domain.FLOATING, Result.SAME),
    ACOSH(Domain.FLOATING, Result.SAME),
    ASIN(Domain.FLOATING, Result.SAME),
    ASINH(Domain.FLOATING, Result.SAME),
    ATAN(Domain.FLOATING, Result.SAME),
    ATANH(Domain.FLOATING, Result.SAME),
    BITWISE_INVERT(Domain.INTEGER_OR_BOOL, Result.SAME),
    CEIL(Domain.REAL_NUMERIC, Result.SAME),
    CONJ(Domain.COMPLEX, Result.SAME),
    COS(Domain.FLOATING, Result.SAME),
    COSH(Domain.FLOATING, Result.SAME),
    EXP(Domain.FLOATING, Result.SAME),
    EXPM1(Domain.FLOATING, Result.SAME),
    FLOOR(Domain.REAL_NUMERIC, Result.SAME),
    IMAG(Domain.COMPLEX, Result.REAL_OF_COMPLEX),
    ISFINITE(Domain.NUMERIC, Result.BOOL),
    ISINF(Domain.NUMERIC, Result.BOOL),
    ISNAN(Domain.NUMERIC, Result.BOOL),
    LOG(Domain.FLOATING, Result.SAME),
    LOG1P(Domain.FLOATING, Result.SAME),
    LOG2(Domain.FLOATING, Result.SAME),
    LOG10(Domain.FLOATING, Result.SAME),
    LOGICAL_NOT(Domain.BOOL, Result.BOOL),
    NEGATIVE(Domain.NUMERIC, Result.SAME),
    POSITIVE(Domain.NUMERIC, Result.SAME),
    REAL(Domain.COMPLEX, Result.REAL_OF_COMPLEX),
    ROUND(Domain.NUMERIC, Result.SAME),
    SIGN(Domain.NUMERIC, Result.SAME),
    SIGNBIT(Domain.REAL_FLOATING, Result.BOOL),
    SIN(Domain.FLOATING, Result.SAME),
    SINH(Domain.FLOATING, Result.SAME),
    SQUARE(Domain.NUMERIC, Result.SAME),
    SQRT(Domain.FLOATING, Result.SAME),
    TAN(Domain.FLOATING, Result.SAME),
    TANH(Domain.FLOATING, Result.SAME),
    TRUNC(Domain.REAL_NUMERIC, Result.SAME);

    /** How the result type follows from the input type. */
    enum Result {
        SAME,
        BOOL,
        REAL_OF_COMPLEX
    }

    private final Domain domain;
    private final Result result;

    UnaryFunction(Domain domain, Result result) {
        this.domain = domain;
        this.result = result;
    }

    /** The function's name in the Array API standard, e.g. {@code "bitwise_invert"}. */
    public String pythonName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The input types the standard allows. */
    public Domain domain() {
        return domain;
    }

    /** The result type for an input of type {@code in} (which must be in {@link #domain()}). */
    public DType resultType(DType in) {
        switch (result) {
            case BOOL:
                return DType.BOOL;
            case REAL_OF_COMPLEX:
                return in.isComplex() ? DTypes.realOf(in) : in;
            default:
                return in;
        }
    }

    /** The constant whose {@link #pythonName()} is {@code name}. */
    public static UnaryFunction fromPythonName(String name) {
        return valueOf(name.toUpperCase(Locale.ROOT));
    }
}
