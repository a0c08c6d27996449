package io.cubed.chunk;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ludovic.netlib.blas.BLAS;
import dev.ludovic.netlib.blas.JavaBLAS;
import dev.ludovic.netlib.blas.NativeBLAS;
import io.cubed.testing.ExternalTool;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Floating-point products through both BLAS paths against a straightforward triple loop: the native BLAS (OpenBLAS
 * through JNI: required when {@code CI=true}, where {@code .ci/run} installs {@code libopenblas0}) and the Java one this
 * JVM picks (the Vector API in the tests); odd shapes, offsets into larger arrays, accumulation into a C that is not
 * zero, products written over a C that holds NaN, and the sizes below which a plain loop is used.
 */
class MatMulBlasTest {
    private static double[] random(int n, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        double[] d = new double[n];
        for (int i = 0; i < n; i++) {
            d[i] = r.nextDouble(-2, 2);
        }
        return d;
    }

    /** {@code c += a·b} by the definition, row-major, with offsets. */
    private static void reference(
            double[] a, int aOff, double[] b, int bOff, double[] c, int cOff, int m, int k, int n) {
        for (int i = 0; i < m; i++) {
            for (int j = 0; j < n; j++) {
                double s = 0;
                for (int p = 0; p < k; p++) {
                    s += a[aOff + i * k + p] * b[bOff + p * n + j];
                }
                c[cOff + i * n + j] += s;
            }
        }
    }

    private static void check(BLAS blas) {
        int[][] shapes = {{1, 1, 1}, {3, 5, 7}, {16, 16, 16}, {17, 33, 9}, {64, 100, 31}, {129, 70, 257}, {5, 300, 2}};
        long seed = 1;
        for (int[] s : shapes) {
            int m = s[0];
            int k = s[1];
            int n = s[2];
            double[] a = random(m * k + 3, seed++);
            double[] b = random(k * n + 5, seed++);
            double[] c = random(m * n + 7, seed++);
            double[] expected = c.clone();
            reference(a, 3, b, 5, expected, 7, m, k, n);
            MatMul.multiply(blas, a, 3, b, 5, c, 7, m, k, n);
            assertClose(c, expected, blas, "C += A·B", s);
            // Written over: the product region of C holds NaN (as a recycled array may), which must not be read; the
            // rest of C is left as it was.
            double[] over = random(m * n + 7, seed++);
            java.util.Arrays.fill(over, 7, 7 + m * n, Double.NaN);
            double[] expectedOver = over.clone();
            java.util.Arrays.fill(expectedOver, 7, 7 + m * n, 0.0);
            reference(a, 3, b, 5, expectedOver, 7, m, k, n);
            MatMul.multiplyInto(blas, a, 3, b, 5, over, 7, m, k, n);
            assertClose(over, expectedOver, blas, "C = A·B", s);
        }
        // No contracted length: the product is zeros, written over what was there.
        double[] empty = {Double.NaN, Double.NaN, 5};
        MatMul.multiplyInto(blas, new double[0], 0, new double[0], 0, empty, 0, 1, 0, 2);
        assertThat(empty).containsExactly(0, 0, 5);
    }

    private static void assertClose(double[] c, double[] expected, BLAS blas, String what, int[] s) {
        for (int i = 0; i < c.length; i++) {
            assertThat(c[i])
                    .as("%s %s %d x %d x %d, element %d", blas.getClass().getSimpleName(), what, s[0], s[1], s[2], i)
                    .isCloseTo(expected[i], org.assertj.core.data.Offset.offset(1e-9 * (1 + Math.abs(expected[i]))));
        }
    }

    @Test
    void everyJavaPathMatchesTheDefinition() {
        check(JavaBLAS.getInstance());
        assertThat(JavaBLAS.getInstance().getClass().getSimpleName())
                .as("the tests run with jdk.incubator.vector, so the Java path is the Vector API's")
                .isEqualTo("VectorBLAS");
    }

    @Test
    void theNativePathMatchesTheDefinitionAndIsTheOneUsed() {
        List<BLAS> natives = new ArrayList<>();
        try {
            natives.add(NativeBLAS.getInstance());
        } catch (RuntimeException | LinkageError e) {
            ExternalTool.require(false, "no native BLAS (libblas.so.3; apt-get install libopenblas0): " + e);
        }
        check(natives.get(0));
        assertThat(MatMul.blasImplementation()).isEqualTo("JNIBLAS");
    }
}
