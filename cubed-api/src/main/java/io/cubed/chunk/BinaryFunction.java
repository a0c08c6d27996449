package io.cubed.chunk;

import io.cubed.dtype.DType;
import java.util.Locale;

/**
 * The binary elementwise functions of the Array API standard (2023.12), each with the (promoted) input types it
 * accepts and whether its result is bool or of the promoted type.
 */
public enum BinaryFunction {
    ADD(Domain.NUMERIC, false),
    ATAN2(Domain.REAL_FLOATING, false),
    BITWISE_AND(Domain.INTEGER_OR_BOOL, false),
    BITWISE_LEFT_SHIFT(Domain.INTEGER, false),
    BITWISE_OR(Domain.INTEGER_OR_BOOL, false),
    BITWISE_RIGHT_SHIFT(Domain.INTEGER, false),
    BITWISE_XOR(Domain.INTEGER_OR_BOOL, false),
    COPYSIGN(Domain.REAL_FLOATING, false),
    DIVIDE(Domain.FLOATING, false),
    EQUAL(Domain.ANY, true),
    FLOOR_DIVIDE(Domain.REAL_NUMERIC, false),
    GREATER(Domain.REAL_NUMERIC, true),
    GREATER_EQUAL(Domain.REAL_NUMERIC, true),
    HYPOT(Domain.REAL_FLOATING, false),
    LESS(Domain.REAL_NUMERIC, true),
    LESS_EQUAL(Domain.REAL_NUMERIC, true),
    LOGADDEXP(Domain.REAL_FLOATING, false),
    LOGICAL_AND(Domain.BOOL, true),
    LOGICAL_OR(Domain.BOOL, true),
    LOGICAL_XOR(Domain.BOOL, true),
    MAXIMUM(Domain.REAL_NUMERIC, false),
    MINIMUM(Domain.REAL_NUMERIC, false),
    MULTIPLY(Domain.NUMERIC, false),
    NEXTAFTER(Domain.REAL_FLOATING, false),
    NOT_EQUAL(Domain.ANY, true),
    POW(Domain.NUMERIC, false),
    REMAINDER(Domain.REAL_NUMERIC, false),
    SUBTRACT(Domain.NUMERIC, false);

    private final Domain domain;
    private final boolean boolResult;

    BinaryFunction(Domain domain, boolean boolResult) {
        this.domain = domain;
        this.boolResult = boolResult;
    }

    /** The function's name in the Array API standard, e.g. {@code "floor_divide"}. */
    public String pythonName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The promoted input types the standard allows. */
    public Domain domain() {
        return domain;
    }

    /** The result type for inputs promoted to {@code promoted}: bool for comparisons and logical functions. */
    public DType resultType(DType promoted) {
        return boolResult ? DType.BOOL : promoted;
    }

    /** The constant whose {@link #pythonName()} is {@code name}. */
    public static BinaryFunction fromPythonName(String name) {
        return valueOf(name.toUpperCase(Locale.ROOT));
    }
}
