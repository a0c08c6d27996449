package io.cubed.array;

import io.cubed.dtype.DType;
import io.cubed.dtype.DTypes;
import io.cubed.dtype.FInfo;
import io.cubed.dtype.IInfo;
import io.cubed.error.InvalidArgumentException;

/**
 * The data type functions of the Array API standard for arrays and data types: {@code result_type}, {@code can_cast},
 * {@code finfo}, {@code iinfo}, {@code isdtype}. They read only an array's data type and run nothing; {@code astype}
 * is {@link Elementwise#astype}. The same functions on data types alone are in {@link DTypes}.
 */
public final class DataTypes {
    private DataTypes() {}

    /**
     * The type the standard's promotion rules give for {@code arraysOrDtypes}, each a {@link CubedArray} or a
     * {@link DType}.
     *
     * @throws InvalidArgumentException for an argument of another kind, or types the standard does not promote
     */
    public static DType resultType(Object... arraysOrDtypes) {
        DType[] types = new DType[arraysOrDtypes.length];
        for (int i = 0; i < types.length; i++) {
            Object o = arraysOrDtypes[i];
            if (o instanceof CubedArray a) {
                types[i] = a.dtype();
            } else if (o instanceof DType t) {
                types[i] = t;
            } else {
                throw new InvalidArgumentException(
                        "result_type: argument " + i + " (" + o + ") is neither an array nor a data type");
            }
        }
        return DTypes.resultType(types);
    }

    /** True when the array's type can be promoted to {@code to} (the standard's {@code can_cast}). */
    public static boolean canCast(CubedArray from, DType to) {
        return DTypes.canCast(from.dtype(), to);
    }

    /** Limits of the array's floating-point type. */
    public static FInfo finfo(CubedArray x) {
        return DTypes.finfo(x.dtype());
    }

    /** Limits of the array's integer type. */
    public static IInfo iinfo(CubedArray x) {
        return DTypes.iinfo(x.dtype());
    }

    /** True when the array's type is of any of {@code kinds}; see {@link DTypes#isdtype}. */
    public static boolean isdtype(CubedArray x, String... kinds) {
        return DTypes.isdtype(x.dtype(), kinds);
    }
}
