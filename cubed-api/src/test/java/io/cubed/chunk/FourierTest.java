package io.cubed.chunk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cubed.dtype.DType;
import io.cubed.error.InvalidArgumentException;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The FFT kernel against the defining sums, computed by a plain O(n²) loop in double: every length 1 to 70 (powers of
 * two take the radix-2 path, the others Bluestein's), the primes 97 and 257 and lengths 1000 and 1024; the row kernel
 * of each kind along the first, middle and last axes of a 3-d chunk, with padding and truncation; the workspace
 * formula term by term.
 */
class FourierTest {
    /** The sum {@code Σ_j x[j] exp(∓2πi jk/n)} of the first {@code n} elements (zero beyond the input). */
    static double[][] dft(double[] re, double[] im, int n, boolean inverse) {
        double[] outRe = new double[n];
        double[] outIm = new double[n];
        double sign = inverse ? 1 : -1;
        for (int k = 0; k < n; k++) {
            double sr = 0;
            double si = 0;
            for (int j = 0; j < Math.min(n, re.length); j++) {
                double angle = sign * 2 * Math.PI * ((long) j * k % n) / n;
                double c = Math.cos(angle);
                double s = Math.sin(angle);
                sr += re[j] * c - im[j] * s;
                si += re[j] * s + im[j] * c;
            }
            outRe[k] = sr;
            outIm[k] = si;
        }
        return new double[][] {outRe, outIm};
    }

    @Test
    void planMatchesTheDefiningSumForEveryLength() {
        Random r = new Random(3);
        int[] extra = {97, 257, 1000, 1024};
        for (int n = 1; n <= 70 + extra.length; n++) {
            int len = n <= 70 ? n : extra[n - 71];
            double[] re = new double[len];
            double[] im = new double[len];
            for (int i = 0; i < len; i++) {
                re[i] = r.nextGaussian();
                im[i] = r.nextGaussian();
            }
            FftPlan plan = FftPlan.of(len);
            assertThat(plan.length()).isEqualTo(len);
            for (boolean inverse : new boolean[] {false, true}) {
                double[][] want = dft(re, im, len, inverse);
                double[] gr = re.clone();
                double[] gi = im.clone();
                if (inverse) {
                    plan.inverse(gr, gi);
                } else {
                    plan.forward(gr, gi);
                }
                double scale = Math.sqrt(len); // the inputs' norm grows the outputs by about √n
                for (int k = 0; k < len; k++) {
                    assertThat(gr[k])
                            .as("n %d k %d inverse %s re", len, k, inverse)
                            .isCloseTo(want[0][k], within(scale));
                    assertThat(gi[k])
                            .as("n %d k %d inverse %s im", len, k, inverse)
                            .isCloseTo(want[1][k], within(scale));
                }
            }
            // The same plan serves many rows.
            double[] gr = re.clone();
            double[] gi = im.clone();
            plan.forward(gr, gi);
            plan.inverse(gr, gi);
            for (int k = 0; k < len; k++) {
                assertThat(gr[k] / len).isCloseTo(re[k], within(1));
                assertThat(gi[k] / len).isCloseTo(im[k], within(1));
            }
        }
    }

    private static org.assertj.core.data.Offset<Double> within(double scale) {
        return org.assertj.core.data.Offset.offset(1e-12 * Math.max(1, scale));
    }

    @Test
    void workspaceIsTheTablesOfEachPath() {
        // Power of two: cos and sin of the 1 + 2 + ... + 512 = 1023 angles of the stages, a permutation of n ints.
        assertThat(FftPlan.workspaceBytes(1024)).isEqualTo(8 * 1023 + 8 * 1023 + 4 * 1024);
        assertThat(FftPlan.workspaceBytes(1)).isEqualTo(4);
        // Bluestein for 97: convolution length 256 (>= 2·97 − 1 = 193); chirp 2·8·97, filter and scratch 4·8·256,
        // and the power-of-two plan of 256.
        assertThat(FftPlan.convolutionLength(97)).isEqualTo(256);
        assertThat(FftPlan.workspaceBytes(97)).isEqualTo(16 * 97 + 32 * 256 + (16 * 255 + 4 * 256));
        assertThat(FftPlan.convolutionLength(3)).isEqualTo(8);
        // A call also holds two rows of doubles.
        assertThat(Fourier.workspaceBytes(97)).isEqualTo(FftPlan.workspaceBytes(97) + 16 * 97);
    }

    @Test
    void rowsAlongEachAxisOfAChunk() {
        Random r = new Random(5);
        int[] shape = {3, 5, 4};
        Chunk x = Chunk.allocate(DType.COMPLEX128, shape);
        for (int i = 0; i < x.doubles().length; i++) {
            x.doubles()[i] = r.nextGaussian();
        }
        Chunk real = Chunk.allocate(DType.FLOAT64, shape);
        for (int i = 0; i < real.size(); i++) {
            real.doubles()[i] = r.nextGaussian();
        }
        for (int axis = 0; axis < 3; axis++) {
            for (int n : new int[] {2, shape[axis], 7, 8}) {
                check(x, axis, Fourier.Kind.FORWARD, n, false);
                check(x, axis, Fourier.Kind.INVERSE, n, false);
                check(real, axis, Fourier.Kind.REAL_FORWARD, n, false);
                check(real, axis, Fourier.Kind.REAL_FORWARD, n, true);
                check(x, axis, Fourier.Kind.REAL_INVERSE, n, false);
                check(x, axis, Fourier.Kind.REAL_INVERSE, n, true);
            }
        }
    }

    /** One kind along one axis against the defining sum of each row, built from the row by hand. */
    private static void check(Chunk x, int axis, Fourier.Kind kind, int n, boolean conjugate) {
        double scale = 0.5;
        boolean realOut = kind == Fourier.Kind.REAL_INVERSE;
        Chunk got = Fourier.transform(x, axis, kind, n, scale, conjugate, realOut ? DType.FLOAT64 : DType.COMPLEX128);
        int[] shape = x.shape();
        int outLen = kind.outputLength(n);
        assertThat(got.shape(axis)).isEqualTo(outLen);
        int[] idx = new int[3];
        int other1 = axis == 0 ? 1 : 0;
        int other2 = axis == 2 ? 1 : 2;
        for (int p = 0; p < shape[other1]; p++) {
            for (int q = 0; q < shape[other2]; q++) {
                idx[other1] = p;
                idx[other2] = q;
                // The row, padded or truncated to n; for the real inverse, the whole Hermitian spectrum.
                double[] re = new double[n];
                double[] im = new double[n];
                int len = shape[axis];
                for (int j = 0; j < Math.min(len, kind.inputUsed(n)); j++) {
                    idx[axis] = j;
                    int flat = x.flatIndex(idx);
                    re[j] = x.getDouble(flat);
                    im[j] = x.getImag(flat) * (conjugate && realOut ? -1 : 1);
                }
                if (realOut) {
                    for (int j = 1; j < Math.min(len, n / 2 + 1); j++) {
                        if (n - j > n / 2) {
                            re[n - j] = re[j];
                            im[n - j] = -im[j];
                        }
                    }
                }
                boolean inverse = kind == Fourier.Kind.INVERSE || realOut;
                double[][] want = dft(re, im, n, inverse);
                for (int k = 0; k < outLen; k++) {
                    idx[axis] = k;
                    int flat = got.flatIndex(idx);
                    double wantIm = want[1][k] * (conjugate && !realOut ? -1 : 1);
                    assertThat(got.getDouble(flat))
                            .as("%s n %d axis %d row %d,%d k %d", kind, n, axis, p, q, k)
                            .isCloseTo(want[0][k] * scale, within(n));
                    if (!realOut) {
                        assertThat(got.getImag(flat))
                                .as("%s n %d axis %d row %d,%d k %d imag", kind, n, axis, p, q, k)
                                .isCloseTo(wantIm * scale, within(n));
                    }
                }
            }
        }
    }

    @Test
    void singlePrecisionIsComputedInDoubleAndRoundedOnce() {
        float[] f = {1.1f, 2.2f, 3.3f, 4.4f, 5.5f};
        double[] d = new double[f.length];
        for (int i = 0; i < f.length; i++) {
            d[i] = f[i];
        }
        Chunk single = Fourier.transform(
                Chunk.wrap(DType.FLOAT32, new int[] {5}, f),
                0,
                Fourier.Kind.REAL_FORWARD,
                5,
                1,
                false,
                DType.COMPLEX64);
        Chunk twice = Fourier.transform(
                Chunk.wrap(DType.FLOAT64, new int[] {5}, d),
                0,
                Fourier.Kind.REAL_FORWARD,
                5,
                1,
                false,
                DType.COMPLEX128);
        for (int k = 0; k < 6; k++) {
            assertThat(single.floats()[k]).isEqualTo((float) twice.doubles()[k]);
        }
    }

    @Test
    void badArgumentsAreRefused() {
        Chunk ints = Chunk.allocate(DType.INT32, 4);
        Chunk complex = Chunk.allocate(DType.COMPLEX128, 4);
        assertThatThrownBy(() -> Fourier.transform(ints, 0, Fourier.Kind.FORWARD, 4, 1, false, DType.COMPLEX128))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("int32");
        assertThatThrownBy(
                        () -> Fourier.transform(complex, 0, Fourier.Kind.REAL_FORWARD, 4, 1, false, DType.COMPLEX128))
                .hasMessageContaining("real chunks");
        assertThatThrownBy(() -> Fourier.transform(complex, 0, Fourier.Kind.FORWARD, 4, 1, false, DType.FLOAT64))
                .hasMessageContaining("cannot give float64");
        assertThatThrownBy(() -> Fourier.transform(complex, 1, Fourier.Kind.FORWARD, 4, 1, false, DType.COMPLEX128))
                .hasMessageContaining("axis 1");
        assertThatThrownBy(() -> FftPlan.of(0)).hasMessageContaining("at least 1, got 0");
    }
}
