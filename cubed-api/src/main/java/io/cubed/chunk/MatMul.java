package io.cubed.chunk;

/**
 * Dense matrix products on row-major arrays, {@code C += A·B} with A {@code m×k} and B {@code k×n}: a cache-blocked
 * kernel after Goto and van de Geijn. B is packed in {@link #KC}×{@link #NC} blocks of 4-column panels that stay in
 * cache, A in {@link #MC}×{@link #KC} blocks of 4-row panels, and a 4×4 micro-kernel keeps 16 sums in registers while it
 * streams both panels, so each loaded value is used four times. Edges are packed with zeros.
 */
public final class MatMul {
    /** Rows of A per packed block. */
    static final int MC = 128;
    /** Depth (k) per packed block. */
    static final int KC = 256;
    /** Columns of B per packed block. */
    static final int NC = 1024;

    private MatMul() {}

    /**
     * {@code c[cOff + i·n + j] += Σ_p a[aOff + i·k + p] · b[bOff + p·n + j]} for {@code i < m, j < n}; the arrays
     * must not overlap.
     */
    public static void multiply(double[] a, int aOff, double[] b, int bOff, double[] c, int cOff, int m, int k, int n) {
        if (m == 0 || n == 0 || k == 0) {
            return;
        }
        if ((long) m * n * k < 4096) {
            naiveSmall(a, aOff, b, bOff, c, cOff, m, k, n);
            return;
        }
        int nc = Math.min(NC, roundUp4(n));
        int kc = Math.min(KC, k);
        int mc = Math.min(MC, roundUp4(m));
        double[] bp = new double[kc * nc];
        double[] ap = new double[mc * kc];
        for (int jj = 0; jj < n; jj += nc) {
            int nb = Math.min(nc, n - jj);
            for (int pp = 0; pp < k; pp += kc) {
                int kb = Math.min(kc, k - pp);
                packB(b, bOff, n, pp, jj, kb, nb, bp);
                for (int ii = 0; ii < m; ii += mc) {
                    int mb = Math.min(mc, m - ii);
                    packA(a, aOff, k, ii, pp, mb, kb, ap);
                    for (int j = 0; j < nb; j += 4) {
                        for (int i = 0; i < mb; i += 4) {
                            micro(
                                    ap,
                                    i * kb,
                                    bp,
                                    j * kb,
                                    kb,
                                    c,
                                    cOff + (ii + i) * n + jj + j,
                                    n,
                                    Math.min(4, mb - i),
                                    Math.min(4, nb - j));
                        }
                    }
                }
            }
        }
    }

    private static int roundUp4(int x) {
        return (x + 3) & ~3;
    }

    /** Packs B[pp..pp+kb, jj..jj+nb] as panels of 4 columns: panel q holds (p, 4q..4q+3) at q·4·kb + 4p. */
    private static void packB(double[] b, int bOff, int n, int pp, int jj, int kb, int nb, double[] bp) {
        for (int q = 0; q < nb; q += 4) {
            int base = q * kb;
            int w = Math.min(4, nb - q);
            for (int p = 0; p < kb; p++) {
                int src = bOff + (pp + p) * n + jj + q;
                int dst = base + 4 * p;
                for (int t = 0; t < 4; t++) {
                    bp[dst + t] = t < w ? b[src + t] : 0;
                }
            }
        }
    }

    /** Packs A[ii..ii+mb, pp..pp+kb] as panels of 4 rows: panel r holds (4r..4r+3, p) at r·4·kb + 4p. */
    private static void packA(double[] a, int aOff, int k, int ii, int pp, int mb, int kb, double[] ap) {
        for (int r = 0; r < mb; r += 4) {
            int base = r * kb;
            int h = Math.min(4, mb - r);
            for (int t = 0; t < 4; t++) {
                if (t < h) {
                    int src = aOff + (ii + r + t) * k + pp;
                    for (int p = 0; p < kb; p++) {
                        ap[base + 4 * p + t] = a[src + p];
                    }
                } else {
                    for (int p = 0; p < kb; p++) {
                        ap[base + 4 * p + t] = 0;
                    }
                }
            }
        }
    }

    /** One 4×4 tile of C from a packed A panel and a packed B panel of depth {@code kb}; writes h×w of it. */
    private static void micro(
            double[] ap, int ao, double[] bp, int bo, int kb, double[] c, int co, int n, int h, int w) {
        double c00 = 0, c01 = 0, c02 = 0, c03 = 0;
        double c10 = 0, c11 = 0, c12 = 0, c13 = 0;
        double c20 = 0, c21 = 0, c22 = 0, c23 = 0;
        double c30 = 0, c31 = 0, c32 = 0, c33 = 0;
        for (int p = 0; p < kb; p++) {
            int ai = ao + 4 * p;
            int bi = bo + 4 * p;
            double a0 = ap[ai];
            double a1 = ap[ai + 1];
            double a2 = ap[ai + 2];
            double a3 = ap[ai + 3];
            double b0 = bp[bi];
            double b1 = bp[bi + 1];
            double b2 = bp[bi + 2];
            double b3 = bp[bi + 3];
            c00 += a0 * b0;
            c01 += a0 * b1;
            c02 += a0 * b2;
            c03 += a0 * b3;
            c10 += a1 * b0;
            c11 += a1 * b1;
            c12 += a1 * b2;
            c13 += a1 * b3;
            c20 += a2 * b0;
            c21 += a2 * b1;
            c22 += a2 * b2;
            c23 += a2 * b3;
            c30 += a3 * b0;
            c31 += a3 * b1;
            c32 += a3 * b2;
            c33 += a3 * b3;
        }
        double[] t = {
            c00, c01, c02, c03, c10, c11, c12, c13, c20, c21, c22, c23, c30, c31, c32, c33,
        };
        if (h == 4 && w == 4) {
            for (int i = 0; i < 4; i++) {
                int row = co + i * n;
                c[row] += t[4 * i];
                c[row + 1] += t[4 * i + 1];
                c[row + 2] += t[4 * i + 2];
                c[row + 3] += t[4 * i + 3];
            }
            return;
        }
        for (int i = 0; i < h; i++) {
            for (int j = 0; j < w; j++) {
                c[co + i * n + j] += t[4 * i + j];
            }
        }
    }

    private static void naiveSmall(
            double[] a, int aOff, double[] b, int bOff, double[] c, int cOff, int m, int k, int n) {
        for (int i = 0; i < m; i++) {
            for (int p = 0; p < k; p++) {
                double av = a[aOff + i * k + p];
                int bRow = bOff + p * n;
                int cRow = cOff + i * n;
                for (int j = 0; j < n; j++) {
                    c[cRow + j] += av * b[bRow + j];
                }
            }
        }
    }

    /** {@link #multiply} on longs, wrapping around on overflow (integer matmul), blocked over k and j. */
    public static void multiply(long[] a, int aOff, long[] b, int bOff, long[] c, int cOff, int m, int k, int n) {
        for (int pp = 0; pp < k; pp += KC) {
            int pEnd = Math.min(k, pp + KC);
            for (int jj = 0; jj < n; jj += NC) {
                int jEnd = Math.min(n, jj + NC);
                for (int i = 0; i < m; i++) {
                    int cRow = cOff + i * n;
                    for (int p = pp; p < pEnd; p++) {
                        long av = a[aOff + i * k + p];
                        int bRow = bOff + p * n;
                        for (int j = jj; j < jEnd; j++) {
                            c[cRow + j] += av * b[bRow + j];
                        }
                    }
                }
            }
        }
    }
}
