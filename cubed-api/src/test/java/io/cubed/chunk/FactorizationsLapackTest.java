package io.cubed.chunk;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ludovic.netlib.lapack.JavaLAPACK;
import dev.ludovic.netlib.lapack.LAPACK;
import dev.ludovic.netlib.lapack.NativeLAPACK;
import io.cubed.dtype.DType;
import io.cubed.testing.ExternalTool;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The chunk kernels on both LAPACK paths, the Java one (F2j) and the native one ({@code liblapack.so.3} through JNI:
 * required when {@code CI=true}), and on the complex kernels written here, each checked by plain Java loops against
 * the definitions: {@code Q·R = A} with orthonormal Q, {@code U·diag(S)·Vh = A}, {@code A·v = w·v}, {@code L·Lᴴ = A},
 * {@code A·inv(A) = I}, {@code A·X = B}, and the determinant against a cofactor expansion.
 */
class FactorizationsLapackTest {
    private static final int N = 5;

    private static Chunk random(DType t, long seed, int... shape) {
        Random r = new Random(seed);
        Chunk c = Chunk.allocate(t, shape);
        double[] d = c.doubles();
        for (int i = 0; i < d.length; i++) {
            d[i] = r.nextGaussian();
        }
        return c;
    }

    /** Element (i, j) of matrix b of a float64 or complex128 chunk as {re, im}. */
    private static double[] at(Chunk c, int b, int i, int j) {
        int rows = c.shape(c.ndim() - 2);
        int cols = c.shape(c.ndim() - 1);
        int k = b * rows * cols + i * cols + j;
        return c.dtype().isComplex()
                ? new double[] {c.doubles()[2 * k], c.doubles()[2 * k + 1]}
                : new double[] {c.doubles()[k], 0};
    }

    /** Entry (i, j) of {@code X·Y} (conjugating X's elements and reading it transposed when {@code adjointX}). */
    private static double[] product(Chunk x, Chunk y, int b, int i, int j, boolean adjointX) {
        int inner = adjointX ? x.shape(x.ndim() - 2) : x.shape(x.ndim() - 1);
        double re = 0;
        double im = 0;
        for (int p = 0; p < inner; p++) {
            double[] u = adjointX ? at(x, b, p, i) : at(x, b, i, p);
            if (adjointX) {
                u[1] = -u[1];
            }
            double[] v = at(y, b, p, j);
            re += u[0] * v[0] - u[1] * v[1];
            im += u[0] * v[1] + u[1] * v[0];
        }
        return new double[] {re, im};
    }

    private static void near(double[] actual, double re, double im, String what) {
        assertThat(Math.hypot(actual[0] - re, actual[1] - im)).as(what).isLessThan(1e-10);
    }

    private static void check(Factorizations f, DType t, String label) {
        Chunk a = random(t, 1, 2, N, N);
        Factorizations.Where where = new Factorizations.Where("test of " + label, new long[] {0});
        // QR of a tall matrix, reduced: Q·R = A and Qᴴ·Q = I.
        Chunk tall = random(t, 2, 2, 7, 4);
        Chunk[] qr = f.qr(tall, false, t);
        for (int b = 0; b < 2; b++) {
            for (int i = 0; i < 7; i++) {
                for (int j = 0; j < 4; j++) {
                    double[] e = at(tall, b, i, j);
                    near(product(qr[0], qr[1], b, i, j, false), e[0], e[1], label + " QR = A");
                }
            }
            for (int i = 0; i < 4; i++) {
                for (int j = 0; j < 4; j++) {
                    near(product(qr[0], qr[0], b, i, j, true), i == j ? 1 : 0, 0, label + " QᴴQ = I");
                }
            }
        }
        // SVD of a wide matrix, full: U·diag(S)·Vh = A.
        Chunk wide = random(t, 3, 1, 3, 6);
        Chunk[] svd = f.svd(wide, true, true, t, DType.FLOAT64, where);
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 6; j++) {
                double re = 0;
                double im = 0;
                for (int k = 0; k < 3; k++) {
                    double[] u = at(svd[0], 0, i, k);
                    double[] v = at(svd[2], 0, k, j);
                    double s = svd[1].doubles()[k];
                    re += s * (u[0] * v[0] - u[1] * v[1]);
                    im += s * (u[0] * v[1] + u[1] * v[0]);
                }
                double[] e = at(wide, 0, i, j);
                near(new double[] {re, im}, e[0], e[1], label + " U S Vh = A");
            }
        }
        assertThat(svd[1].doubles()).isSortedAccordingTo((x, y) -> Double.compare(y, x));
        // eigh of a Hermitian matrix (A + Aᴴ): A·v_k = w_k·v_k, eigenvalues ascending.
        Chunk h = Chunk.allocate(t, 1, N, N);
        for (int i = 0; i < N; i++) {
            for (int j = 0; j < N; j++) {
                double[] x = at(a, 0, i, j);
                double[] y = at(a, 0, j, i);
                int k = i * N + j;
                if (t.isComplex()) {
                    h.doubles()[2 * k] = x[0] + y[0];
                    h.doubles()[2 * k + 1] = x[1] - y[1];
                } else {
                    h.doubles()[k] = x[0] + y[0];
                }
            }
        }
        Chunk[] eig = f.eigh(h, true, t, DType.FLOAT64, where);
        assertThat(eig[0].doubles()).isSorted();
        for (int k = 0; k < N; k++) {
            for (int i = 0; i < N; i++) {
                double[] av = product(h, eig[1], 0, i, k, false);
                double[] v = at(eig[1], 0, i, k);
                double w = eig[0].doubles()[k];
                near(av, w * v[0], w * v[1], label + " A v = w v");
            }
        }
        // Cholesky of A·Aᴴ + N·I: L·Lᴴ = that matrix.
        Chunk p = Chunk.allocate(t, 1, N, N);
        for (int i = 0; i < N; i++) {
            for (int j = 0; j < N; j++) {
                double re = i == j ? N : 0;
                double im = 0;
                for (int k = 0; k < N; k++) {
                    double[] x = at(a, 0, i, k);
                    double[] y = at(a, 0, j, k);
                    re += x[0] * y[0] + x[1] * y[1];
                    im += x[1] * y[0] - x[0] * y[1];
                }
                int k = i * N + j;
                if (t.isComplex()) {
                    p.doubles()[2 * k] = re;
                    p.doubles()[2 * k + 1] = im;
                } else {
                    p.doubles()[k] = re;
                }
            }
        }
        Chunk l = f.cholesky(p, false, t, where);
        Chunk lh = f.cholesky(p, true, t, where);
        for (int i = 0; i < N; i++) {
            for (int j = 0; j < N; j++) {
                double re = 0;
                double im = 0;
                for (int k = 0; k < N; k++) {
                    double[] x = at(l, 0, i, k);
                    double[] y = at(l, 0, j, k);
                    re += x[0] * y[0] + x[1] * y[1];
                    im += x[1] * y[0] - x[0] * y[1];
                }
                double[] e = at(p, 0, i, j);
                near(new double[] {re, im}, e[0], e[1], label + " L Lᴴ = A");
                near(product(lh, lh, 0, i, j, true), e[0], e[1], label + " Uᴴ U = A");
            }
        }
        // inv and solve: A·inv(A) = I, A·X = B.
        Chunk inv = f.inv(a, t, where);
        Chunk rhs = random(t, 4, 2, N, 2);
        Chunk x = f.solve(a, rhs, t, where);
        for (int b = 0; b < 2; b++) {
            for (int i = 0; i < N; i++) {
                for (int j = 0; j < N; j++) {
                    near(product(a, inv, b, i, j, false), i == j ? 1 : 0, 0, label + " A inv(A) = I");
                }
                for (int j = 0; j < 2; j++) {
                    double[] e = at(rhs, b, i, j);
                    near(product(a, x, b, i, j, false), e[0], e[1], label + " A X = B");
                }
            }
        }
        // det against a cofactor expansion; slogdet agrees with it.
        Chunk det = f.det(a, t, where);
        Chunk[] sl = f.slogdet(a, t, DType.FLOAT64, where);
        for (int b = 0; b < 2; b++) {
            double[][] m = new double[2][N * N];
            for (int i = 0; i < N * N; i++) {
                double[] e = at(a, b, i / N, i % N);
                m[0][i] = e[0];
                m[1][i] = e[1];
            }
            double[] d = cofactor(m, N);
            double[] got = t.isComplex()
                    ? new double[] {det.doubles()[2 * b], det.doubles()[2 * b + 1]}
                    : new double[] {det.doubles()[b], 0};
            double scale = Math.max(1, Math.hypot(d[0], d[1]));
            assertThat(Math.hypot(got[0] - d[0], got[1] - d[1]) / scale)
                    .as(label + " det")
                    .isLessThan(1e-12);
            double mag = Math.exp(sl[1].doubles()[b]);
            double sr = t.isComplex() ? sl[0].doubles()[2 * b] : sl[0].doubles()[b];
            double si = t.isComplex() ? sl[0].doubles()[2 * b + 1] : 0;
            assertThat(Math.hypot(sr * mag - d[0], si * mag - d[1]) / scale)
                    .as(label + " slogdet")
                    .isLessThan(1e-12);
        }
    }

    /** The determinant of an {@code n×n} complex matrix by expansion along the first row. */
    private static double[] cofactor(double[][] m, int n) {
        if (n == 1) {
            return new double[] {m[0][0], m[1][0]};
        }
        double re = 0;
        double im = 0;
        for (int c = 0; c < n; c++) {
            double[][] minor = new double[2][(n - 1) * (n - 1)];
            for (int i = 1; i < n; i++) {
                int k = 0;
                for (int j = 0; j < n; j++) {
                    if (j != c) {
                        minor[0][(i - 1) * (n - 1) + k] = m[0][i * n + j];
                        minor[1][(i - 1) * (n - 1) + k] = m[1][i * n + j];
                        k++;
                    }
                }
            }
            double[] d = cofactor(minor, n - 1);
            double sign = c % 2 == 0 ? 1 : -1;
            re += sign * (m[0][c] * d[0] - m[1][c] * d[1]);
            im += sign * (m[0][c] * d[1] + m[1][c] * d[0]);
        }
        return new double[] {re, im};
    }

    @Test
    void javaLapackMatchesTheDefinitions() {
        LAPACK java = JavaLAPACK.getInstance();
        assertThat(java.getClass().getSimpleName()).isEqualTo("F2jLAPACK");
        check(Factorizations.with(java), DType.FLOAT64, "F2jLAPACK");
    }

    @Test
    void nativeLapackMatchesTheDefinitionsAndIsTheOneUsed() {
        LAPACK lapack = null;
        try {
            lapack = NativeLAPACK.getInstance();
        } catch (RuntimeException | LinkageError e) {
            ExternalTool.require(false, "no native LAPACK (liblapack.so.3; apt-get install liblapack3): " + e);
        }
        check(Factorizations.with(lapack), DType.FLOAT64, "JNILAPACK");
        assertThat(Factorizations.lapackImplementation()).isEqualTo("JNILAPACK");
    }

    @Test
    void complexKernelsMatchTheDefinitions() {
        check(Factorizations.get(), DType.COMPLEX128, "complex");
    }
}
