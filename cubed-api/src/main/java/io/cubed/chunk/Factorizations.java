package io.cubed.chunk;

import dev.ludovic.netlib.lapack.LAPACK;
import io.cubed.dtype.DType;
import io.cubed.error.InvalidArgumentException;
import java.util.Arrays;

/**
 * Matrix factorizations on a chunk holding a stack of matrices (its last two axes; the others are batch axes), one
 * matrix at a time, each computed in double precision and rounded once to the result type: real matrices through
 * LAPACK ({@link RealFactor}), complex ones through this package's own kernels ({@link ComplexFactor}). Inputs of an
 * integer type are read as float64. A matrix that is singular (inv, solve) or not positive definite (cholesky) fails
 * the task with a message naming the operation, the array and the matrix's batch index, as NumPy raises
 * {@code LinAlgError}.
 */
public final class Factorizations {
    private final RealFactor real;

    private Factorizations(RealFactor real) {
        this.real = real;
    }

    private static final Factorizations DEFAULT = new Factorizations(RealFactor.DEFAULT);

    /** The kernels with LAPACK's default implementation (native when {@code liblapack.so.3} loads). */
    public static Factorizations get() {
        return DEFAULT;
    }

    /** The kernels with real matrices on {@code lapack} (tests run both the native and the Java implementation). */
    public static Factorizations with(LAPACK lapack) {
        return new Factorizations(new RealFactor(lapack));
    }

    /** The LAPACK implementation real matrices use, e.g. {@code JNILAPACK} or {@code F2jLAPACK}. */
    public static String lapackImplementation() {
        return RealFactor.DEFAULT.implementation();
    }

    /** Where a failure happened: the operation and array ({@code "inv of array-003"}) and the chunk's batch origin. */
    public record Where(String what, long[] batchOrigin) implements java.io.Serializable {
        String matrix(Chunk x, int b) {
            int nb = x.ndim() - 2;
            long[] idx = new long[nb];
            int rest = b;
            for (int a = nb - 1; a >= 0; a--) {
                idx[a] = (batchOrigin.length > a ? batchOrigin[a] : 0) + rest % x.shape(a);
                rest /= x.shape(a);
            }
            return what + ": the matrix at batch index " + Arrays.toString(idx);
        }
    }

    private static int batch(Chunk x) {
        int b = 1;
        for (int a = 0; a < x.ndim() - 2; a++) {
            b *= x.shape(a);
        }
        return b;
    }

    private static int[] batchShape(Chunk x, int... tail) {
        int nb = x.ndim() - 2;
        int[] s = Arrays.copyOf(x.shape(), nb + tail.length);
        System.arraycopy(tail, 0, s, nb, tail.length);
        return s;
    }

    /** Matrix {@code b} of {@code x} ({@code m×n} each) as {re, im}; im is null for real types. */
    static double[][] read(Chunk x, int b, int m, int n) {
        int size = m * n;
        int off = b * size;
        double[] re = new double[size];
        double[] im = x.dtype().isComplex() ? new double[size] : null;
        switch (x.dtype()) {
            case FLOAT64 -> System.arraycopy(x.doubles(), off, re, 0, size);
            case FLOAT32 -> {
                float[] f = x.floats();
                for (int i = 0; i < size; i++) {
                    re[i] = f[off + i];
                }
            }
            case COMPLEX128 -> {
                double[] d = x.doubles();
                for (int i = 0; i < size; i++) {
                    re[i] = d[2 * (off + i)];
                    im[i] = d[2 * (off + i) + 1];
                }
            }
            case COMPLEX64 -> {
                float[] f = x.floats();
                for (int i = 0; i < size; i++) {
                    re[i] = f[2 * (off + i)];
                    im[i] = f[2 * (off + i) + 1];
                }
            }
            default -> {
                for (int i = 0; i < size; i++) {
                    re[i] = x.getDouble(off + i);
                }
            }
        }
        return new double[][] {re, im};
    }

    /** Writes {@code re} (and {@code im}, or zeros when null) at element {@code off} of {@code out}, rounding once. */
    static void write(Chunk out, int off, double[] re, double[] im) {
        int size = re.length;
        switch (out.dtype()) {
            case FLOAT64 -> System.arraycopy(re, 0, out.doubles(), off, size);
            case FLOAT32 -> {
                float[] f = out.floats();
                for (int i = 0; i < size; i++) {
                    f[off + i] = (float) re[i];
                }
            }
            case COMPLEX128 -> {
                double[] d = out.doubles();
                for (int i = 0; i < size; i++) {
                    d[2 * (off + i)] = re[i];
                    d[2 * (off + i) + 1] = im == null ? 0 : im[i];
                }
            }
            case COMPLEX64 -> {
                float[] f = out.floats();
                for (int i = 0; i < size; i++) {
                    f[2 * (off + i)] = (float) re[i];
                    f[2 * (off + i) + 1] = im == null ? 0 : (float) im[i];
                }
            }
            case INT64 -> {
                long[] l = out.longs();
                for (int i = 0; i < size; i++) {
                    l[off + i] = (long) re[i];
                }
            }
            default -> throw new InvalidArgumentException("factorizations write float or complex, not " + out.dtype());
        }
    }

    private static double[][] complex(double[][] a) {
        return a[1] == null ? new double[][] {a[0], new double[a[0].length]} : a;
    }

    private static int rows(Chunk x) {
        return x.shape(x.ndim() - 2);
    }

    private static int cols(Chunk x) {
        return x.shape(x.ndim() - 1);
    }

    private static void square(Chunk x, String what) {
        if (x.ndim() < 2 || rows(x) != cols(x)) {
            throw new InvalidArgumentException(
                    what + ": needs square matrices, got a chunk of shape " + Arrays.toString(x.shape()));
        }
    }

    /** {Q, R} of every matrix ({@code qr}, mode reduced or complete), of type {@code t}. */
    public Chunk[] qr(Chunk x, boolean complete, DType t) {
        int m = rows(x);
        int n = cols(x);
        int k = Math.min(m, n);
        int qc = complete ? m : k;
        int rr = complete ? m : k;
        int nb = batch(x);
        Chunk q = Chunk.allocate(t, batchShape(x, m, qc));
        Chunk r = Chunk.allocate(t, batchShape(x, rr, n));
        for (int b = 0; b < nb; b++) {
            double[][] a = read(x, b, m, n);
            if (!t.isComplex()) {
                double[][] f = real.qr(a[0], m, n, complete);
                write(q, b * m * qc, f[0], null);
                write(r, b * rr * n, f[1], null);
            } else {
                double[][][] f = ComplexFactor.qr(complex(a), m, n, complete);
                write(q, b * m * qc, f[0][0], f[0][1]);
                write(r, b * rr * n, f[1][0], f[1][1]);
            }
        }
        return new Chunk[] {q, r};
    }

    /**
     * The singular values ({S}, descending, of the real type {@code st}) or {U, S, Vh} of every matrix ({@code svd},
     * reduced or full), U and Vh of type {@code t}.
     */
    public Chunk[] svd(Chunk x, boolean vectors, boolean full, DType t, DType st, Where where) {
        int m = rows(x);
        int n = cols(x);
        int k = Math.min(m, n);
        int uc = full ? m : k;
        int vr = full ? n : k;
        int nb = batch(x);
        Chunk s = Chunk.allocate(st, batchShape(x, k));
        Chunk u = vectors ? Chunk.allocate(t, batchShape(x, m, uc)) : null;
        Chunk vh = vectors ? Chunk.allocate(t, batchShape(x, vr, n)) : null;
        for (int b = 0; b < nb; b++) {
            double[][] a = read(x, b, m, n);
            double[][] f = !t.isComplex()
                    ? real.svd(a[0], m, n, vectors, full)
                    : ComplexFactor.svd(complex(a), m, n, vectors, full);
            if (f == null) {
                throw new InvalidArgumentException(where.matrix(x, b) + ": SVD did not converge");
            }
            if (!vectors) {
                write(s, b * k, f[0], null);
            } else if (!t.isComplex()) {
                write(u, b * m * uc, f[0], null);
                write(s, b * k, f[1], null);
                write(vh, b * vr * n, f[2], null);
            } else {
                write(u, b * m * uc, f[0], f[1]);
                write(s, b * k, f[2], null);
                write(vh, b * vr * n, f[3], f[4]);
            }
        }
        return vectors ? new Chunk[] {u, s, vh} : new Chunk[] {s};
    }

    /**
     * The eigenvalues ({w}, ascending, of the real type {@code wt}) or {w, V} of every Hermitian (real symmetric)
     * matrix, read from its lower triangle ({@code eigh}, {@code eigvalsh}).
     */
    public Chunk[] eigh(Chunk x, boolean vectors, DType t, DType wt, Where where) {
        square(x, where.what());
        int n = rows(x);
        int nb = batch(x);
        Chunk w = Chunk.allocate(wt, batchShape(x, n));
        Chunk v = vectors ? Chunk.allocate(t, batchShape(x, n, n)) : null;
        for (int b = 0; b < nb; b++) {
            double[][] a = read(x, b, n, n);
            double[][] f = !t.isComplex() ? real.eigh(a[0], n, vectors) : ComplexFactor.eigh(complex(a), n, vectors);
            if (f == null) {
                throw new InvalidArgumentException(where.matrix(x, b) + ": the eigenvalue iteration did not converge");
            }
            write(w, b * n, f[0], null);
            if (vectors) {
                write(v, b * n * n, f[1], t.isComplex() ? f[2] : null);
            }
        }
        return vectors ? new Chunk[] {w, v} : new Chunk[] {w};
    }

    /** The Cholesky factor of every matrix: L from the lower triangle, or U from the upper when {@code upper}. */
    public Chunk cholesky(Chunk x, boolean upper, DType t, Where where) {
        square(x, where.what());
        int n = rows(x);
        int nb = batch(x);
        Chunk out = Chunk.allocate(t, x.shape());
        for (int b = 0; b < nb; b++) {
            double[][] a = read(x, b, n, n);
            if (!t.isComplex()) {
                double[] f = real.cholesky(a[0], n, upper);
                if (f == null) {
                    throw notPositiveDefinite(x, b, where);
                }
                write(out, b * n * n, f, null);
            } else {
                double[][] f = ComplexFactor.cholesky(complex(a), n, upper);
                if (f == null) {
                    throw notPositiveDefinite(x, b, where);
                }
                write(out, b * n * n, f[0], f[1]);
            }
        }
        return out;
    }

    private static InvalidArgumentException notPositiveDefinite(Chunk x, int b, Where where) {
        return new InvalidArgumentException(
                where.matrix(x, b) + " is not positive definite (NumPy raises LinAlgError)");
    }

    private static InvalidArgumentException singular(Chunk x, int b, Where where) {
        return new InvalidArgumentException(where.matrix(x, b) + " is singular (NumPy raises LinAlgError)");
    }

    /** The determinant of every matrix (0 for a singular one), shape the batch axes. */
    public Chunk det(Chunk x, DType t, Where where) {
        square(x, where.what());
        int n = rows(x);
        int nb = batch(x);
        Chunk out = Chunk.allocate(t, batchShape(x));
        for (int b = 0; b < nb; b++) {
            double[][] a = read(x, b, n, n);
            if (!t.isComplex()) {
                write(out, b, new double[] {real.det(a[0], n)}, null);
            } else {
                double[] d = ComplexFactor.det(complex(a), n);
                write(out, b, new double[] {d[0]}, new double[] {d[1]});
            }
        }
        return out;
    }

    /** {sign, log|det|} of every matrix: sign of type {@code t}, log of the real type {@code lt}. */
    public Chunk[] slogdet(Chunk x, DType t, DType lt, Where where) {
        square(x, where.what());
        int n = rows(x);
        int nb = batch(x);
        Chunk sign = Chunk.allocate(t, batchShape(x));
        Chunk log = Chunk.allocate(lt, batchShape(x));
        for (int b = 0; b < nb; b++) {
            double[][] a = read(x, b, n, n);
            if (!t.isComplex()) {
                double[] d = real.slogdet(a[0], n);
                write(sign, b, new double[] {d[0]}, null);
                write(log, b, new double[] {d[1]}, null);
            } else {
                double[] d = ComplexFactor.slogdet(complex(a), n);
                write(sign, b, new double[] {d[0]}, new double[] {d[1]});
                write(log, b, new double[] {d[2]}, null);
            }
        }
        return new Chunk[] {sign, log};
    }

    /** The inverse of every matrix; a singular one fails with its batch index. */
    public Chunk inv(Chunk x, DType t, Where where) {
        square(x, where.what());
        int n = rows(x);
        int nb = batch(x);
        Chunk out = Chunk.allocate(t, x.shape());
        for (int b = 0; b < nb; b++) {
            double[][] a = read(x, b, n, n);
            if (!t.isComplex()) {
                double[] f = real.inv(a[0], n);
                if (f == null) {
                    throw singular(x, b, where);
                }
                write(out, b * n * n, f, null);
            } else {
                double[][] f = ComplexFactor.inv(complex(a), n);
                if (f == null) {
                    throw singular(x, b, where);
                }
                write(out, b * n * n, f[0], f[1]);
            }
        }
        return out;
    }

    /**
     * X with {@code A·X = B} for every pair of matrices: {@code a} is {@code (..., n, n)} and {@code b} {@code (...,
     * n, k)} with the same batch shape; a singular A fails with its batch index.
     */
    public Chunk solve(Chunk a, Chunk b, DType t, Where where) {
        square(a, where.what());
        int n = rows(a);
        int k = cols(b);
        int nb = batch(a);
        if (b.ndim() != a.ndim() || batch(b) != nb || rows(b) != n) {
            throw new InvalidArgumentException(where.what() + ": chunks of shapes " + Arrays.toString(a.shape())
                    + " and " + Arrays.toString(b.shape()) + " do not pair up");
        }
        Chunk out = Chunk.allocate(t, b.shape());
        for (int i = 0; i < nb; i++) {
            double[][] ma = read(a, i, n, n);
            double[][] mb = read(b, i, n, k);
            if (!t.isComplex()) {
                double[] f = real.solve(ma[0], n, mb[0], k);
                if (f == null) {
                    throw singular(a, i, where);
                }
                write(out, i * n * k, f, null);
            } else {
                double[][] f = ComplexFactor.solve(complex(ma), n, complex(mb), k);
                if (f == null) {
                    throw singular(a, i, where);
                }
                write(out, i * n * k, f[0], f[1]);
            }
        }
        return out;
    }

    /** The relative cutoff of pinv and matrix_rank: {@code rtol}, or when NaN {@code max(m, n)·eps} of {@code t}. */
    public static double rtol(double rtol, int m, int n, DType t) {
        if (!Double.isNaN(rtol)) {
            return rtol;
        }
        double eps = t == DType.FLOAT32 || t == DType.COMPLEX64 ? Math.ulp(1.0f) : Math.ulp(1.0);
        return Math.max(m, n) * eps;
    }

    /**
     * The number of singular values above {@code rtol · largest} for every matrix ({@code matrix_rank}; NaN
     * {@code rtol} for the default of {@link #rtol}), int64.
     */
    public Chunk matrixRank(Chunk x, double rtol, DType t, Where where) {
        int m = rows(x);
        int n = cols(x);
        int k = Math.min(m, n);
        Chunk s = svd(x, false, false, t, DType.FLOAT64, where)[0];
        double tol = rtol(rtol, m, n, t);
        Chunk out = Chunk.allocate(DType.INT64, batchShape(x));
        double[] sv = s.doubles();
        for (int b = 0; b < batch(x); b++) {
            double cut = k == 0 ? 0 : sv[b * k] * tol;
            long r = 0;
            for (int j = 0; j < k; j++) {
                if (sv[b * k + j] > cut) {
                    r++;
                }
            }
            out.longs()[b] = r;
        }
        return out;
    }

    /**
     * The pseudo-inverse of every matrix ({@code pinv}): {@code V·diag(1/s)·Uᴴ} over the singular values above
     * {@code rtol · largest} ({@link #rtol}), {@code n×m} for an {@code m×n} matrix.
     */
    public Chunk pinv(Chunk x, double rtol, DType t, Where where) {
        int m = rows(x);
        int n = cols(x);
        int k = Math.min(m, n);
        int nb = batch(x);
        double tol = rtol(rtol, m, n, t);
        Chunk out = Chunk.allocate(t, batchShape(x, n, m));
        for (int b = 0; b < nb; b++) {
            double[][] a = read(x, b, m, n);
            double[][] f = !t.isComplex()
                    ? real.svd(a[0], m, n, true, false)
                    : ComplexFactor.svd(complex(a), m, n, true, false);
            if (f == null) {
                throw new InvalidArgumentException(where.matrix(x, b) + ": SVD did not converge");
            }
            boolean cx = t.isComplex();
            double[] ur = f[0];
            double[] ui = cx ? f[1] : null;
            double[] s = cx ? f[2] : f[1];
            double[] vr = cx ? f[3] : f[2];
            double[] vi = cx ? f[4] : null;
            double cut = k == 0 ? 0 : s[0] * tol;
            double[] pr = new double[n * m];
            double[] pi = cx ? new double[n * m] : null;
            for (int j = 0; j < k; j++) {
                if (!(s[j] > cut)) {
                    continue;
                }
                double inv = 1 / s[j];
                // pinv[i][c] += conj(Vh[j][i]) · conj(U[c][j]) / s_j
                for (int i = 0; i < n; i++) {
                    double ar = vr[j * n + i];
                    double ai = cx ? -vi[j * n + i] : 0;
                    for (int c = 0; c < m; c++) {
                        double br = ur[c * k + j];
                        double bi = cx ? -ui[c * k + j] : 0;
                        pr[i * m + c] += (ar * br - ai * bi) * inv;
                        if (cx) {
                            pi[i * m + c] += (ar * bi + ai * br) * inv;
                        }
                    }
                }
            }
            write(out, b * n * m, pr, pi);
        }
        return out;
    }
}
