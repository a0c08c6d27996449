package io.cubed.chunk;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ludovic.netlib.blas.BLAS;
import dev.ludovic.netlib.blas.JavaBLAS;
import dev.ludovic.netlib.blas.NativeBLAS;
import io.cubed.dtype.DType;
import java.util.SplittableRandom;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

/**
 * The complex chunk kernel ({@link MatMul#multiplyComplex}) and the complex path of {@link Contraction} against the
 * definition written as a plain loop over (re, im) pairs: both BLAS paths and the term-by-term loop (one row, one
 * column, small products), real operands given as null imaginary parts, accumulation into a C that is not zero,
 * conjugation of the first operand, and complex64 rounding.
 */
class MatMulComplexTest {
    private static double[] random(int n, SplittableRandom r) {
        double[] d = new double[n];
        for (int i = 0; i < n; i++) {
            d[i] = r.nextDouble(-2, 2);
        }
        return d;
    }

    /** C += A·B by the definition: for every (i, j), the sum over p of (ar + i·ai)(br + i·bi); null parts are 0. */
    private static void reference(
            double[] ar, double[] ai, double[] br, double[] bi, double[] cr, double[] ci, int m, int k, int n) {
        for (int i = 0; i < m; i++) {
            for (int j = 0; j < n; j++) {
                double sr = 0;
                double si = 0;
                for (int p = 0; p < k; p++) {
                    double xr = ar[i * k + p];
                    double xi = ai == null ? 0 : ai[i * k + p];
                    double yr = br[p * n + j];
                    double yi = bi == null ? 0 : bi[p * n + j];
                    sr += xr * yr - xi * yi;
                    si += xr * yi + xi * yr;
                }
                cr[i * n + j] += sr;
                ci[i * n + j] += si;
            }
        }
    }

    private static void check(BLAS blas) {
        // Matrix shapes (BLAS), one row or one column and small ones (the loop), and shapes past the loop's blocks.
        int[][] shapes = {
            {1, 1, 1}, {3, 5, 7}, {16, 16, 16}, {17, 33, 9}, {64, 100, 31}, {1, 600, 1100}, {700, 300, 1}, {5, 300, 2}
        };
        SplittableRandom r = new SplittableRandom(7);
        for (int[] s : shapes) {
            int m = s[0];
            int k = s[1];
            int n = s[2];
            for (int realSide = 0; realSide < 3; realSide++) {
                double[] ar = random(m * k, r);
                double[] ai = realSide == 1 ? null : random(m * k, r);
                double[] br = random(k * n, r);
                double[] bi = realSide == 2 ? null : random(k * n, r);
                double[] cr = random(m * n, r);
                double[] ci = random(m * n, r);
                double[] er = cr.clone();
                double[] ei = ci.clone();
                reference(ar, ai, br, bi, er, ei, m, k, n);
                MatMul.multiplyComplex(blas, ar, ai, br, bi, cr, ci, m, k, n);
                for (int i = 0; i < m * n; i++) {
                    String what = String.format(
                            "%s %d x %d x %d (real side %d), element %d",
                            blas.getClass().getSimpleName(), m, k, n, realSide, i);
                    assertThat(cr[i]).as(what + " re").isCloseTo(er[i], Offset.offset(1e-9 * (1 + Math.abs(er[i]))));
                    assertThat(ci[i]).as(what + " im").isCloseTo(ei[i], Offset.offset(1e-9 * (1 + Math.abs(ei[i]))));
                }
            }
        }
    }

    @Test
    void theJavaBlasPathAndTheLoopMatchTheDefinition() {
        check(JavaBLAS.getInstance());
    }

    @Test
    void theNativeBlasPathMatchesTheDefinition() {
        BLAS blas;
        try {
            blas = NativeBLAS.getInstance();
        } catch (RuntimeException | LinkageError e) {
            io.cubed.testing.ExternalTool.require(false, "no native BLAS (libblas.so.3): " + e);
            return;
        }
        check(blas);
    }

    @Test
    void aContractionConjugatesTheFirstOperandAndRoundsComplex64Once() {
        // out[i] = sum_p conj(a[i, p]) * b[p]: a complex64 (2, 3), b complex64 (3).
        float[] a = {1, 2, -3, 0.5f, 0, -1, 2.5f, -2, 1, 1, -0.25f, 4};
        float[] b = {0.5f, -1, 2, 3, -1.5f, 0.75f};
        Chunk ca = Chunk.wrap(DType.COMPLEX64, new int[] {2, 3}, a);
        Chunk cb = Chunk.wrap(DType.COMPLEX64, new int[] {3}, b);
        Chunk plain = Contraction.contract(ca, "ip", cb, "p", "i", DType.COMPLEX64);
        Chunk conj = Contraction.contract(ca, "ip", cb, "p", "i", DType.COMPLEX64, true);
        assertThat(plain.dtype()).isEqualTo(DType.COMPLEX64);
        for (int i = 0; i < 2; i++) {
            double pr = 0;
            double pi = 0;
            double qr = 0;
            double qi = 0;
            for (int p = 0; p < 3; p++) {
                double xr = a[2 * (3 * i + p)];
                double xi = a[2 * (3 * i + p) + 1];
                double yr = b[2 * p];
                double yi = b[2 * p + 1];
                pr += xr * yr - xi * yi;
                pi += xr * yi + xi * yr;
                qr += xr * yr + xi * yi;
                qi += xr * yi - xi * yr;
            }
            // Exact in double (small binary fractions), so each part is the float of the exact value.
            assertThat(plain.floats()[2 * i]).isEqualTo((float) pr);
            assertThat(plain.floats()[2 * i + 1]).isEqualTo((float) pi);
            assertThat(conj.floats()[2 * i]).isEqualTo((float) qr);
            assertThat(conj.floats()[2 * i + 1]).isEqualTo((float) qi);
        }
        // A real first operand is unchanged by conjugation; a real operand with a complex one gives complex.
        Chunk real = Chunk.wrap(DType.FLOAT64, new int[] {3}, new double[] {1, -2, 0.5});
        Chunk c128 = Chunk.wrap(DType.COMPLEX128, new int[] {3}, new double[] {1, 1, 2, -1, 4, 0.5});
        Chunk d = Contraction.contract(real, "p", c128, "p", "", DType.COMPLEX128, true);
        assertThat(d.shape()).isEmpty();
        assertThat(d.doubles()).containsExactly(1 - 4 + 2, 1 + 2 + 0.25);
    }
}
