package io.cubed.chunk;

import io.cubed.dtype.DType;
import io.cubed.error.InvalidArgumentException;
import java.util.Arrays;

/**
 * Discrete Fourier transforms of a chunk along one axis, row by row (a row: the elements along the axis at fixed
 * other coordinates), with one {@link FftPlan} per call: the tables are built once per chunk and serve every row.
 * Rows are computed in {@code double} and rounded once to the output type (complex64 or float32 for single-precision
 * inputs). Each row is truncated or zero-padded to the transform length {@code n} as NumPy does.
 */
public final class Fourier {
    private Fourier() {}

    /** The kind of transform, by what goes in and out. */
    public enum Kind {
        /** Complex (or real) in, n complex out, {@code exp(-2πi jk/n)}: {@code fft}. */
        FORWARD,
        /** Complex (or real) in, n complex out, {@code exp(+2πi jk/n)}: {@code ifft}. */
        INVERSE,
        /** Real in, the n / 2 + 1 non-negative frequencies out: {@code rfft}, and {@code ihfft} conjugated. */
        REAL_FORWARD,
        /**
         * The n / 2 + 1 non-negative frequencies of a Hermitian-symmetric spectrum in, n real values out (the inverse
         * transform of the whole spectrum): {@code irfft}, and {@code hfft} of the conjugate.
         */
        REAL_INVERSE;

        /** Elements along the axis in the output of a transform of length {@code n}. */
        public int outputLength(int n) {
            return this == REAL_FORWARD ? n / 2 + 1 : n;
        }

        /** Elements of each input row that the transform of length {@code n} reads (the rest is ignored). */
        public int inputUsed(int n) {
            return this == REAL_INVERSE ? n / 2 + 1 : n;
        }
    }

    /**
     * Bytes a call holds besides its input and output chunks: the plan of length {@code n} and two rows of doubles.
     */
    public static long workspaceBytes(int n) {
        return FftPlan.workspaceBytes(n) + 16L * n;
    }

    /**
     * The transform of every row of {@code x} along {@code axis}, of length {@code n}, times {@code scale}, as a new
     * chunk of type {@code outType} (complex for the complex-valued kinds, real for {@link Kind#REAL_INVERSE}) whose
     * length along {@code axis} is {@code kind.outputLength(n)}. With {@code conjugate}, the complex side is
     * conjugated: the input of {@link Kind#REAL_INVERSE} ({@code hfft}), the output of {@link Kind#REAL_FORWARD}
     * ({@code ihfft}).
     */
    public static Chunk transform(Chunk x, int axis, Kind kind, int n, double scale, boolean conjugate, DType outType) {
        DType in = x.dtype();
        if (!in.isFloating() && !in.isComplex()) {
            throw new InvalidArgumentException("an FFT takes floating-point or complex chunks, got " + in);
        }
        if (kind == Kind.REAL_FORWARD && in.isComplex()) {
            throw new InvalidArgumentException("a real-input FFT takes real chunks, got " + in);
        }
        boolean complexOut = kind != Kind.REAL_INVERSE;
        if (complexOut ? !outType.isComplex() : !outType.isFloating()) {
            throw new InvalidArgumentException("an FFT of kind " + kind + " cannot give " + outType);
        }
        if (axis < 0 || axis >= x.ndim()) {
            throw new InvalidArgumentException(
                    "axis " + axis + " is not an axis of a chunk of shape " + Arrays.toString(x.shape()));
        }
        FftPlan plan = FftPlan.of(n);
        int[] shape = x.shape();
        int len = shape[axis];
        int inner = 1;
        for (int a = axis + 1; a < shape.length; a++) {
            inner *= shape[a];
        }
        int outer = 1;
        for (int a = 0; a < axis; a++) {
            outer *= shape[a];
        }
        int outLen = kind.outputLength(n);
        int[] outShape = shape.clone();
        outShape[axis] = outLen;
        Chunk out = Chunk.allocate(outType, outShape);
        int used = Math.min(len, kind.inputUsed(n));
        double[] re = new double[n];
        double[] im = new double[n];
        double sign = conjugate ? -1 : 1;
        for (int o = 0; o < outer; o++) {
            for (int k = 0; k < inner; k++) {
                int inBase = o * len * inner + k;
                int outBase = o * outLen * inner + k;
                Arrays.fill(re, 0);
                Arrays.fill(im, 0);
                load(x, inBase, inner, used, re, im);
                switch (kind) {
                    case FORWARD -> plan.forward(re, im);
                    case INVERSE -> plan.inverse(re, im);
                    case REAL_FORWARD -> {
                        plan.forward(re, im);
                        if (conjugate) {
                            for (int i = 0; i < outLen; i++) {
                                im[i] = -im[i];
                            }
                        }
                    }
                    case REAL_INVERSE -> {
                        // The whole spectrum: X[n - j] = conj(X[j]); X[0] and X[n/2] only add imaginary parts to the
                        // result, which are dropped, as NumPy drops them.
                        for (int j = 0; j < used; j++) {
                            im[j] *= sign;
                        }
                        for (int j = 1; j < used && n - j > n / 2; j++) {
                            re[n - j] = re[j];
                            im[n - j] = -im[j];
                        }
                        plan.inverse(re, im);
                    }
                }
                store(out, outBase, inner, outLen, re, complexOut ? im : null, scale);
            }
        }
        return out;
    }

    /** Reads {@code used} elements of the row at {@code base} (stride {@code stride}) into {@code re}, {@code im}. */
    private static void load(Chunk x, int base, int stride, int used, double[] re, double[] im) {
        switch (x.dtype()) {
            case FLOAT64 -> {
                double[] d = x.doubles();
                for (int i = 0, p = base; i < used; i++, p += stride) {
                    re[i] = d[p];
                }
            }
            case FLOAT32 -> {
                float[] f = x.floats();
                for (int i = 0, p = base; i < used; i++, p += stride) {
                    re[i] = f[p];
                }
            }
            case COMPLEX128 -> {
                double[] d = x.doubles();
                for (int i = 0, p = base; i < used; i++, p += stride) {
                    re[i] = d[2 * p];
                    im[i] = d[2 * p + 1];
                }
            }
            case COMPLEX64 -> {
                float[] f = x.floats();
                for (int i = 0, p = base; i < used; i++, p += stride) {
                    re[i] = f[2 * p];
                    im[i] = f[2 * p + 1];
                }
            }
            default -> throw new AssertionError(x.dtype());
        }
    }

    /** Writes {@code count} scaled elements to the row at {@code base}; {@code im == null} writes real values. */
    private static void store(Chunk out, int base, int stride, int count, double[] re, double[] im, double scale) {
        switch (out.dtype()) {
            case FLOAT64 -> {
                double[] d = out.doubles();
                for (int i = 0, p = base; i < count; i++, p += stride) {
                    d[p] = re[i] * scale;
                }
            }
            case FLOAT32 -> {
                float[] f = out.floats();
                for (int i = 0, p = base; i < count; i++, p += stride) {
                    f[p] = (float) (re[i] * scale);
                }
            }
            case COMPLEX128 -> {
                double[] d = out.doubles();
                for (int i = 0, p = base; i < count; i++, p += stride) {
                    d[2 * p] = re[i] * scale;
                    d[2 * p + 1] = im[i] * scale;
                }
            }
            case COMPLEX64 -> {
                float[] f = out.floats();
                for (int i = 0, p = base; i < count; i++, p += stride) {
                    f[2 * p] = (float) (re[i] * scale);
                    f[2 * p + 1] = (float) (im[i] * scale);
                }
            }
            default -> throw new AssertionError(out.dtype());
        }
    }
}
