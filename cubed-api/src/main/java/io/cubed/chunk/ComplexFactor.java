package io.cubed.chunk;

import java.util.Arrays;

/**
 * Factorizations of one complex matrix, written here (the netlib interface has no complex LAPACK routines), on planar
 * row-major parts {@code re[i·n + j]}, {@code im[i·n + j]} in double precision: Householder QR, one-sided (Hestenes)
 * Jacobi SVD, cyclic Jacobi for Hermitian eigenproblems, LU with partial pivoting, Cholesky. A matrix is a pair
 * {@code double[][] {re, im}}; inputs are never changed. Methods that can fail on the data return {@code null}.
 */
final class ComplexFactor {
    private static final double EPS = 0x1p-52;
    private static final int MAX_SWEEPS = 100;

    private ComplexFactor() {}

    /** The conjugate transpose of the {@code m×n} matrix {@code a}. */
    static double[][] adjoint(double[][] a, int m, int n) {
        double[][] t = new double[2][m * n];
        for (int i = 0; i < m; i++) {
            for (int j = 0; j < n; j++) {
                t[0][j * m + i] = a[0][i * n + j];
                t[1][j * m + i] = -a[1][i * n + j];
            }
        }
        return t;
    }

    /**
     * {Q, R} with {@code A = Q·R}, Q with orthonormal columns ({@code m×k}, or {@code m×m} when complete) and R upper
     * triangular ({@code k×n} or {@code m×n}), by Householder reflections {@code H = I − 2·v·vᴴ/(vᴴ·v)}.
     */
    static double[][][] qr(double[][] a, int m, int n, boolean complete) {
        int k = Math.min(m, n);
        double[] ar = a[0].clone();
        double[] ai = a[1].clone();
        // The reflectors' vectors (real and imaginary parts) and squared norms; null where a column was already zero.
        double[][] vs = new double[2 * k][];
        double[] norms = new double[k];
        for (int j = 0; j < k; j++) {
            double norm2 = 0;
            for (int i = j; i < m; i++) {
                norm2 += ar[i * n + j] * ar[i * n + j] + ai[i * n + j] * ai[i * n + j];
            }
            double norm = Math.sqrt(norm2);
            if (norm == 0) {
                continue;
            }
            double x0r = ar[j * n + j];
            double x0i = ai[j * n + j];
            double abs0 = Math.hypot(x0r, x0i);
            double pr = abs0 == 0 ? 1 : x0r / abs0;
            double pi = abs0 == 0 ? 0 : x0i / abs0;
            // v = x + phase·|x|·e1, so that H·x = −phase·|x|·e1.
            double[] vr = new double[m - j];
            double[] vi = new double[m - j];
            for (int i = j; i < m; i++) {
                vr[i - j] = ar[i * n + j];
                vi[i - j] = ai[i * n + j];
            }
            vr[0] += pr * norm;
            vi[0] += pi * norm;
            double vn2 = 0;
            for (int i = 0; i < vr.length; i++) {
                vn2 += vr[i] * vr[i] + vi[i] * vi[i];
            }
            reflect(vr, vi, vn2, ar, ai, n, j, j, n);
            for (int i = j + 1; i < m; i++) {
                ar[i * n + j] = 0;
                ai[i * n + j] = 0;
            }
            vs[2 * j] = vr;
            vs[2 * j + 1] = vi;
            norms[j] = vn2;
        }
        int rows = complete ? m : k;
        double[][] r = new double[2][rows * n];
        for (int i = 0; i < Math.min(rows, k); i++) {
            for (int j = i; j < n; j++) {
                r[0][i * n + j] = ar[i * n + j];
                r[1][i * n + j] = ai[i * n + j];
            }
        }
        int qc = complete ? m : k;
        double[] qr = new double[m * qc];
        double[] qi = new double[m * qc];
        for (int i = 0; i < qc; i++) {
            qr[i * qc + i] = 1;
        }
        for (int j = k - 1; j >= 0; j--) {
            if (vs[2 * j] == null) {
                continue;
            }
            reflect(vs[2 * j], vs[2 * j + 1], norms[j], qr, qi, qc, j, 0, qc);
        }
        return new double[][][] {{qr, qi}, r};
    }

    /**
     * Applies {@code H = I − 2·v·vᴴ/vn2} (v of length {@code rows − row0}) to rows {@code row0…} and columns {@code
     * c0…c1−1} of the row-major matrix (row length {@code n}).
     */
    private static void reflect(
            double[] vr, double[] vi, double vn2, double[] xr, double[] xi, int n, int row0, int c0, int c1) {
        double f = 2 / vn2;
        for (int c = c0; c < c1; c++) {
            double wr = 0;
            double wi = 0;
            for (int i = 0; i < vr.length; i++) {
                double yr = xr[(row0 + i) * n + c];
                double yi = xi[(row0 + i) * n + c];
                // conj(v)·y
                wr += vr[i] * yr + vi[i] * yi;
                wi += vr[i] * yi - vi[i] * yr;
            }
            wr *= f;
            wi *= f;
            for (int i = 0; i < vr.length; i++) {
                xr[(row0 + i) * n + c] -= vr[i] * wr - vi[i] * wi;
                xi[(row0 + i) * n + c] -= vr[i] * wi + vi[i] * wr;
            }
        }
    }

    /**
     * The unitary 2×2 {@code [[c, s], [−s·conj(e), c·conj(e)]]} that diagonalizes the Hermitian {@code [[a, z],
     * [conj(z), b]]} ({@code e = z/|z|}), as {c, s, Re e, Im e}.
     */
    private static double[] rotation(double a, double b, double zr, double zi) {
        double r = Math.hypot(zr, zi);
        double theta = (b - a) / (2 * r);
        double t = (theta >= 0 ? 1 : -1) / (Math.abs(theta) + Math.sqrt(1 + theta * theta));
        if (Double.isInfinite(theta)) {
            t = 1 / (2 * theta);
        }
        double c = 1 / Math.sqrt(1 + t * t);
        return new double[] {c, t * c, zr / r, zi / r};
    }

    /** Columns p and q of the row-major {@code rows×n} matrix times the rotation {@code g} of {@link #rotation}. */
    private static void rotateColumns(double[] xr, double[] xi, int rows, int n, int p, int q, double[] g) {
        double c = g[0];
        double s = g[1];
        double er = g[2];
        double ei = -g[3]; // conj(e)
        for (int i = 0; i < rows; i++) {
            double pr = xr[i * n + p];
            double pi = xi[i * n + p];
            double qr = xr[i * n + q];
            double qi = xi[i * n + q];
            double tr = qr * er - qi * ei; // conj(e)·x_q
            double ti = qr * ei + qi * er;
            xr[i * n + p] = c * pr - s * tr;
            xi[i * n + p] = c * pi - s * ti;
            xr[i * n + q] = s * pr + c * tr;
            xi[i * n + q] = s * pi + c * ti;
        }
    }

    /**
     * {w} or {w, V}: the eigenvalues of the Hermitian matrix given by its lower triangle, ascending, and the
     * eigenvectors (columns of V), by cyclic Jacobi rotations until the off-diagonal part is below rounding; null when
     * that does not happen within {@value #MAX_SWEEPS} sweeps.
     */
    static double[][] eigh(double[][] a, int n, boolean vectors) {
        double[] hr = new double[n * n];
        double[] hi = new double[n * n];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j <= i; j++) {
                hr[i * n + j] = a[0][i * n + j];
                hi[i * n + j] = j == i ? 0 : a[1][i * n + j];
                hr[j * n + i] = hr[i * n + j];
                hi[j * n + i] = -hi[i * n + j];
            }
        }
        double[] vr = new double[n * n];
        double[] vi = new double[n * n];
        for (int i = 0; i < n; i++) {
            vr[i * n + i] = 1;
        }
        double total = 0;
        for (int i = 0; i < n * n; i++) {
            total += hr[i] * hr[i] + hi[i] * hi[i];
        }
        double floor = 1e-3 * EPS * Math.sqrt(total);
        boolean converged = n <= 1;
        for (int sweep = 0; sweep < MAX_SWEEPS && !converged; sweep++) {
            boolean rotated = false;
            for (int p = 0; p < n; p++) {
                for (int q = p + 1; q < n; q++) {
                    double zr = hr[p * n + q];
                    double zi = hi[p * n + q];
                    double z = Math.hypot(zr, zi);
                    // Rotate while the element is above rounding of its diagonal pair (or of the whole matrix).
                    if (z == 0 || z <= Math.max(EPS * Math.sqrt(Math.abs(hr[p * n + p] * hr[q * n + q])), floor)) {
                        continue;
                    }
                    rotated = true;
                    double[] g = rotation(hr[p * n + p], hr[q * n + q], zr, zi);
                    rotateColumns(hr, hi, n, n, p, q, g);
                    // Rows: the conjugate rotation from the left.
                    double c = g[0];
                    double s = g[1];
                    double er = g[2];
                    double ei = g[3];
                    for (int k = 0; k < n; k++) {
                        double pr = hr[p * n + k];
                        double pi = hi[p * n + k];
                        double qr = hr[q * n + k];
                        double qi = hi[q * n + k];
                        double tr = qr * er - qi * ei; // e·x_q
                        double ti = qr * ei + qi * er;
                        hr[p * n + k] = c * pr - s * tr;
                        hi[p * n + k] = c * pi - s * ti;
                        hr[q * n + k] = s * pr + c * tr;
                        hi[q * n + k] = s * pi + c * ti;
                    }
                    hr[p * n + q] = 0;
                    hi[p * n + q] = 0;
                    hr[q * n + p] = 0;
                    hi[q * n + p] = 0;
                    hi[p * n + p] = 0;
                    hi[q * n + q] = 0;
                    if (vectors) {
                        rotateColumns(vr, vi, n, n, p, q, g);
                    }
                }
            }
            converged = !rotated;
        }
        if (!converged) {
            return null;
        }
        Integer[] order = new Integer[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        double[] d = new double[n];
        for (int i = 0; i < n; i++) {
            d[i] = hr[i * n + i];
        }
        Arrays.sort(order, (x, y) -> Double.compare(d[x], d[y]));
        double[] w = new double[n];
        double[][] v = new double[2][n * n];
        for (int j = 0; j < n; j++) {
            w[j] = d[order[j]];
            for (int i = 0; i < n; i++) {
                v[0][i * n + j] = vr[i * n + order[j]];
                v[1][i * n + j] = vi[i * n + order[j]];
            }
        }
        return vectors ? new double[][] {w, v[0], v[1]} : new double[][] {w};
    }

    /**
     * The singular values descending ({S}), or {Ur, Ui, S, Vhr, Vhi} with {@code A = U·diag(S)·Vh} ({@code m×k},
     * {@code k×n}, or {@code m×m}, {@code n×n} when {@code full}), by one-sided Jacobi: column pairs of A are rotated
     * until orthogonal; null when that takes over {@value #MAX_SWEEPS} sweeps.
     */
    static double[][] svd(double[][] a, int m, int n, boolean vectors, boolean full) {
        if (m < n) {
            // A = (Aᴴ)ᴴ: factor the tall adjoint and swap the roles of U and V.
            double[][] t = svd(adjoint(a, m, n), n, m, vectors, full);
            if (t == null || !vectors) {
                return t;
            }
            int uc = full ? n : m; // columns of the adjoint's U (n rows); its Vh is m×m either way
            double[][] u = adjoint(new double[][] {t[3], t[4]}, m, m);
            double[][] vh = adjoint(new double[][] {t[0], t[1]}, n, uc);
            return new double[][] {u[0], u[1], t[2], vh[0], vh[1]};
        }
        double[] wr = a[0].clone();
        double[] wi = a[1].clone();
        double[] vr = new double[n * n];
        double[] vi = new double[n * n];
        for (int i = 0; i < n; i++) {
            vr[i * n + i] = 1;
        }
        boolean converged = n <= 1;
        for (int sweep = 0; sweep < MAX_SWEEPS && !converged; sweep++) {
            boolean rotated = false;
            for (int p = 0; p < n; p++) {
                for (int q = p + 1; q < n; q++) {
                    double al = 0;
                    double be = 0;
                    double gr = 0;
                    double gi = 0;
                    for (int i = 0; i < m; i++) {
                        double pr = wr[i * n + p];
                        double pi = wi[i * n + p];
                        double qr = wr[i * n + q];
                        double qi = wi[i * n + q];
                        al += pr * pr + pi * pi;
                        be += qr * qr + qi * qi;
                        gr += pr * qr + pi * qi;
                        gi += pr * qi - pi * qr;
                    }
                    double gabs = Math.hypot(gr, gi);
                    if (gabs == 0 || gabs <= EPS * Math.sqrt(al) * Math.sqrt(be)) {
                        continue;
                    }
                    rotated = true;
                    double[] g = rotation(al, be, gr, gi);
                    rotateColumns(wr, wi, m, n, p, q, g);
                    if (vectors) {
                        rotateColumns(vr, vi, n, n, p, q, g);
                    }
                }
            }
            converged = !rotated;
        }
        if (!converged) {
            return null;
        }
        double[] s = new double[n];
        for (int j = 0; j < n; j++) {
            double t = 0;
            for (int i = 0; i < m; i++) {
                t += wr[i * n + j] * wr[i * n + j] + wi[i * n + j] * wi[i * n + j];
            }
            s[j] = Math.sqrt(t);
        }
        Integer[] order = new Integer[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (x, y) -> Double.compare(s[y], s[x]));
        double[] sv = new double[n];
        for (int j = 0; j < n; j++) {
            sv[j] = s[order[j]];
        }
        if (!vectors) {
            return new double[][] {sv};
        }
        int uc = full ? m : n;
        double[] ur = new double[m * uc];
        double[] ui = new double[m * uc];
        double small = (n == 0 ? 0 : sv[0]) * Math.max(m, n) * EPS;
        int filled = 0;
        boolean[] have = new boolean[uc];
        for (int j = 0; j < n; j++) {
            int c = order[j];
            if (sv[j] > small && sv[j] > 0) {
                for (int i = 0; i < m; i++) {
                    ur[i * uc + j] = wr[i * n + c] / sv[j];
                    ui[i * uc + j] = wi[i * n + c] / sv[j];
                }
                have[j] = true;
                filled++;
            }
        }
        if (filled < uc) {
            complete(ur, ui, m, uc, have);
        }
        // Vh = Vᴴ, rows in the order of the singular values.
        double[] hr = new double[n * n];
        double[] hi = new double[n * n];
        for (int j = 0; j < n; j++) {
            int c = order[j];
            for (int i = 0; i < n; i++) {
                hr[j * n + i] = vr[i * n + c];
                hi[j * n + i] = -vi[i * n + c];
            }
        }
        return new double[][] {ur, ui, sv, hr, hi};
    }

    /**
     * Fills the columns of the row-major {@code m×cols} matrix not marked in {@code have} so that all columns are
     * orthonormal: each from the unit vector with the largest part orthogonal to the columns so far (Gram–Schmidt,
     * twice).
     */
    static void complete(double[] ur, double[] ui, int m, int cols, boolean[] have) {
        for (int j = 0; j < cols; j++) {
            if (have[j]) {
                continue;
            }
            double best = -1;
            double[][] pick = null;
            for (int e = 0; e < m; e++) {
                double[] xr = new double[m];
                double[] xi = new double[m];
                xr[e] = 1;
                orthogonalize(ur, ui, m, cols, have, xr, xi);
                orthogonalize(ur, ui, m, cols, have, xr, xi);
                double nrm = 0;
                for (int i = 0; i < m; i++) {
                    nrm += xr[i] * xr[i] + xi[i] * xi[i];
                }
                if (nrm > best) {
                    best = nrm;
                    pick = new double[][] {xr, xi};
                }
                if (nrm > 0.5) {
                    break;
                }
            }
            double nrm = Math.sqrt(best);
            for (int i = 0; i < m; i++) {
                ur[i * cols + j] = pick[0][i] / nrm;
                ui[i * cols + j] = pick[1][i] / nrm;
            }
            have[j] = true;
        }
    }

    private static void orthogonalize(
            double[] ur, double[] ui, int m, int cols, boolean[] have, double[] xr, double[] xi) {
        for (int j = 0; j < cols; j++) {
            if (!have[j]) {
                continue;
            }
            double dr = 0;
            double di = 0;
            for (int i = 0; i < m; i++) {
                // conj(u)·x
                dr += ur[i * cols + j] * xr[i] + ui[i * cols + j] * xi[i];
                di += ur[i * cols + j] * xi[i] - ui[i * cols + j] * xr[i];
            }
            for (int i = 0; i < m; i++) {
                xr[i] -= ur[i * cols + j] * dr - ui[i * cols + j] * di;
                xi[i] -= ur[i * cols + j] * di + ui[i * cols + j] * dr;
            }
        }
    }

    /**
     * L ({@code A = L·Lᴴ}, from A's lower triangle) or U ({@code A = Uᴴ·U}, from the upper); null when A is not
     * positive definite.
     */
    static double[][] cholesky(double[][] a, int n, boolean upper) {
        double[] lr = new double[n * n];
        double[] li = new double[n * n];
        for (int j = 0; j < n; j++) {
            double d = a[0][j * n + j];
            for (int k = 0; k < j; k++) {
                d -= lr[j * n + k] * lr[j * n + k] + li[j * n + k] * li[j * n + k];
            }
            if (!(d > 0)) {
                return null;
            }
            double ljj = Math.sqrt(d);
            lr[j * n + j] = ljj;
            for (int i = j + 1; i < n; i++) {
                // The lower element a[i][j]; from the upper triangle it is conj(a[j][i]).
                double sr = upper ? a[0][j * n + i] : a[0][i * n + j];
                double si = upper ? -a[1][j * n + i] : a[1][i * n + j];
                for (int k = 0; k < j; k++) {
                    // L[i][k]·conj(L[j][k])
                    sr -= lr[i * n + k] * lr[j * n + k] + li[i * n + k] * li[j * n + k];
                    si -= li[i * n + k] * lr[j * n + k] - lr[i * n + k] * li[j * n + k];
                }
                lr[i * n + j] = sr / ljj;
                li[i * n + j] = si / ljj;
            }
        }
        return upper ? adjoint(new double[][] {lr, li}, n, n) : new double[][] {lr, li};
    }

    /**
     * LU with partial pivoting of a copy of {@code a}: {lr, li, perm} with {@code perm[i]} the original row at row i,
     * {@code perm[n]} the number of exchanges and {@code perm[n + 1]} 1 when a pivot is exactly zero.
     */
    private static Object[] lu(double[][] a, int n) {
        double[] r = a[0].clone();
        double[] im = a[1].clone();
        int[] perm = new int[n + 2];
        for (int i = 0; i < n; i++) {
            perm[i] = i;
        }
        for (int j = 0; j < n; j++) {
            int p = j;
            double best = -1;
            for (int i = j; i < n; i++) {
                double v = Math.hypot(r[i * n + j], im[i * n + j]);
                if (v > best) {
                    best = v;
                    p = i;
                }
            }
            if (p != j) {
                for (int c = 0; c < n; c++) {
                    double t = r[j * n + c];
                    r[j * n + c] = r[p * n + c];
                    r[p * n + c] = t;
                    t = im[j * n + c];
                    im[j * n + c] = im[p * n + c];
                    im[p * n + c] = t;
                }
                int t = perm[j];
                perm[j] = perm[p];
                perm[p] = t;
                perm[n]++;
            }
            double dr = r[j * n + j];
            double di = im[j * n + j];
            if (dr == 0 && di == 0) {
                perm[n + 1] = 1;
                continue;
            }
            double dd = dr * dr + di * di;
            for (int i = j + 1; i < n; i++) {
                // f = a[i][j] / d
                double xr = r[i * n + j];
                double xi = im[i * n + j];
                double fr = (xr * dr + xi * di) / dd;
                double fi = (xi * dr - xr * di) / dd;
                r[i * n + j] = fr;
                im[i * n + j] = fi;
                for (int c = j + 1; c < n; c++) {
                    double yr = r[j * n + c];
                    double yi = im[j * n + c];
                    r[i * n + c] -= fr * yr - fi * yi;
                    im[i * n + c] -= fr * yi + fi * yr;
                }
            }
        }
        return new Object[] {r, im, perm};
    }

    /** {sign re, sign im, log|det|}: the sign is {@code det/|det|} (0 for a singular matrix, whose log is −∞). */
    static double[] slogdet(double[][] a, int n) {
        Object[] f = lu(a, n);
        double[] r = (double[]) f[0];
        double[] im = (double[]) f[1];
        int[] perm = (int[]) f[2];
        double sr = perm[n] % 2 == 0 ? 1 : -1;
        double si = 0;
        double log = 0;
        for (int i = 0; i < n; i++) {
            double abs = Math.hypot(r[i * n + i], im[i * n + i]);
            if (abs == 0) {
                return new double[] {0, 0, Double.NEGATIVE_INFINITY};
            }
            double ur = r[i * n + i] / abs;
            double ui = im[i * n + i] / abs;
            double t = sr * ur - si * ui;
            si = sr * ui + si * ur;
            sr = t;
            log += Math.log(abs);
        }
        double abs = Math.hypot(sr, si);
        return new double[] {sr / abs, si / abs, log};
    }

    /** {re, im} of the determinant: the product of U's diagonal with the sign of the row exchanges. */
    static double[] det(double[][] a, int n) {
        Object[] f = lu(a, n);
        double[] r = (double[]) f[0];
        double[] im = (double[]) f[1];
        int[] perm = (int[]) f[2];
        double dr = perm[n] % 2 == 0 ? 1 : -1;
        double di = 0;
        for (int i = 0; i < n; i++) {
            double t = dr * r[i * n + i] - di * im[i * n + i];
            di = dr * im[i * n + i] + di * r[i * n + i];
            dr = t;
        }
        return new double[] {dr, di};
    }

    /** X with {@code A·X = B} ({@code B} is {@code n×k}), or null when a pivot of A is exactly zero. */
    static double[][] solve(double[][] a, int n, double[][] b, int k) {
        Object[] f = lu(a, n);
        double[] r = (double[]) f[0];
        double[] im = (double[]) f[1];
        int[] perm = (int[]) f[2];
        if (perm[n + 1] != 0) {
            return null;
        }
        double[] xr = new double[n * k];
        double[] xi = new double[n * k];
        for (int i = 0; i < n; i++) {
            System.arraycopy(b[0], perm[i] * k, xr, i * k, k);
            System.arraycopy(b[1], perm[i] * k, xi, i * k, k);
        }
        for (int c = 0; c < k; c++) {
            // L·y = P·b (unit diagonal), then U·x = y.
            for (int i = 0; i < n; i++) {
                double sr = xr[i * k + c];
                double si = xi[i * k + c];
                for (int j = 0; j < i; j++) {
                    sr -= r[i * n + j] * xr[j * k + c] - im[i * n + j] * xi[j * k + c];
                    si -= r[i * n + j] * xi[j * k + c] + im[i * n + j] * xr[j * k + c];
                }
                xr[i * k + c] = sr;
                xi[i * k + c] = si;
            }
            for (int i = n - 1; i >= 0; i--) {
                double sr = xr[i * k + c];
                double si = xi[i * k + c];
                for (int j = i + 1; j < n; j++) {
                    sr -= r[i * n + j] * xr[j * k + c] - im[i * n + j] * xi[j * k + c];
                    si -= r[i * n + j] * xi[j * k + c] + im[i * n + j] * xr[j * k + c];
                }
                double dr = r[i * n + i];
                double di = im[i * n + i];
                double dd = dr * dr + di * di;
                xr[i * k + c] = (sr * dr + si * di) / dd;
                xi[i * k + c] = (si * dr - sr * di) / dd;
            }
        }
        return new double[][] {xr, xi};
    }

    /** The inverse, or null when a pivot is exactly zero. */
    static double[][] inv(double[][] a, int n) {
        double[][] eye = new double[2][n * n];
        for (int i = 0; i < n; i++) {
            eye[0][i * n + i] = 1;
        }
        return solve(a, n, eye, n);
    }
}
