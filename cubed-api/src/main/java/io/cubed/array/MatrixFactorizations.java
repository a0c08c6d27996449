package io.cubed.array;

import io.cubed.dtype.DType;
import io.cubed.dtype.DTypes;
import io.cubed.error.InvalidArgumentException;
import java.util.Arrays;
import java.util.List;

/**
 * The matrix factorizations of {@link LinearAlgebra} and what follows from them ({@code cholesky}, {@code det},
 * {@code slogdet}, {@code inv}, {@code solve}, {@code eigh}, {@code eigvalsh}, {@code qr}, {@code svd},
 * {@code svdvals}, {@code matrix_rank}, {@code pinv}): each names the kind of LAPACK work and the shapes of its
 * outputs, and {@link MatrixOps} plans one task per batch chunk of whole matrices. The reduced QR, the thin SVD and
 * the singular values of a tall 2-d matrix chunked along its rows go to {@link Tsqr} instead.
 */
final class MatrixFactorizations {
    private MatrixFactorizations() {}

    /** {@link LinearAlgebra#cholesky(CubedArray, boolean)}. */
    static CubedArray cholesky(CubedArray x, boolean upper) {
        DType t = LinalgChecks.factorType("cholesky", x, true);
        long n = x.shape()[x.ndim() - 1];
        MatrixOps.Kind kind = upper ? MatrixOps.Kind.CHOLESKY_UPPER : MatrixOps.Kind.CHOLESKY;
        return single("cholesky", kind, Double.NaN, t, List.of(x), t, n, n);
    }

    /** {@link LinearAlgebra#det}. */
    static CubedArray det(CubedArray x) {
        DType t = LinalgChecks.factorType("det", x, true);
        return single("det", MatrixOps.Kind.DET, Double.NaN, t, List.of(x), t);
    }

    /** {@link LinearAlgebra#slogdet}: the sign in x's type and the log of the modulus in the real one. */
    static List<CubedArray> slogdet(CubedArray x) {
        DType t = LinalgChecks.factorType("slogdet", x, true);
        return MatrixOps.perMatrix(
                "slogdet", MatrixOps.Kind.SLOGDET, Double.NaN, t, List.of(x), List.of(out(t), out(DTypes.realOf(t))));
    }

    /** {@link LinearAlgebra#inv}. */
    static CubedArray inv(CubedArray x) {
        DType t = LinalgChecks.factorType("inv", x, true);
        long n = x.shape()[x.ndim() - 1];
        return single("inv", MatrixOps.Kind.INV, Double.NaN, t, List.of(x), t, n, n);
    }

    /**
     * {@link LinearAlgebra#solve}: a vector right-hand side becomes a one-column matrix and back; the batch axes of
     * both operands are broadcast to a common shape before the per-matrix solve.
     */
    static CubedArray solve(CubedArray x1, CubedArray x2) {
        String op = "solve";
        DType t1 = LinalgChecks.factorType(op, x1, true);
        DType t2 = x2.ndim() == 0 ? t1 : MatrixOps.floating(op, x2);
        DType t;
        try {
            t = DTypes.resultType(t1, t2);
        } catch (InvalidArgumentException e) {
            throw new InvalidArgumentException(
                    op + " of " + x1.name() + " and " + x2.name() + ": types " + x1.dtype() + " and " + x2.dtype()
                            + " have no common type",
                    e);
        }
        long m = x1.shape()[x1.ndim() - 1];
        boolean vector = x2.ndim() == 1;
        if (x2.ndim() == 0 || x2.shape()[vector ? 0 : x2.ndim() - 2] != m) {
            throw new InvalidArgumentException(op + " of " + x1.name() + " and " + x2.name() + ": x2 of shape "
                    + Arrays.toString(x2.shape()) + " must be (" + m + ",) or (..., " + m + ", K) for x1 of shape "
                    + Arrays.toString(x1.shape()));
        }
        CubedArray b = vector ? Manipulation.expandDims(x2, 1) : x2;
        int nb = Math.max(x1.ndim(), b.ndim()) - 2;
        long[] batch = new long[nb];
        for (int a = 0; a < nb; a++) {
            long l1 = batchLength(x1, a, nb);
            long l2 = batchLength(b, a, nb);
            if (l1 != l2 && l1 != 1 && l2 != 1) {
                throw new InvalidArgumentException(op + " of " + x1.name() + " and " + x2.name() + ": batch shapes of "
                        + Arrays.toString(x1.shape()) + " and " + Arrays.toString(x2.shape())
                        + " cannot be broadcast together");
            }
            batch[a] = Math.max(l1, l2);
        }
        CubedArray a1 = Manipulation.broadcastTo(x1, withCore(batch, x1));
        CubedArray a2 = Manipulation.broadcastTo(b, withCore(batch, b));
        long k = b.shape()[b.ndim() - 1];
        CubedArray r = single(op, MatrixOps.Kind.SOLVE, Double.NaN, t, List.of(a1, a2), t, m, k);
        return vector ? dropLastAxis(r) : r;
    }

    /** Length of batch axis {@code axis} of {@code x} when {@code nb} batch axes align at the end (1 if x lacks it). */
    private static long batchLength(CubedArray x, int axis, int nb) {
        int own = x.ndim() - 2;
        int a = axis - (nb - own);
        return a < 0 ? 1 : x.shape()[a];
    }

    /** The shape {@code batch} followed by the two matrix axes of {@code x}. */
    private static long[] withCore(long[] batch, CubedArray x) {
        long[] s = Arrays.copyOf(batch, batch.length + 2);
        s[batch.length] = x.shape()[x.ndim() - 2];
        s[batch.length + 1] = x.shape()[x.ndim() - 1];
        return s;
    }

    /** {@link LinearAlgebra#eigh}: the eigenvalues come out as a column and lose that axis. */
    static List<CubedArray> eigh(CubedArray x) {
        DType t = LinalgChecks.factorType("eigh", x, true);
        long n = x.shape()[x.ndim() - 1];
        List<CubedArray> r = MatrixOps.perMatrix(
                "eigh",
                MatrixOps.Kind.EIGH,
                Double.NaN,
                t,
                List.of(x),
                List.of(out(DTypes.realOf(t), n, 1), out(t, n, n)));
        return List.of(dropLastAxis(r.get(0)), r.get(1));
    }

    /** {@link LinearAlgebra#eigvalsh}. */
    static CubedArray eigvalsh(CubedArray x) {
        DType t = LinalgChecks.factorType("eigvalsh", x, true);
        long n = x.shape()[x.ndim() - 1];
        return single("eigvalsh", MatrixOps.Kind.EIGVALSH, Double.NaN, t, List.of(x), DTypes.realOf(t), n);
    }

    /** {@link LinearAlgebra#qr(CubedArray, String)}: TSQR for the reduced mode where it applies. */
    static List<CubedArray> qr(CubedArray x, String mode) {
        boolean complete = "complete".equals(mode);
        if (!complete && !"reduced".equals(mode)) {
            throw new InvalidArgumentException(
                    "qr of " + x.name() + ": mode '" + mode + "' is not 'reduced' or 'complete'");
        }
        DType t = LinalgChecks.factorType("qr", x, false);
        if (!complete && Tsqr.applies(x)) {
            return Tsqr.qr(x, t);
        }
        long m = x.shape()[x.ndim() - 2];
        long n = x.shape()[x.ndim() - 1];
        long k = complete ? m : Math.min(m, n);
        MatrixOps.Kind kind = complete ? MatrixOps.Kind.QR_COMPLETE : MatrixOps.Kind.QR;
        return MatrixOps.perMatrix("qr", kind, Double.NaN, t, List.of(x), List.of(out(t, m, k), out(t, k, n)));
    }

    /** {@link LinearAlgebra#svd(CubedArray, boolean)}: TSQR for the thin form where it applies. */
    static List<CubedArray> svd(CubedArray x, boolean fullMatrices) {
        DType t = LinalgChecks.factorType("svd", x, false);
        if (!fullMatrices && Tsqr.applies(x)) {
            return Tsqr.svd(x, t);
        }
        long m = x.shape()[x.ndim() - 2];
        long n = x.shape()[x.ndim() - 1];
        long k = Math.min(m, n);
        MatrixOps.Kind kind = fullMatrices ? MatrixOps.Kind.SVD_FULL : MatrixOps.Kind.SVD;
        List<CubedArray> r = MatrixOps.perMatrix(
                "svd",
                kind,
                Double.NaN,
                t,
                List.of(x),
                List.of(out(t, m, fullMatrices ? m : k), out(DTypes.realOf(t), k, 1), out(t, fullMatrices ? n : k, n)));
        return List.of(r.get(0), dropLastAxis(r.get(1)), r.get(2));
    }

    /** {@link LinearAlgebra#svdvals}: TSQR where it applies. */
    static CubedArray svdvals(CubedArray x) {
        DType t = LinalgChecks.factorType("svdvals", x, false);
        if (Tsqr.applies(x)) {
            return Tsqr.svdvals(x, t);
        }
        long k = Math.min(x.shape()[x.ndim() - 2], x.shape()[x.ndim() - 1]);
        return single("svdvals", MatrixOps.Kind.SVDVALS, Double.NaN, t, List.of(x), DTypes.realOf(t), k);
    }

    /** {@link LinearAlgebra#matrixRank(CubedArray, double)}. */
    static CubedArray matrixRank(CubedArray x, double rtol) {
        DType t = LinalgChecks.factorType("matrix_rank", x, false);
        LinalgChecks.checkRtol("matrix_rank", x, rtol);
        return single("matrix_rank", MatrixOps.Kind.MATRIX_RANK, rtol, t, List.of(x), DType.INT64);
    }

    /** {@link LinearAlgebra#pinv(CubedArray, double)}. */
    static CubedArray pinv(CubedArray x, double rtol) {
        DType t = LinalgChecks.factorType("pinv", x, false);
        LinalgChecks.checkRtol("pinv", x, rtol);
        long m = x.shape()[x.ndim() - 2];
        long n = x.shape()[x.ndim() - 1];
        return single("pinv", MatrixOps.Kind.PINV, rtol, t, List.of(x), t, n, m);
    }

    /** A per-matrix output of type {@code type} whose every matrix has shape {@code tail}. */
    private static MatrixOps.Out out(DType type, long... tail) {
        return new MatrixOps.Out(type, tail);
    }

    /** The only output of a per-matrix operation with one: of type {@code type} and per-matrix shape {@code tail}. */
    private static CubedArray single(
            String op, MatrixOps.Kind kind, double rtol, DType t, List<CubedArray> inputs, DType type, long... tail) {
        return MatrixOps.perMatrix(op, kind, rtol, t, inputs, List.of(out(type, tail)))
                .get(0);
    }

    /** {@code x} without its last axis, which has length 1. */
    private static CubedArray dropLastAxis(CubedArray x) {
        return Manipulation.squeeze(x, x.ndim() - 1);
    }
}
