package io.cubed.array;

import io.cubed.dtype.DType;
import io.cubed.error.InvalidArgumentException;
import java.util.List;

/**
 * The linear algebra of the Array API standard: the products ({@code matmul}, {@code tensordot}, {@code vecdot},
 * {@code outer}, {@code matrix_transpose}, {@code matrix_power}), the {@code linalg} functions composed from other
 * operations ({@code vector_norm}, {@code matrix_norm}, {@code diagonal}, {@code trace}, {@code cross}) and the
 * factorizations ({@code cholesky}, {@code qr}, {@code svd}, {@code eigh}, {@code solve}, …). Integer, real and
 * complex arrays are accepted where the standard allows them, their types promoted by its table (complex64 with
 * float64 gives complex128).
 *
 * <p>This class is where users call them; every method checks nothing itself and hands its arguments to the
 * package-private class that builds the plan (the package description says which file holds which). Products of
 * chunks run on BLAS ({@link io.cubed.chunk.MatMul}) and factorizations on LAPACK, per matrix, or by TSQR for a tall
 * matrix chunked along its rows. Building any of these runs nothing.
 */
public final class LinearAlgebra {
    private LinearAlgebra() {}

    /**
     * The matrix product ({@code matmul}): {@code (..., m, k) @ (..., k, n) -> (..., m, n)} with the batch axes
     * broadcast; a 1-d first operand acts as a row, a 1-d second one as a column, and their axis is removed from the
     * result (two 1-d operands give their dot product, 0-d).
     */
    public static CubedArray matmul(CubedArray x1, CubedArray x2) {
        return Products.matmul(x1, x2);
    }

    /**
     * The tensor contraction of the last {@code axes} axes of {@code x1} with the first {@code axes} axes of
     * {@code x2} ({@code tensordot(x1, x2, axes=N)}).
     */
    public static CubedArray tensordot(CubedArray x1, CubedArray x2, int axes) {
        return Products.tensordot(x1, x2, axes);
    }

    /**
     * The tensor contraction of axes {@code axes1} of {@code x1} with axes {@code axes2} of {@code x2}, pairwise
     * ({@code tensordot(x1, x2, axes=(axes1, axes2))}); the result has the remaining axes of {@code x1}, then of
     * {@code x2}.
     */
    public static CubedArray tensordot(CubedArray x1, CubedArray x2, int[] axes1, int[] axes2) {
        return Products.tensordot(x1, x2, axes1, axes2);
    }

    /**
     * The dot product along the last axis, the other axes broadcast, conjugating {@code x1} when it is complex
     * ({@code vecdot}).
     */
    public static CubedArray vecdot(CubedArray x1, CubedArray x2) {
        return vecdot(x1, x2, -1);
    }

    /**
     * The dot product of {@code x1} and {@code x2} along {@code axis} (of the broadcast shape, negative counting from
     * the end), the other axes broadcast ({@code vecdot}): {@code Σ conj(x1)·x2}, so {@code vecdot(x, x)} of a complex
     * {@code x} is {@code Σ |x|²} with a zero imaginary part (conjugating a real {@code x1} changes nothing).
     */
    public static CubedArray vecdot(CubedArray x1, CubedArray x2, int axis) {
        return Products.vecdot(x1, x2, axis);
    }

    /** The outer product of two 1-d arrays ({@code outer}): {@code out[i, j] = x1[i] · x2[j]}. */
    public static CubedArray outer(CubedArray x1, CubedArray x2) {
        return Products.outer(x1, x2);
    }

    /** {@code x} with its last two axes swapped ({@code matrix_transpose}); chunk (…, i, j) becomes (…, j, i). */
    public static CubedArray matrixTranspose(CubedArray x) {
        return Products.matrixTranspose(x);
    }

    /** The Euclidean norm of all elements of {@code x} ({@code vector_norm(x)}), 0-d, of the real type of {@code x}. */
    public static CubedArray vectorNorm(CubedArray x) {
        return vectorNorm(x, null, false, 2);
    }

    /**
     * The vector norm of order {@code ord} over {@code axis} ({@code vector_norm(x, axis=axis, keepdims=keepdims,
     * ord=ord)}; {@code axis} null: every axis, negative axes count from the end): {@code (Σ|x|^ord)^(1/ord)} for any
     * real {@code ord}, {@code max|x|} for {@code +∞}, {@code min|x|} for {@code −∞}, and for {@code ord = 0} the number
     * of nonzero elements. {@code |x|} is the modulus for complex {@code x}; the result has the real type of {@code x}
     * (complex128 gives float64). Built as NumPy computes it, from elementwise functions and one tree reduction:
     * {@code ord = 2} is {@code sqrt(Σ(re² + im²))} without rescaling (it overflows where NumPy's does), {@code ord = 1}
     * {@code Σ|x|}, any other finite order {@code Σ(|x|^ord)} raised to {@code 1/ord} (rounded to the result type).
     *
     * @throws InvalidArgumentException when {@code x} is not floating-point (the standard asks for a floating-point
     *     array; cast integers with {@code astype}), {@code ord} is NaN, an axis is out of range or repeated, or
     *     {@code ord = ±∞} reduces an empty axis (a maximum of nothing)
     */
    public static CubedArray vectorNorm(CubedArray x, int[] axis, boolean keepdims, double ord) {
        return Norms.vectorNorm(x, axis, keepdims, ord);
    }

    /** The main diagonal of each matrix of {@code x} ({@code diagonal(x)}); see {@link #diagonal(CubedArray, long)}. */
    public static CubedArray diagonal(CubedArray x) {
        return diagonal(x, 0);
    }

    /**
     * Diagonal {@code offset} (0 the main one, positive above it, negative below) of each matrix formed by the last two
     * axes of {@code x} ({@code diagonal(x, offset=offset)}): shape {@code (..., L)} with {@code L} the diagonal's
     * length (0 when {@code offset} lies outside the matrix), any data type, the batch axes chunked as in {@code x} and
     * the diagonal in chunks of the smaller chunk length of the two matrix axes. Each task reads only the (at most
     * three) chunks of {@code x} its run of the diagonal passes through, one at a time.
     *
     * @throws InvalidArgumentException when {@code x} has fewer than two axes
     */
    public static CubedArray diagonal(CubedArray x, long offset) {
        return Diagonals.diagonal(x, offset);
    }

    /** The sum of the main diagonal of each matrix of {@code x} ({@code trace(x)}); see {@link #trace(CubedArray, long, DType)}. */
    public static CubedArray trace(CubedArray x) {
        return trace(x, 0, null);
    }

    /**
     * The sum of diagonal {@code offset} of each matrix formed by the last two axes of {@code x}
     * ({@code trace(x, offset=offset, dtype=dtype)}): shape {@code x.shape[:-2]}, 0 where the diagonal is empty. The
     * result type is the standard's (that of {@code sum}): {@code dtype} when given, else {@code x}'s, with signed
     * integers widened to int64 and unsigned ones to uint64. Built as {@link #diagonal(CubedArray, long)} then a tree
     * sum over the diagonal.
     *
     * @throws InvalidArgumentException when {@code x} has fewer than two axes, is bool (the standard asks for a numeric
     *     array), or {@code dtype} is not one {@code x} may be summed in
     */
    public static CubedArray trace(CubedArray x, long offset, DType dtype) {
        return Diagonals.trace(x, offset, dtype);
    }

    /** The cross product along the last axis ({@code cross(x1, x2)}); see {@link #cross(CubedArray, CubedArray, int)}. */
    public static CubedArray cross(CubedArray x1, CubedArray x2) {
        return cross(x1, x2, -1);
    }

    /**
     * The cross product of the 3-element vectors along {@code axis} of {@code x1} and {@code x2}
     * ({@code cross(x1, x2, axis=axis)}): {@code axis} counts from the end ({@code [-N, -1]}, {@code N} the smaller
     * rank; a non-negative axis is accepted when both ranks are equal), that axis must have length 3 in both (it is
     * not broadcast) and the other axes broadcast. The result has the promoted type and the broadcast shape; each
     * component is {@code a_j·b_k − a_k·b_j} computed by the elementwise kernels (integers wrap as NumPy's do). The
     * vector axis is brought to one chunk (a rechunk where it has several), then one task per output chunk.
     *
     * @throws InvalidArgumentException for an axis out of range, a vector axis not of length 3, shapes that do not
     *     broadcast, bool inputs (the standard asks for numeric ones), or types without a common type
     */
    public static CubedArray cross(CubedArray x1, CubedArray x2, int axis) {
        return CrossProduct.cross(x1, x2, axis);
    }

    /**
     * {@code x} multiplied by itself {@code n} times ({@code matrix_power(x, n)}) for the square matrices of its last
     * two axes: {@code n = 0} gives the identity of {@code x}'s type and chunks for each matrix, {@code n = 1} gives
     * {@code x}, larger {@code n} repeated squaring with {@link #matmul} (about {@code 2·log2(n)} products, in NumPy's
     * order). Integer matrices are accepted for {@code n ≥ 0}, as NumPy does (products wrap). {@code n < 0} is the
     * power {@code -n} of {@link #inv}{@code (x)}, for floating-point matrices (a singular one fails the computation).
     *
     * @throws InvalidArgumentException when {@code x} is not a (stack of) square matrices, is bool, or is an integer
     *     matrix with {@code n < 0} (NumPy refuses to invert integer matrices)
     */
    public static CubedArray matrixPower(CubedArray x, long n) {
        return Products.matrixPower(x, n);
    }

    /**
     * The Cholesky factor of each Hermitian positive-definite matrix ({@code cholesky(x, upper)}): lower-triangular L
     * with {@code x = L·Lᴴ} from the lower triangle, or upper-triangular U with {@code x = Uᴴ·U} from the upper when
     * {@code upper}. A matrix that is not positive definite fails the computation, naming it (NumPy raises
     * LinAlgError).
     */
    public static CubedArray cholesky(CubedArray x, boolean upper) {
        return MatrixFactorizations.cholesky(x, upper);
    }

    /** {@link #cholesky(CubedArray, boolean)} with the lower factor ({@code upper=False}). */
    public static CubedArray cholesky(CubedArray x) {
        return cholesky(x, false);
    }

    /** The determinant of each square matrix ({@code det}), shape the batch axes; 0 for a singular matrix. */
    public static CubedArray det(CubedArray x) {
        return MatrixFactorizations.det(x);
    }

    /**
     * The sign and the natural log of the absolute value of each determinant ({@code slogdet}), as the list {sign,
     * logabsdet}: sign is ±1 (for complex {@code det/|det|}) in x's type, logabsdet real; a singular matrix gives sign 0
     * and logabsdet −∞. One operation computes both.
     */
    public static List<CubedArray> slogdet(CubedArray x) {
        return MatrixFactorizations.slogdet(x);
    }

    /** The inverse of each square matrix ({@code inv}); a singular matrix fails the computation, naming it. */
    public static CubedArray inv(CubedArray x) {
        return MatrixFactorizations.inv(x);
    }

    /**
     * X with {@code x1·X = x2} for each square matrix of {@code x1} ({@code solve}): {@code x2} of shape {@code (M,)}
     * is one right-hand side for every matrix (result {@code (..., M)}); otherwise {@code x2} is {@code (..., M, K)}
     * with batch axes broadcast against x1's (result {@code (..., M, K)}), as NumPy 2. Types promote (integers to
     * float64). A singular matrix fails the computation, naming it.
     */
    public static CubedArray solve(CubedArray x1, CubedArray x2) {
        return MatrixFactorizations.solve(x1, x2);
    }

    /**
     * The eigenvalues (ascending, real) and eigenvectors (columns, orthonormal) of each Hermitian or real symmetric
     * matrix, read from its lower triangle ({@code eigh}), as the list {eigenvalues, eigenvectors}; eigenvectors are
     * unique only up to sign (real) or phase (complex). One operation computes both (the eigenvalues are then squeezed
     * from a trailing axis of length 1).
     */
    public static List<CubedArray> eigh(CubedArray x) {
        return MatrixFactorizations.eigh(x);
    }

    /** The eigenvalues of each Hermitian or real symmetric matrix, ascending ({@code eigvalsh}). */
    public static CubedArray eigvalsh(CubedArray x) {
        return MatrixFactorizations.eigvalsh(x);
    }

    /**
     * The QR factorization of each matrix ({@code qr(x, mode)}), as the list {Q, R}: {@code mode} "reduced" gives Q
     * {@code (..., M, K)} with orthonormal columns and R {@code (..., K, N)} upper triangular, {@code K = min(M, N)};
     * "complete" gives Q {@code (..., M, M)} and R {@code (..., M, N)}. A tall 2-d matrix chunked along its rows takes
     * TSQR (reduced mode): the rows are never gathered in one task.
     */
    public static List<CubedArray> qr(CubedArray x, String mode) {
        return MatrixFactorizations.qr(x, mode);
    }

    /** {@link #qr(CubedArray, String)} in mode "reduced". */
    public static List<CubedArray> qr(CubedArray x) {
        return qr(x, "reduced");
    }

    /**
     * The singular value decomposition of each matrix ({@code svd(x, full_matrices)}), as the list {U, S, Vh} with
     * {@code x = U·diag(S)·Vh}, S descending and real: U {@code (..., M, K)} and Vh {@code (..., K, N)}, or {@code (...,
     * M, M)} and {@code (..., N, N)} when {@code fullMatrices}. Singular vectors are unique only up to sign or phase.
     * A tall 2-d matrix chunked along its rows ({@code fullMatrices} false) takes TSQR and factors only its small R.
     */
    public static List<CubedArray> svd(CubedArray x, boolean fullMatrices) {
        return MatrixFactorizations.svd(x, fullMatrices);
    }

    /** {@link #svd(CubedArray, boolean)} with {@code full_matrices=True}, the standard's default. */
    public static List<CubedArray> svd(CubedArray x) {
        return svd(x, true);
    }

    /** The singular values of each matrix, descending and real ({@code svdvals}); TSQR for tall row-chunked matrices. */
    public static CubedArray svdvals(CubedArray x) {
        return MatrixFactorizations.svdvals(x);
    }

    /**
     * The rank of each matrix ({@code matrix_rank(x, rtol)}): the number of singular values above {@code rtol} times
     * the largest, int64; {@code rtol} NaN gives the standard's default {@code max(M, N)·eps} of x's precision.
     */
    public static CubedArray matrixRank(CubedArray x, double rtol) {
        return MatrixFactorizations.matrixRank(x, rtol);
    }

    /** {@link #matrixRank(CubedArray, double)} with the default tolerance. */
    public static CubedArray matrixRank(CubedArray x) {
        return matrixRank(x, Double.NaN);
    }

    /**
     * The Moore–Penrose pseudo-inverse of each matrix ({@code pinv(x, rtol)}), {@code (..., N, M)}: singular values at
     * or below {@code rtol} times the largest count as zero; {@code rtol} NaN gives {@code max(M, N)·eps}.
     */
    public static CubedArray pinv(CubedArray x, double rtol) {
        return MatrixFactorizations.pinv(x, rtol);
    }

    /** {@link #pinv(CubedArray, double)} with the default tolerance. */
    public static CubedArray pinv(CubedArray x) {
        return pinv(x, Double.NaN);
    }

    /**
     * The matrix norm of each matrix ({@code matrix_norm(x, keepdims, ord)}), real: {@code "fro"} (Frobenius),
     * {@code "nuc"} (sum of singular values), {@code "1"}/{@code "-1"} (largest/smallest column sum of |x|),
     * {@code "inf"}/{@code "-inf"} (largest/smallest row sum of |x|), {@code "2"}/{@code "-2"} (largest/smallest
     * singular value). With {@code keepdims} the last two axes stay with length 1. Fro and the sums are reductions
     * over any chunking; the singular-value norms need {@link #svdvals}.
     */
    public static CubedArray matrixNorm(CubedArray x, boolean keepdims, String ord) {
        return Norms.matrixNorm(x, keepdims, ord);
    }

    /** {@link #matrixNorm(CubedArray, boolean, String)} with the standard's defaults: Frobenius, no keepdims. */
    public static CubedArray matrixNorm(CubedArray x) {
        return matrixNorm(x, false, "fro");
    }
}
