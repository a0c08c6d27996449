package io.cubed.chunk;

import static io.cubed.chunk.ComplexLoops.each;
import static io.cubed.chunk.Domain.*;

import io.cubed.dtype.DType;
import java.util.Locale;

/**
 * The unary elementwise functions of the Array API standard (2024.12), as one table: each row is a function's name,
 * the input types it accepts ({@link Domain}), how its result type follows ({@link DTypeRule}) and its loop for each
 * family of data types (bool, integer, real floating, complex), null where the domain leaves the family out or, for
 * {@link DTypeRule#FLOATING}, where integer input is computed as float64. The chunk functions of {@link Elementwise}
 * and the array functions of {@code io.cubed.array.Elementwise} (one method per row, named {@link #javaName()}) are
 * driven by it: adding a function is one row here and one line there.
 */
// The loops are stateless method references and lambdas; errorprone cannot see that without @Immutable.
@SuppressWarnings("ImmutableEnumChecker")
public enum UnaryFunction {
    // name(domain, result type, bool loop, integer loop, real loop, complex loop)
    ABS(NUMERIC, DTypeRule.REAL_OF_COMPLEX, null, IntUnary::abs, RealUnary::abs, ComplexLoops::abs),
    ACOS(FLOATING, DTypeRule.SAME, null, null, RealUnary::acos, each(ComplexMath::acos)),
    ACOSH(FLOATING, DTypeRule.SAME, null, null, RealUnary::acosh, each(ComplexMath::acosh)),
    ASIN(FLOATING, DTypeRule.SAME, null, null, RealUnary::asin, each(ComplexMath::asin)),
    ASINH(FLOATING, DTypeRule.SAME, null, null, RealUnary::asinh, each(ComplexMath::asinh)),
    ATAN(FLOATING, DTypeRule.SAME, null, null, RealUnary::atan, each(ComplexMath::atan)),
    ATANH(FLOATING, DTypeRule.SAME, null, null, RealUnary::atanh, each(ComplexMath::atanh)),
    BITWISE_INVERT(INTEGER_OR_BOOL, DTypeRule.SAME, BoolLoops::not, IntUnary::bitwiseInvert, null, null),
    CEIL(REAL_NUMERIC, DTypeRule.SAME, null, IntUnary::copy, RealUnary::ceil, null),
    CONJ(NUMERIC, DTypeRule.SAME, null, IntUnary::copy, RealUnary::positive, ComplexLoops::conj),
    COS(FLOATING, DTypeRule.SAME, null, null, RealUnary::cos, each(ComplexMath::cos)),
    COSH(FLOATING, DTypeRule.SAME, null, null, RealUnary::cosh, each(ComplexMath::cosh)),
    EXP(FLOATING, DTypeRule.SAME, null, null, RealUnary::exp, each(ComplexMath::exp)),
    EXPM1(FLOATING, DTypeRule.SAME, null, null, RealUnary::expm1, each(ComplexMath::expm1)),
    FLOOR(REAL_NUMERIC, DTypeRule.SAME, null, IntUnary::copy, RealUnary::floor, null),
    IMAG(COMPLEX, DTypeRule.REAL_OF_COMPLEX, null, null, null, ComplexLoops::imag),
    ISFINITE(NUMERIC, DTypeRule.BOOL, null, IntUnary::allTrue, RealUnary::isfinite, ComplexLoops::isfinite),
    ISINF(NUMERIC, DTypeRule.BOOL, null, IntUnary::allFalse, RealUnary::isinf, ComplexLoops::isinf),
    ISNAN(NUMERIC, DTypeRule.BOOL, null, IntUnary::allFalse, RealUnary::isnan, ComplexLoops::isnan),
    LOG(FLOATING, DTypeRule.SAME, null, null, RealUnary::log, each(ComplexMath::log)),
    LOG1P(FLOATING, DTypeRule.SAME, null, null, RealUnary::log1p, each(ComplexMath::log1p)),
    LOG2(FLOATING, DTypeRule.SAME, null, null, RealUnary::log2, each(ComplexMath::log2)),
    LOG10(FLOATING, DTypeRule.SAME, null, null, RealUnary::log10, each(ComplexMath::log10)),
    LOGICAL_NOT(BOOL, DTypeRule.BOOL, BoolLoops::not, null, null, null),
    NEGATIVE(NUMERIC, DTypeRule.SAME, null, IntUnary::negative, RealUnary::negative, ComplexLoops::negative),
    POSITIVE(NUMERIC, DTypeRule.SAME, null, IntUnary::copy, RealUnary::positive, ComplexLoops::positive),
    REAL(NUMERIC, DTypeRule.REAL_OF_COMPLEX, null, IntUnary::copy, RealUnary::positive, ComplexLoops::real),
    RECIPROCAL(NUMERIC, DTypeRule.FLOATING, null, null, RealUnary::reciprocal, ComplexLoops::reciprocal),
    ROUND(NUMERIC, DTypeRule.SAME, null, IntUnary::copy, RealUnary::round, ComplexLoops::round),
    SIGN(NUMERIC, DTypeRule.SAME, null, IntUnary::sign, RealUnary::sign, each(ComplexMath::sign)),
    SIGNBIT(REAL_FLOATING, DTypeRule.BOOL, null, null, RealUnary::signbit, null),
    SIN(FLOATING, DTypeRule.SAME, null, null, RealUnary::sin, each(ComplexMath::sin)),
    SINH(FLOATING, DTypeRule.SAME, null, null, RealUnary::sinh, each(ComplexMath::sinh)),
    SQUARE(NUMERIC, DTypeRule.SAME, null, IntUnary::square, RealUnary::square, ComplexLoops::square),
    SQRT(FLOATING, DTypeRule.SAME, null, null, RealUnary::sqrt, each(ComplexMath::sqrt)),
    TAN(FLOATING, DTypeRule.SAME, null, null, RealUnary::tan, each(ComplexMath::tan)),
    TANH(FLOATING, DTypeRule.SAME, null, null, RealUnary::tanh, each(ComplexMath::tanh)),
    TRUNC(REAL_NUMERIC, DTypeRule.SAME, null, IntUnary::copy, RealUnary::trunc, null);

    private final Domain domain;
    private final DTypeRule rule;
    private final String pythonName;
    private final Kernels.UnaryBool bool;
    private final Kernels.UnaryInt integer;
    private final Kernels.UnaryReal real;
    private final Kernels.UnaryComplex complex;

    UnaryFunction(
            Domain domain,
            DTypeRule rule,
            Kernels.UnaryBool bool,
            Kernels.UnaryInt integer,
            Kernels.UnaryReal real,
            Kernels.UnaryComplex complex) {
        this.domain = domain;
        this.rule = rule;
        this.bool = bool;
        this.integer = integer;
        this.real = real;
        this.complex = complex;
        // Asked for on every call of a kernel (errors name the function), so made once.
        this.pythonName = name().toLowerCase(Locale.ROOT);
    }

    /** The function's name in the Array API standard, e.g. {@code "bitwise_invert"}. */
    public String pythonName() {
        return pythonName;
    }

    /** The name of its method in {@code io.cubed.array.Elementwise}, e.g. {@code "bitwiseInvert"}. */
    public String javaName() {
        return Names.camelCase(pythonName());
    }

    /** The input types the standard allows. */
    public Domain domain() {
        return domain;
    }

    /** How the result type follows from the input type. */
    public DTypeRule dtypeRule() {
        return rule;
    }

    /** The result type for an input of type {@code in} (which must be in {@link #domain()}). */
    public DType resultType(DType in) {
        return rule.resultType(in);
    }

    /**
     * The type the loops compute in for an input of type {@code in}: {@code in}, or float64 for integer input of
     * {@link DTypeRule#FLOATING}.
     */
    public DType workingType(DType in) {
        return rule.workingType(in);
    }

    /** True when the function has a loop for the family of data type {@code t} (its {@link #workingType}'s). */
    public boolean hasKernel(DType t) {
        return switch (workingType(t).kind()) {
            case BOOL -> bool != null;
            case SIGNED, UNSIGNED -> integer != null;
            case FLOAT -> real != null;
            case COMPLEX -> complex != null;
        };
    }

    Kernels.UnaryBool boolKernel() {
        return bool;
    }

    Kernels.UnaryInt integerKernel() {
        return integer;
    }

    Kernels.UnaryReal realKernel() {
        return real;
    }

    Kernels.UnaryComplex complexKernel() {
        return complex;
    }

    /** The constant whose {@link #pythonName()} is {@code name}. */
    public static UnaryFunction fromPythonName(String name) {
        return valueOf(name.toUpperCase(Locale.ROOT));
    }
}
