package io.cubed.chunk;

import io.cubed.dtype.DType;
import io.cubed.dtype.DTypes;

/**
 * How an elementwise function's result type follows from its (promoted) input type: one column of the tables
 * {@link UnaryFunction} and {@link BinaryFunction}.
 */
public enum DTypeRule {
    /** The input's type ({@code add}, {@code sqrt}, …). */
    SAME("the input's data type"),
    /** bool ({@code isnan}, {@code less}, {@code logical_and}, …). */
    BOOL("bool"),
    /** The real type of a complex input (complex64 gives float32), else the input's type ({@code abs}, {@code real}). */
    REAL_OF_COMPLEX("the real data type of a complex input, otherwise the input's data type"),
    /**
     * A floating-point type: integer input gives the default floating type float64 (computed on the input converted
     * to float64), floating and complex input keep their type ({@code reciprocal}).
     */
    FLOATING("float64 for integer input, otherwise the input's data type");

    private final String description;

    DTypeRule(String description) {
        this.description = description;
    }

    /** The rule in words, e.g. "bool". */
    public String description() {
        return description;
    }

    /** The result type for an input of type {@code in}. */
    public DType resultType(DType in) {
        return switch (this) {
            case SAME -> in;
            case BOOL -> DType.BOOL;
            case REAL_OF_COMPLEX -> in.isComplex() ? DTypes.realOf(in) : in;
            case FLOATING -> in.isInteger() ? DTypes.defaultFloat() : in;
        };
    }

    /**
     * The type the kernels compute in for an input of type {@code in}: float64 for integer input under
     * {@link #FLOATING}, otherwise {@code in} itself.
     */
    public DType workingType(DType in) {
        return this == FLOATING && in.isInteger() ? DTypes.defaultFloat() : in;
    }
}
