package io.cubed.chunk;

import io.cubed.error.InvalidArgumentException;

/**
 * The discrete Fourier transform of one length {@code n}, with its tables computed once: an iterative radix-2
 * transform when {@code n} is a power of two, Bluestein's chirp-z algorithm otherwise (the transform written as a
 * convolution with the chirp {@code exp(-πi j²/n)}, computed by power-of-two transforms of length {@code m ≥ 2n − 1}).
 * Both take O(n log n) operations. Transforms work in place on separate real and imaginary {@code double} arrays and
 * are unnormalized: {@link #forward} sums with {@code exp(-2πi jk/n)}, {@link #inverse} with {@code exp(+2πi jk/n)}.
 *
 * <p>A plan holds scratch arrays for Bluestein's convolution, so one plan serves one thread (a task builds its plans
 * and transforms all its rows with them).
 */
public final class FftPlan {
    private final int n;
    // Power of two: cos and -sin of each stage's angles, and the bit-reversal permutation.
    private final double[] cos;
    private final double[] sin;
    private final int[] reversed;
    // Bluestein: the power-of-two plan of the convolution, the chirp, the transformed filter and scratch.
    private final FftPlan convolution;
    private final double[] chirpRe;
    private final double[] chirpIm;
    private final double[] filterRe;
    private final double[] filterIm;
    private final double[] workRe;
    private final double[] workIm;

    private FftPlan(int n) {
        if (n < 1) {
            throw new InvalidArgumentException("an FFT needs a length of at least 1, got " + n);
        }
        this.n = n;
        if (isPowerOfTwo(n)) {
            // The twiddles exp(-2πi k/len), k < len/2, of each stage len = 2·half, one after another from half - 1.
            cos = new double[n - 1];
            sin = new double[n - 1];
            for (int half = 1; half < n; half <<= 1) {
                for (int k = 0; k < half; k++) {
                    double angle = Math.PI * k / half;
                    cos[half - 1 + k] = Math.cos(angle);
                    sin[half - 1 + k] = -Math.sin(angle);
                }
            }
            reversed = new int[n];
            int bits = Integer.numberOfTrailingZeros(n);
            for (int i = 0; i < n; i++) {
                reversed[i] = bits == 0 ? 0 : Integer.reverse(i) >>> (32 - bits);
            }
            convolution = null;
            chirpRe = chirpIm = filterRe = filterIm = workRe = workIm = null;
        } else {
            cos = sin = null;
            reversed = null;
            int m = convolutionLength(n);
            convolution = new FftPlan(m);
            chirpRe = new double[n];
            chirpIm = new double[n];
            long twoN = 2L * n;
            for (int j = 0; j < n; j++) {
                // j² mod 2n keeps the angle small, so the chirp is exact to rounding for any n.
                long e = (long) j * j % twoN;
                double angle = Math.PI * e / n;
                chirpRe[j] = Math.cos(angle);
                chirpIm[j] = -Math.sin(angle);
            }
            filterRe = new double[m];
            filterIm = new double[m];
            filterRe[0] = 1;
            for (int j = 1; j < n; j++) {
                // The conjugate chirp, at j and wrapped around at m - j (the convolution is cyclic).
                filterRe[j] = filterRe[m - j] = chirpRe[j];
                filterIm[j] = filterIm[m - j] = -chirpIm[j];
            }
            convolution.forward(filterRe, filterIm);
            workRe = new double[m];
            workIm = new double[m];
        }
    }

    /** The plan of length {@code n} (at least 1). */
    public static FftPlan of(int n) {
        return new FftPlan(n);
    }

    /** The length this plan transforms. */
    public int length() {
        return n;
    }

    /** True for the power-of-two lengths, which take the radix-2 path. */
    public static boolean isPowerOfTwo(int n) {
        return n > 0 && (n & (n - 1)) == 0;
    }

    /** The power-of-two length of Bluestein's convolution for {@code n}: the smallest at least {@code 2n − 1}. */
    static int convolutionLength(int n) {
        long need = 2L * n - 1;
        long m = Long.highestOneBit(need);
        if (m < need) {
            m <<= 1;
        }
        if (m > 1 << 30) {
            throw new InvalidArgumentException("an FFT of length " + n + " is too long for one row (its Bluestein "
                    + "convolution would need " + m + " points)");
        }
        return (int) m;
    }

    /**
     * Bytes of the tables and scratch a plan of length {@code n} holds: for a power of two, the twiddles of every
     * stage ({@code n − 1} cosines and sines, 16 bytes each) and the permutation ({@code n} ints); for Bluestein, the
     * chirp (16 per point), filter and scratch (32 per point of the convolution length m) and the power-of-two plan of
     * m.
     */
    public static long workspaceBytes(int n) {
        if (isPowerOfTwo(n)) {
            return 16L * (n - 1) + 4L * n;
        }
        int m = convolutionLength(n);
        return 16L * n + 32L * m + workspaceBytes(m);
    }

    /** The forward transform of the first {@code n} elements of {@code re}, {@code im}, in place. */
    public void forward(double[] re, double[] im) {
        if (convolution == null) {
            radix2(re, im, 1);
        } else {
            bluestein(re, im);
        }
    }

    /** The inverse transform (without the 1/n factor) of the first {@code n} elements, in place. */
    public void inverse(double[] re, double[] im) {
        if (convolution == null) {
            radix2(re, im, -1);
            return;
        }
        // The inverse transform is the forward transform of the conjugate, conjugated.
        for (int i = 0; i < n; i++) {
            im[i] = -im[i];
        }
        bluestein(re, im);
        for (int i = 0; i < n; i++) {
            im[i] = -im[i];
        }
    }

    /** Decimation in time: bit-reversed order, then stages of butterflies; {@code sign} −1 conjugates the twiddles. */
    private void radix2(double[] re, double[] im, int sign) {
        for (int i = 0; i < n; i++) {
            int j = reversed[i];
            if (i < j) {
                double t = re[i];
                re[i] = re[j];
                re[j] = t;
                t = im[i];
                im[i] = im[j];
                im[j] = t;
            }
        }
        // The first stage multiplies by 1 only.
        for (int a = 0; a + 1 < n; a += 2) {
            double xr = re[a + 1];
            double xi = im[a + 1];
            re[a + 1] = re[a] - xr;
            im[a + 1] = im[a] - xi;
            re[a] += xr;
            im[a] += xi;
        }
        for (int half = 2; half < n; half <<= 1) {
            int len = half << 1;
            int base = half - 1;
            for (int start = 0; start < n; start += len) {
                for (int k = 0; k < half; k++) {
                    int a = start + k;
                    int b = a + half;
                    double wr = cos[base + k];
                    double wi = sign * sin[base + k];
                    double xr = re[b] * wr - im[b] * wi;
                    double xi = re[b] * wi + im[b] * wr;
                    re[b] = re[a] - xr;
                    im[b] = im[a] - xi;
                    re[a] += xr;
                    im[a] += xi;
                }
            }
        }
    }

    private void bluestein(double[] re, double[] im) {
        int m = workRe.length;
        // jk = (j² + k² − (k − j)²) / 2, so X[k] = chirp[k] · Σ_j (x[j] chirp[j]) · conj(chirp[k − j]).
        for (int j = 0; j < n; j++) {
            workRe[j] = re[j] * chirpRe[j] - im[j] * chirpIm[j];
            workIm[j] = re[j] * chirpIm[j] + im[j] * chirpRe[j];
        }
        java.util.Arrays.fill(workRe, n, m, 0);
        java.util.Arrays.fill(workIm, n, m, 0);
        convolution.forward(workRe, workIm);
        for (int i = 0; i < m; i++) {
            double r = workRe[i] * filterRe[i] - workIm[i] * filterIm[i];
            double s = workRe[i] * filterIm[i] + workIm[i] * filterRe[i];
            workRe[i] = r;
            workIm[i] = s;
        }
        convolution.inverse(workRe, workIm);
        double scale = 1.0 / m;
        for (int k = 0; k < n; k++) {
            double r = workRe[k] * scale;
            double s = workIm[k] * scale;
            re[k] = r * chirpRe[k] - s * chirpIm[k];
            im[k] = r * chirpIm[k] + s * chirpRe[k];
        }
    }
}
