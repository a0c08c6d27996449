package io.cubed.chunk;

import static io.cubed.chunk.Domain.*;

import io.cubed.dtype.DType;
import java.util.Locale;

/**
 * The binary elementwise functions of the Array API standard (2024.12), as one table: each row is a function's name,
 * the promoted input types it accepts ({@link Domain}), how its result type follows from the promoted type
 * ({@link DTypeRule}: the same, or bool for comparisons and logical functions) and its loops for each family of data
 * types (bool, integer, real floating, complex), null where the domain leaves the family out. Every function also
 * takes a Python-style scalar on either side ({@code Elementwise.binary(f, chunk, scalar)} and the reverse).
 * The chunk functions of {@link Elementwise} and the array functions of {@code io.cubed.array.Elementwise} (three
 * methods per row: array-array, array-scalar, scalar-array, named {@link #javaName()}) are driven by it.
 */
// The loops are stateless method references and lambdas; errorprone cannot see that without @Immutable.
@SuppressWarnings("ImmutableEnumChecker")
public enum BinaryFunction {
    // name(domain, result type, bool loop, integer loop, real loops, complex loop)
    ADD(NUMERIC, DTypeRule.SAME, null, IntBinary::add, RealBinary.ADD, ComplexLoops::add),
    ATAN2(REAL_FLOATING, DTypeRule.SAME, null, null, RealBinary::atan2, null),
    BITWISE_AND(INTEGER_OR_BOOL, DTypeRule.SAME, BoolLoops::and, IntBinary::bitwiseAnd, null, null),
    BITWISE_LEFT_SHIFT(INTEGER, DTypeRule.SAME, null, IntBinary::bitwiseLeftShift, null, null),
    BITWISE_OR(INTEGER_OR_BOOL, DTypeRule.SAME, BoolLoops::or, IntBinary::bitwiseOr, null, null),
    BITWISE_RIGHT_SHIFT(INTEGER, DTypeRule.SAME, null, IntBinary::bitwiseRightShift, null, null),
    BITWISE_XOR(INTEGER_OR_BOOL, DTypeRule.SAME, BoolLoops::xor, IntBinary::bitwiseXor, null, null),
    COPYSIGN(REAL_FLOATING, DTypeRule.SAME, null, null, RealBinary::copysign, null),
    DIVIDE(FLOATING, DTypeRule.SAME, null, null, RealBinary.DIVIDE, ComplexLoops::divide),
    EQUAL(ANY, DTypeRule.BOOL, BoolLoops::equal, IntBinary::equal, RealBinary::equal, ComplexLoops::equal),
    FLOOR_DIVIDE(REAL_NUMERIC, DTypeRule.SAME, null, IntBinary::floorDivide, RealBinary.FLOOR_DIVIDE, null),
    GREATER(REAL_NUMERIC, DTypeRule.BOOL, null, IntBinary::greater, RealBinary::greater, null),
    GREATER_EQUAL(REAL_NUMERIC, DTypeRule.BOOL, null, IntBinary::greaterEqual, RealBinary::greaterEqual, null),
    HYPOT(REAL_FLOATING, DTypeRule.SAME, null, null, RealBinary::hypot, null),
    LESS(REAL_NUMERIC, DTypeRule.BOOL, null, IntBinary::less, RealBinary::less, null),
    LESS_EQUAL(REAL_NUMERIC, DTypeRule.BOOL, null, IntBinary::lessEqual, RealBinary::lessEqual, null),
    LOGADDEXP(REAL_FLOATING, DTypeRule.SAME, null, null, RealBinary::logaddexp, null),
    LOGICAL_AND(BOOL, DTypeRule.BOOL, BoolLoops::and, null, null, null),
    LOGICAL_OR(BOOL, DTypeRule.BOOL, BoolLoops::or, null, null, null),
    LOGICAL_XOR(BOOL, DTypeRule.BOOL, BoolLoops::xor, null, null, null),
    MAXIMUM(REAL_NUMERIC, DTypeRule.SAME, null, IntBinary::maximum, RealBinary.MAXIMUM, null),
    MINIMUM(REAL_NUMERIC, DTypeRule.SAME, null, IntBinary::minimum, RealBinary.MINIMUM, null),
    MULTIPLY(NUMERIC, DTypeRule.SAME, null, IntBinary::multiply, RealBinary.MULTIPLY, ComplexLoops::multiply),
    NEXTAFTER(REAL_FLOATING, DTypeRule.SAME, null, null, RealBinary.NEXTAFTER, null),
    NOT_EQUAL(ANY, DTypeRule.BOOL, BoolLoops::xor, IntBinary::notEqual, RealBinary::notEqual, ComplexLoops::notEqual),
    POW(NUMERIC, DTypeRule.SAME, null, IntBinary::pow, RealBinary.POW, ComplexLoops::pow),
    REMAINDER(REAL_NUMERIC, DTypeRule.SAME, null, IntBinary::remainder, RealBinary.REMAINDER, null),
    SUBTRACT(NUMERIC, DTypeRule.SAME, null, IntBinary::subtract, RealBinary.SUBTRACT, ComplexLoops::subtract);

    private final Domain domain;
    private final DTypeRule rule;
    private final String pythonName;
    private final Kernels.BinaryBool bool;
    private final Kernels.BinaryInt integer;
    private final Kernels.BinaryReal real;
    private final Kernels.BinaryComplex complex;

    BinaryFunction(
            Domain domain,
            DTypeRule rule,
            Kernels.BinaryBool bool,
            Kernels.BinaryInt integer,
            Kernels.BinaryReal real,
            Kernels.BinaryComplex complex) {
        this.domain = domain;
        this.rule = rule;
        this.bool = bool;
        this.integer = integer;
        this.real = real;
        this.complex = complex;
        // Asked for on every call of a kernel (errors name the function), so made once.
        this.pythonName = name().toLowerCase(Locale.ROOT);
    }

    /** The function's name in the Array API standard, e.g. {@code "floor_divide"}. */
    public String pythonName() {
        return pythonName;
    }

    /** The name of its methods in {@code io.cubed.array.Elementwise}, e.g. {@code "floorDivide"}. */
    public String javaName() {
        return Names.camelCase(pythonName());
    }

    /** The promoted input types the standard allows. */
    public Domain domain() {
        return domain;
    }

    /** How the result type follows from the promoted input type. */
    public DTypeRule dtypeRule() {
        return rule;
    }

    /** The result type for inputs promoted to {@code promoted}: bool for comparisons and logical functions. */
    public DType resultType(DType promoted) {
        return rule.resultType(promoted);
    }

    /** True when the function has a loop for the family of the promoted type {@code t}. */
    public boolean hasKernel(DType t) {
        return switch (t.kind()) {
            case BOOL -> bool != null;
            case SIGNED, UNSIGNED -> integer != null;
            case FLOAT -> real != null;
            case COMPLEX -> complex != null;
        };
    }

    Kernels.BinaryBool boolKernel() {
        return bool;
    }

    Kernels.BinaryInt integerKernel() {
        return integer;
    }

    Kernels.BinaryReal realKernel() {
        return real;
    }

    Kernels.BinaryComplex complexKernel() {
        return complex;
    }

    /** The constant whose {@link #pythonName()} is {@code name}. */
    public static BinaryFunction fromPythonName(String name) {
        return valueOf(name.toUpperCase(Locale.ROOT));
    }
}
