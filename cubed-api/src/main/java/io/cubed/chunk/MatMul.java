package io.cubed.chunk;

import dev.ludovic.netlib.blas.BLAS;

/**
 * Dense matrix products on row-major arrays, {@code C += A·B} with A {@code m×k} and B {@code k×n}. Floating point
 * goes to BLAS {@code dgemm} through {@code dev.ludovic.netlib} (the BLAS layer of Spark MLlib): the machine's native
 * BLAS through JNI where there is one ({@code libblas.so.3}, e.g. OpenBLAS from Debian's {@code libopenblas0}), else
 * its Java implementation, on the Vector API when the JVM has {@code jdk.incubator.vector}. Measured on the 2-core
 * machine (1024², one thread): native OpenBLAS 50 GFLOP/s, the Vector API 18–32, plain Java 11.5, and the blocked
 * kernel this class had before 8.5–9.7: BLAS wins on every path, so floating point has no kernel of its own. Integers
 * (which BLAS does not do) keep a blocked loop. Products below {@value #SMALL} multiply-adds stay a plain loop.
 * Complex products work on planar real and imaginary parts ({@link #multiplyComplex}).
 */
public final class MatMul {
    /** Multiply-adds below which a plain loop beats a call into BLAS. */
    static final long SMALL = 4096;
    /** Depth (k) per block of the integer loop. */
    static final int KC = 256;
    /** Columns of B per block of the integer loop. */
    static final int NC = 1024;

    private static final BLAS BLAS_INSTANCE = BLAS.getInstance();

    private MatMul() {}

    /** The BLAS floating-point products run on, e.g. {@code JNIBLAS} (native) or {@code VectorBLAS}. */
    public static String blasImplementation() {
        return BLAS_INSTANCE.getClass().getSimpleName();
    }

    /**
     * {@code c[cOff + i·n + j] += Σ_p a[aOff + i·k + p] · b[bOff + p·n + j]} for {@code i < m, j < n}; the arrays
     * must not overlap.
     */
    public static void multiply(double[] a, int aOff, double[] b, int bOff, double[] c, int cOff, int m, int k, int n) {
        multiply(BLAS_INSTANCE, a, aOff, b, bOff, c, cOff, m, k, n);
    }

    /**
     * {@code c[cOff + i·n + j] = Σ_p a[aOff + i·k + p] · b[bOff + p·n + j]} for {@code i < m, j < n}: the product
     * written over what {@code c} held there, which is never read (it may be garbage or NaN), so that the first
     * product of a running sum needs no zeroed array; the arrays must not overlap.
     */
    public static void multiplyInto(
            double[] a, int aOff, double[] b, int bOff, double[] c, int cOff, int m, int k, int n) {
        multiplyInto(BLAS_INSTANCE, a, aOff, b, bOff, c, cOff, m, k, n);
    }

    /** {@link #multiplyInto(double[], int, double[], int, double[], int, int, int, int)} with the BLAS {@code blas}. */
    static void multiplyInto(
            BLAS blas, double[] a, int aOff, double[] b, int bOff, double[] c, int cOff, int m, int k, int n) {
        multiply(blas, 1.0, a, aOff, b, bOff, 0.0, c, cOff, m, k, n);
    }

    /** {@link #multiply(double[], int, double[], int, double[], int, int, int, int)} with the BLAS {@code blas}. */
    static void multiply(
            BLAS blas, double[] a, int aOff, double[] b, int bOff, double[] c, int cOff, int m, int k, int n) {
        multiply(blas, 1.0, a, aOff, b, bOff, 1.0, c, cOff, m, k, n);
    }

    /**
     * {@code C = alpha·A·B + beta·C} with the BLAS {@code blas}, or a plain loop for small products; {@code beta} is 1
     * or 0, and with 0 the old {@code C} is not read.
     */
    private static void multiply(
            BLAS blas,
            double alpha,
            double[] a,
            int aOff,
            double[] b,
            int bOff,
            double beta,
            double[] c,
            int cOff,
            int m,
            int k,
            int n) {
        if (m == 0 || n == 0) {
            return;
        }
        if (k == 0 || (long) m * n * k < SMALL) {
            if (beta == 0) {
                java.util.Arrays.fill(c, cOff, cOff + m * n, 0.0);
            }
            naiveSmall(alpha, a, aOff, b, bOff, c, cOff, m, k, n);
            return;
        }
        // Row-major C = A·B is column-major Cᵀ = Bᵀ·Aᵀ: the same arrays, the operands swapped. BLAS does not read C
        // when beta is 0.
        blas.dgemm("N", "N", n, m, k, alpha, b, bOff, n, a, aOff, k, beta, c, cOff, n);
    }

    /**
     * The complex product {@code C += A·B} on planar parts (row-major, A {@code m×k}, B {@code k×n}, C {@code m×n}):
     * {@code Re C += Re A·Re B − Im A·Im B} and {@code Im C += Re A·Im B + Im A·Re B}. A null {@code ai} or
     * {@code bi} is a real operand (imaginary part zero), whose terms are skipped. No array may overlap another.
     *
     * <p>Matrix products go to BLAS as four real products (two when an operand is real; the netlib interface has no
     * {@code zgemm}). Products with one row or one column ({@code vecdot}, matrix–vector) and those below {@value
     * #SMALL} multiply-adds run a loop that forms each term {@code a·b} whole, real and imaginary part, before adding
     * it, as the definition does: the imaginary part of {@code conj(x)·x} is then exactly zero term by term, so
     * {@code vecdot(x, x)} is real, where separate real products would leave rounding residue in it.
     */
    public static void multiplyComplex(
            double[] ar, double[] ai, double[] br, double[] bi, double[] cr, double[] ci, int m, int k, int n) {
        multiplyComplex(BLAS_INSTANCE, ar, ai, br, bi, cr, ci, m, k, n);
    }

    /** {@link #multiplyComplex(double[], double[], double[], double[], double[], double[], int, int, int)} on {@code blas}. */
    static void multiplyComplex(
            BLAS blas,
            double[] ar,
            double[] ai,
            double[] br,
            double[] bi,
            double[] cr,
            double[] ci,
            int m,
            int k,
            int n) {
        if (m == 0 || n == 0 || k == 0) {
            return;
        }
        if (m == 1 || n == 1 || (long) m * n * k < SMALL) {
            loopComplex(ar, ai, br, bi, cr, ci, m, k, n);
            return;
        }
        multiply(blas, 1.0, ar, 0, br, 0, 1.0, cr, 0, m, k, n);
        if (ai != null && bi != null) {
            multiply(blas, -1.0, ai, 0, bi, 0, 1.0, cr, 0, m, k, n);
        }
        if (bi != null) {
            multiply(blas, 1.0, ar, 0, bi, 0, 1.0, ci, 0, m, k, n);
        }
        if (ai != null) {
            multiply(blas, 1.0, ai, 0, br, 0, 1.0, ci, 0, m, k, n);
        }
    }

    /** The complex product term by term, blocked over k and j as the integer loop; null parts are zero. */
    private static void loopComplex(
            double[] ar, double[] ai, double[] br, double[] bi, double[] cr, double[] ci, int m, int k, int n) {
        for (int pp = 0; pp < k; pp += KC) {
            int pEnd = Math.min(k, pp + KC);
            for (int jj = 0; jj < n; jj += NC) {
                int jEnd = Math.min(n, jj + NC);
                for (int i = 0; i < m; i++) {
                    int cRow = i * n;
                    for (int p = pp; p < pEnd; p++) {
                        double xr = ar[i * k + p];
                        int bRow = p * n;
                        if (ai == null && bi == null) {
                            for (int j = jj; j < jEnd; j++) {
                                cr[cRow + j] += xr * br[bRow + j];
                            }
                        } else if (ai == null) {
                            for (int j = jj; j < jEnd; j++) {
                                cr[cRow + j] += xr * br[bRow + j];
                                ci[cRow + j] += xr * bi[bRow + j];
                            }
                        } else if (bi == null) {
                            double xi = ai[i * k + p];
                            for (int j = jj; j < jEnd; j++) {
                                cr[cRow + j] += xr * br[bRow + j];
                                ci[cRow + j] += xi * br[bRow + j];
                            }
                        } else {
                            double xi = ai[i * k + p];
                            for (int j = jj; j < jEnd; j++) {
                                double yr = br[bRow + j];
                                double yi = bi[bRow + j];
                                cr[cRow + j] += xr * yr - xi * yi;
                                ci[cRow + j] += xr * yi + xi * yr;
                            }
                        }
                    }
                }
            }
        }
    }

    private static void naiveSmall(
            double alpha, double[] a, int aOff, double[] b, int bOff, double[] c, int cOff, int m, int k, int n) {
        for (int i = 0; i < m; i++) {
            for (int p = 0; p < k; p++) {
                double av = alpha * a[aOff + i * k + p];
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
