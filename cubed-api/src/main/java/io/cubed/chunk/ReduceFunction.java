package io.cubed.chunk;

import io.cubed.dtype.DType;
import io.cubed.error.InvalidArgumentException;
import java.util.Locale;

/**
 * The reductions with bounded memory: the Array API's statistical, utility and searching reductions and their NaN-aware
 * forms (NumPy's {@code nan*}). Each knows which input types it accepts and its result type.
 *
 * <p>Result types follow the standard: {@code sum} and {@code prod} of bool and signed integers give int64, of unsigned
 * integers uint64, floating types keep their type (a {@code dtype} argument overrides this); {@code mean}, {@code var}
 * and {@code std} require floating-point input and keep its type; {@code min} and {@code max} keep the input type;
 * {@code all} and {@code any} give bool; {@code count_nonzero} and the arg reductions give int64.
 */
public enum ReduceFunction {
    SUM("sum", Accepts.NUMERIC),
    PROD("prod", Accepts.NUMERIC),
    MIN("min", Accepts.REAL),
    MAX("max", Accepts.REAL),
    MEAN("mean", Accepts.FLOATING),
    VAR("var", Accepts.REAL_FLOATING),
    STD("std", Accepts.REAL_FLOATING),
    ALL("all", Accepts.ANY),
    ANY("any", Accepts.ANY),
    COUNT_NONZERO("count_nonzero", Accepts.ANY),
    ARGMIN("argmin", Accepts.REAL),
    ARGMAX("argmax", Accepts.REAL),
    NANSUM("nansum", Accepts.REAL_NUMERIC),
    NANPROD("nanprod", Accepts.REAL_NUMERIC),
    NANMEAN("nanmean", Accepts.REAL_FLOATING),
    NANMIN("nanmin", Accepts.REAL),
    NANMAX("nanmax", Accepts.REAL),
    NANVAR("nanvar", Accepts.REAL_FLOATING),
    NANSTD("nanstd", Accepts.REAL_FLOATING),
    NANARGMIN("nanargmin", Accepts.REAL),
    NANARGMAX("nanargmax", Accepts.REAL);

    /** The input types a reduction accepts. */
    enum Accepts {
        /** bool, integers, floating and complex (bool counts as 0 and 1). */
        NUMERIC("a numeric or bool data type"),
        /** bool, integers and real floating. */
        REAL_NUMERIC("a real-valued numeric or bool data type"),
        /** integers and real floating (no bool, no complex). */
        REAL("a real-valued numeric data type (integer or real floating point)"),
        /** real and complex floating. */
        FLOATING("a floating-point data type"),
        /** real floating only. */
        REAL_FLOATING("a real floating-point data type"),
        /** every type. */
        ANY("any data type");

        private final String description;

        Accepts(String description) {
            this.description = description;
        }

        boolean test(DType t) {
            switch (this) {
                case NUMERIC:
                    return true;
                case REAL_NUMERIC:
                    return !t.isComplex();
                case REAL:
                    return t.isInteger() || t.isFloating();
                case FLOATING:
                    return t.isFloating() || t.isComplex();
                case REAL_FLOATING:
                    return t.isFloating();
                default:
                    return true;
            }
        }
    }

    private final String pythonName;
    private final Accepts accepts;

    ReduceFunction(String pythonName, Accepts accepts) {
        this.pythonName = pythonName;
        this.accepts = accepts;
    }

    /** The name in the Array API standard or NumPy, e.g. {@code "count_nonzero"}. */
    public String pythonName() {
        return pythonName;
    }

    /** True for the arg reductions, whose state holds an index per element. */
    public boolean isArg() {
        return this == ARGMIN || this == ARGMAX || this == NANARGMIN || this == NANARGMAX;
    }

    /** True when the reduction has no identity, so reducing an empty axis is an error (min, max, the arg forms). */
    public boolean needsElements() {
        return this == MIN || this == MAX || this == NANMIN || this == NANMAX || isArg();
    }

    /** True for {@code sum}, {@code prod} and their NaN-aware forms, the reductions that take a {@code dtype}. */
    public boolean takesDtype() {
        return this == SUM || this == PROD || this == NANSUM || this == NANPROD;
    }

    /**
     * The result type of this reduction of an array of type {@code input}, with the {@code dtype} argument (null for
     * the default); {@code what} names the array in errors.
     *
     * @throws InvalidArgumentException when {@code input} is not accepted or {@code dtype} is not allowed
     */
    public DType resultType(DType input, DType dtype, String what) {
        if (!accepts.test(input)) {
            throw new InvalidArgumentException(pythonName + ": " + what + " has data type " + input
                    + ", which is not supported; " + pythonName + " requires " + accepts.description
                    + (accepts == Accepts.FLOATING || accepts == Accepts.REAL_FLOATING
                            ? " (cast it with astype first)"
                            : ""));
        }
        if (dtype != null) {
            if (!takesDtype()) {
                throw new InvalidArgumentException(
                        pythonName + " of " + what + ": the dtype argument (" + dtype + ") is only for sum and prod");
            }
            boolean ok = dtype != DType.BOOL
                    && (!input.isComplex() || dtype.isComplex())
                    && (!input.isFloating() || !dtype.isInteger())
                    && (!dtype.isComplex() || accepts == Accepts.NUMERIC);
            if (!ok) {
                throw new InvalidArgumentException(pythonName + " of " + what + ": cannot accumulate data type " + input
                        + " in dtype " + dtype + "; choose a numeric type of the same kind or wider");
            }
            return dtype;
        }
        switch (this) {
            case SUM:
            case PROD:
            case NANSUM:
            case NANPROD:
                if (input == DType.BOOL || input.kind() == DType.Kind.SIGNED) {
                    return DType.INT64;
                }
                return input.kind() == DType.Kind.UNSIGNED ? DType.UINT64 : input;
            case ALL:
            case ANY:
                return DType.BOOL;
            case COUNT_NONZERO:
            case ARGMIN:
            case ARGMAX:
            case NANARGMIN:
            case NANARGMAX:
                return DType.INT64;
            default:
                return input;
        }
    }

    /** The reduction named {@code name} in Python (e.g. {@code "nanmean"}). */
    public static ReduceFunction fromPythonName(String name) {
        for (ReduceFunction f : values()) {
            if (f.pythonName.equals(name)) {
                return f;
            }
        }
        throw new InvalidArgumentException("unknown reduction '" + name + "'");
    }

    @Override
    public String toString() {
        return pythonName.toLowerCase(Locale.ROOT);
    }
}
