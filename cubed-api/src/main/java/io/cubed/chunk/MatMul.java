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

    /** {@link #multiply(double[], int, double[], int, double[], int, int, int, int)} with the BLAS {@code blas}. */
    static void multiply(
            BLAS blas, double[] a, int aOff, double[] b, int bOff, double[] c, int cOff, int m, int k, int n) {
        if (m == 0 || n == 0 || k == 0) {
            return;
        }
        if ((long) m * n * k < SMALL) {
            naiveSmall(a, aOff, b, bOff, c, cOff, m, k, n);
            return;
        }
        // Row-major C = A·B is column-major Cᵀ = Bᵀ·Aᵀ: the same arrays, the operands swapped.
        blas.dgemm("N", "N", n, m, k, 1.0, b, bOff, n, a, aOff, k, 1.0, c, cOff, n);
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
