package io.cubed.chunk;

import dev.ludovic.netlib.lapack.LAPACK;
import org.netlib.util.intW;

/**
 * Factorizations of one real matrix through LAPACK ({@code dev.ludovic.netlib}: the machine's {@code liblapack.so.3}
 * through JNI where there is one, else its Java translation), on row-major {@code double[]} matrices. Each method
 * copies its input into LAPACK's column-major order, so the input is never changed, and returns row-major results.
 * Methods that can fail on the data return {@code null} (singular, not positive definite) for the caller to name the
 * array.
 */
final class RealFactor {
    private final LAPACK lapack;

    RealFactor(LAPACK lapack) {
        this.lapack = lapack;
    }

    /** The LAPACK all methods of the process use by default. */
    static final RealFactor DEFAULT = new RealFactor(LAPACK.getInstance());

    /** The LAPACK implementation in use, e.g. {@code JNILAPACK} (native) or {@code F2jLAPACK} (Java). */
    String implementation() {
        return lapack.getClass().getSimpleName();
    }

    static double[] colMajor(double[] a, int m, int n) {
        double[] c = new double[m * n];
        for (int i = 0; i < m; i++) {
            for (int j = 0; j < n; j++) {
                c[i + j * m] = a[i * n + j];
            }
        }
        return c;
    }

    /** The {@code m×n} row-major matrix from column-major {@code c} with leading dimension {@code ld}. */
    static double[] rowMajor(double[] c, int ld, int m, int n) {
        double[] a = new double[m * n];
        for (int i = 0; i < m; i++) {
            for (int j = 0; j < n; j++) {
                a[i * n + j] = c[i + j * ld];
            }
        }
        return a;
    }

    private static void check(intW info, String routine) {
        if (info.val < 0) {
            throw new IllegalStateException(routine + ": argument " + (-info.val) + " is invalid");
        }
    }

    /** {Q, R}: {@code m×k} and {@code k×n} ({@code k = min(m, n)}), or {@code m×m} and {@code m×n} when complete. */
    double[][] qr(double[] a, int m, int n, boolean complete) {
        int k = Math.min(m, n);
        double[] c = colMajor(a, m, n);
        double[] tau = new double[Math.max(1, k)];
        intW info = new intW(0);
        double[] q1 = new double[1];
        lapack.dgeqrf(m, n, c, Math.max(1, m), tau, q1, -1, info);
        double[] work = new double[Math.max(1, (int) q1[0])];
        lapack.dgeqrf(m, n, c, Math.max(1, m), tau, work, work.length, info);
        check(info, "dgeqrf");
        int rows = complete ? m : k;
        double[] r = new double[rows * n];
        for (int i = 0; i < Math.min(rows, k); i++) {
            for (int j = i; j < n; j++) {
                r[i * n + j] = c[i + j * m];
            }
        }
        int qc = complete ? m : k;
        double[] q = new double[m * qc];
        System.arraycopy(c, 0, q, 0, m * k);
        if (m > 0 && qc > 0) {
            lapack.dorgqr(m, qc, k, q, m, tau, q1, -1, info);
            work = new double[Math.max(1, (int) q1[0])];
            lapack.dorgqr(m, qc, k, q, m, tau, work, work.length, info);
            check(info, "dorgqr");
        }
        return new double[][] {rowMajor(q, Math.max(1, m), m, qc), r};
    }

    /**
     * The singular values, descending, or {U, S, Vh} when {@code vectors}: U {@code m×k}, Vh {@code k×n}, or
     * {@code m×m} and {@code n×n} when {@code full}. Null when the iteration does not converge.
     */
    double[][] svd(double[] a, int m, int n, boolean vectors, boolean full) {
        int k = Math.min(m, n);
        double[] c = colMajor(a, m, n);
        double[] s = new double[Math.max(1, k)];
        String job = !vectors ? "N" : full ? "A" : "S";
        int uc = !vectors ? 1 : full ? m : k;
        int vr = !vectors ? 1 : full ? n : k;
        double[] u = new double[Math.max(1, vectors ? m * uc : 1)];
        double[] vt = new double[Math.max(1, vectors ? vr * n : 1)];
        int ldu = Math.max(1, vectors ? m : 1);
        int ldvt = Math.max(1, vr);
        int[] iwork = new int[Math.max(1, 8 * k)];
        intW info = new intW(0);
        double[] q1 = new double[1];
        if (k > 0) {
            lapack.dgesdd(job, m, n, c, Math.max(1, m), s, u, ldu, vt, ldvt, q1, -1, iwork, info);
            double[] work = new double[Math.max(1, (int) q1[0])];
            lapack.dgesdd(job, m, n, c, Math.max(1, m), s, u, ldu, vt, ldvt, work, work.length, iwork, info);
            check(info, "dgesdd");
            if (info.val > 0) {
                return null;
            }
        } else if (vectors) {
            // An empty matrix: the full factors are identities.
            for (int i = 0; i < Math.min(m, uc); i++) {
                u[i + i * ldu] = 1;
            }
            for (int i = 0; i < Math.min(n, vr); i++) {
                vt[i + i * ldvt] = 1;
            }
        }
        double[] sv = java.util.Arrays.copyOf(s, k);
        if (!vectors) {
            return new double[][] {sv};
        }
        return new double[][] {rowMajor(u, ldu, m, uc), sv, rowMajor(vt, ldvt, vr, n)};
    }

    /** {w} or {w, V}: eigenvalues ascending and eigenvectors (columns of V) of the symmetric matrix's lower triangle. */
    double[][] eigh(double[] a, int n, boolean vectors) {
        double[] c = colMajor(a, n, n);
        double[] w = new double[Math.max(1, n)];
        if (n == 0) {
            return vectors ? new double[][] {new double[0], new double[0]} : new double[][] {new double[0]};
        }
        String job = vectors ? "V" : "N";
        intW info = new intW(0);
        double[] q1 = new double[1];
        int[] qi = new int[1];
        lapack.dsyevd(job, "L", n, c, n, w, q1, -1, qi, -1, info);
        double[] work = new double[Math.max(1, (int) q1[0])];
        int[] iwork = new int[Math.max(1, qi[0])];
        lapack.dsyevd(job, "L", n, c, n, w, work, work.length, iwork, iwork.length, info);
        check(info, "dsyevd");
        if (info.val > 0) {
            return null;
        }
        return vectors ? new double[][] {w, rowMajor(c, n, n, n)} : new double[][] {w};
    }

    /** L (lower, {@code A = L·Lᵀ} from A's lower triangle) or U ({@code A = Uᵀ·U} from the upper); null if not PD. */
    double[] cholesky(double[] a, int n, boolean upper) {
        double[] c = colMajor(a, n, n);
        intW info = new intW(0);
        if (n > 0) {
            lapack.dpotrf(upper ? "U" : "L", n, c, n, info);
            check(info, "dpotrf");
            if (info.val > 0) {
                return null;
            }
        }
        double[] r = rowMajor(c, n, n, n);
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                if (upper ? j < i : j > i) {
                    r[i * n + j] = 0;
                }
            }
        }
        return r;
    }

    /**
     * The LU factors of {@code a} with partial pivoting, column-major in place of a copy: {@code {lu, pivots}} with
     * {@code pivots[n]} the number of row exchanges and {@code pivots[n + 1]} 1 when a pivot is exactly zero.
     */
    private Object[] lu(double[] a, int n) {
        double[] c = colMajor(a, n, n);
        int[] ipiv = new int[n + 2];
        intW info = new intW(0);
        if (n > 0) {
            lapack.dgetrf(n, n, c, n, ipiv, info);
            check(info, "dgetrf");
        }
        int swaps = 0;
        for (int i = 0; i < n; i++) {
            if (ipiv[i] != i + 1) {
                swaps++;
            }
        }
        ipiv[n] = swaps;
        ipiv[n + 1] = info.val > 0 ? 1 : 0;
        return new Object[] {c, ipiv};
    }

    /** {sign, log|det|}: sign ±1 (0 for a singular matrix, whose log|det| is −∞). */
    double[] slogdet(double[] a, int n) {
        Object[] f = lu(a, n);
        double[] c = (double[]) f[0];
        int[] p = (int[]) f[1];
        double sign = p[n] % 2 == 0 ? 1 : -1;
        double log = 0;
        for (int i = 0; i < n; i++) {
            double d = c[i + i * n];
            if (d == 0) {
                return new double[] {0, Double.NEGATIVE_INFINITY};
            }
            sign = d < 0 ? -sign : sign;
            log += Math.log(Math.abs(d));
        }
        return new double[] {sign, log};
    }

    /** The determinant: the product of U's diagonal with the sign of the row exchanges (0 when singular). */
    double det(double[] a, int n) {
        Object[] f = lu(a, n);
        double[] c = (double[]) f[0];
        int[] p = (int[]) f[1];
        double d = p[n] % 2 == 0 ? 1 : -1;
        for (int i = 0; i < n; i++) {
            d *= c[i + i * n];
        }
        return d;
    }

    /** The inverse, or null when a pivot is exactly zero (singular). */
    double[] inv(double[] a, int n) {
        Object[] f = lu(a, n);
        double[] c = (double[]) f[0];
        int[] p = (int[]) f[1];
        if (p[n + 1] != 0) {
            return null;
        }
        if (n == 0) {
            return new double[0];
        }
        intW info = new intW(0);
        double[] q1 = new double[1];
        lapack.dgetri(n, c, n, p, q1, -1, info);
        double[] work = new double[Math.max(1, (int) q1[0])];
        lapack.dgetri(n, c, n, p, work, work.length, info);
        check(info, "dgetri");
        return info.val > 0 ? null : rowMajor(c, n, n, n);
    }

    /** X with {@code A·X = B} (B {@code n×k}, row-major), or null when A is singular. */
    double[] solve(double[] a, int n, double[] b, int k) {
        double[] c = colMajor(a, n, n);
        double[] bc = colMajor(b, n, k);
        int[] ipiv = new int[Math.max(1, n)];
        intW info = new intW(0);
        if (n > 0 && k > 0) {
            lapack.dgesv(n, k, c, n, ipiv, bc, n, info);
            check(info, "dgesv");
            if (info.val > 0) {
                return null;
            }
        } else if (n > 0) {
            lapack.dgetrf(n, n, c, n, ipiv, info);
            if (info.val > 0) {
                return null;
            }
        }
        return rowMajor(bc, Math.max(1, n), n, k);
    }
}
