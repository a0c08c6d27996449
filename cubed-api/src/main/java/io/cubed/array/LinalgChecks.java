package io.cubed.array;

import io.cubed.dtype.DType;
import io.cubed.dtype.DTypes;
import io.cubed.error.InvalidArgumentException;

/**
 * The argument checks that several of the linear algebra files make in the same words: a common numeric type for two
 * operands, a numeric array, a stack of matrices, the computing type of a factorization and a tolerance. Each names
 * the call through {@code what} (for instance {@code "trace of x of shape [3, 3]"}) and {@code who} (the function as
 * the standard spells it).
 */
final class LinalgChecks {
    private LinalgChecks() {}

    /** The kinds of arrays the products and composed functions take, as their errors say it. */
    private static final String NUMERIC = "numeric (integer, real or complex floating-point)";

    /** The promoted type of {@code a} and {@code b}, refused when there is none or when it is bool. */
    static DType numericType(String what, String who, CubedArray a, CubedArray b) {
        DType rt;
        try {
            rt = DTypes.resultType(a.dtype(), b.dtype());
        } catch (InvalidArgumentException e) {
            throw new InvalidArgumentException(
                    what + ": data types " + a.dtype() + " and " + b.dtype()
                            + " have no common type; cast one with astype",
                    e);
        }
        if (rt == DType.BOOL) {
            throw new InvalidArgumentException(
                    what + ": data type " + rt + " is not supported; " + who + " takes " + NUMERIC + " arrays");
        }
        return rt;
    }

    /** Refuses a bool {@code x}. */
    static void checkNumeric(String what, String who, CubedArray x) {
        if (x.dtype() == DType.BOOL) {
            throw new InvalidArgumentException(
                    what + ": data type bool is not supported; " + who + " takes a " + NUMERIC + " array");
        }
    }

    /** Refuses an {@code x} of rank 0 or 1. */
    static void checkMatrixStack(String what, CubedArray x) {
        if (x.ndim() < 2) {
            throw new InvalidArgumentException(what + ": needs rank 2 or more (a matrix or a stack of matrices)");
        }
    }

    /** The type a factorization of {@code x} computes in, after checking x is a stack of (square) matrices. */
    static DType factorType(String op, CubedArray x, boolean square) {
        MatrixOps.checkMatrices(op, x, square);
        return MatrixOps.floating(op, x);
    }

    /** Refuses a tolerance that is negative or infinite; NaN stands for the default and passes. */
    static void checkRtol(String op, CubedArray x, double rtol) {
        if (!Double.isNaN(rtol) && (rtol < 0 || Double.isInfinite(rtol))) {
            throw new InvalidArgumentException(
                    op + " of " + x.name() + ": rtol " + rtol + " must be a finite number >= 0");
        }
    }
}
