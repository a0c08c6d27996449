package io.cubed.chunk;

import io.cubed.dtype.DType;

/** The set of input data types an elementwise function of the Array API standard accepts. */
public enum Domain {
    /** Any of the 13 types. */
    ANY("any data type"),
    /** bool only. */
    BOOL("a boolean data type"),
    /** Signed or unsigned integers. */
    INTEGER("an integer data type"),
    /** Integers or bool. */
    INTEGER_OR_BOOL("an integer or boolean data type"),
    /** Every type but bool. */
    NUMERIC("a numeric data type"),
    /** Integers and real floating point. */
    REAL_NUMERIC("a real-valued data type"),
    /** Real or complex floating point. */
    FLOATING("a floating-point data type"),
    /** float32 and float64. */
    REAL_FLOATING("a real-valued floating-point data type"),
    /** complex64 and complex128. */
    COMPLEX("a complex floating-point data type");

    private final String description;

    Domain(String description) {
        this.description = description;
    }

    /** The standard's wording of the requirement, e.g. "a real-valued data type". */
    public String description() {
        return description;
    }

    /** True when {@code t} belongs to this domain. */
    public boolean accepts(DType t) {
        switch (this) {
            case ANY:
                return true;
            case BOOL:
                return t == DType.BOOL;
            case INTEGER:
                return t.isInteger();
            case INTEGER_OR_BOOL:
                return t.isInteger() || t == DType.BOOL;
            case NUMERIC:
                return t != DType.BOOL;
            case REAL_NUMERIC:
                return t.isInteger() || t.isFloating();
            case FLOATING:
                return t.isFloating() || t.isComplex();
            case REAL_FLOATING:
                return t.isFloating();
            default:
                return t.isComplex();
        }
    }
}
