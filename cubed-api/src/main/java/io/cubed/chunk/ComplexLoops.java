package io.cubed.chunk;

/**
 * Loops on complex values held as interleaved doubles (real, imaginary, …), one method per function of
 * {@link UnaryFunction} and {@link BinaryFunction}; complex64 chunks are widened, computed here and rounded back once.
 * The elementary functions apply one {@link ComplexMath} function to every element ({@link #each}).
 */
final class ComplexLoops {
    private ComplexLoops() {}

    /** The loop applying {@code f} to every element. */
    static Kernels.UnaryComplex each(Kernels.ComplexElement f) {
        return z -> {
            double[] out = new double[z.length];
            for (int i = 0; i < z.length; i += 2) {
                f.apply(z[i], z[i + 1], out, i);
            }
            return out;
        };
    }

    // ---- unary: real results ----

    static double[] abs(double[] z) {
        double[] r = new double[z.length / 2];
        for (int i = 0; i < r.length; i++) {
            r[i] = Math.hypot(z[2 * i], z[2 * i + 1]);
        }
        return r;
    }

    static double[] real(double[] z) {
        double[] r = new double[z.length / 2];
        for (int i = 0; i < r.length; i++) {
            r[i] = z[2 * i];
        }
        return r;
    }

    static double[] imag(double[] z) {
        double[] r = new double[z.length / 2];
        for (int i = 0; i < r.length; i++) {
            r[i] = z[2 * i + 1];
        }
        return r;
    }

    // ---- unary: predicates ----

    static boolean[] isnan(double[] z) {
        boolean[] b = new boolean[z.length / 2];
        for (int i = 0; i < b.length; i++) {
            b[i] = Double.isNaN(z[2 * i]) || Double.isNaN(z[2 * i + 1]);
        }
        return b;
    }

    static boolean[] isinf(double[] z) {
        boolean[] b = new boolean[z.length / 2];
        for (int i = 0; i < b.length; i++) {
            b[i] = Double.isInfinite(z[2 * i]) || Double.isInfinite(z[2 * i + 1]);
        }
        return b;
    }

    static boolean[] isfinite(double[] z) {
        boolean[] b = new boolean[z.length / 2];
        for (int i = 0; i < b.length; i++) {
            b[i] = Double.isFinite(z[2 * i]) && Double.isFinite(z[2 * i + 1]);
        }
        return b;
    }

    // ---- unary: plain loops ----

    static double[] conj(double[] z) {
        double[] out = new double[z.length];
        for (int i = 0; i < z.length; i += 2) {
            out[i] = z[i];
            out[i + 1] = -z[i + 1];
        }
        return out;
    }

    static double[] negative(double[] z) {
        double[] out = new double[z.length];
        for (int i = 0; i < z.length; i++) {
            out[i] = -z[i];
        }
        return out;
    }

    static double[] positive(double[] z) {
        return z.clone();
    }

    /** Both parts rounded half to even, as NumPy does. */
    static double[] round(double[] z) {
        double[] out = new double[z.length];
        for (int i = 0; i < z.length; i++) {
            out[i] = Math.rint(z[i]);
        }
        return out;
    }

    static double[] square(double[] z) {
        double[] out = new double[z.length];
        for (int i = 0; i < z.length; i += 2) {
            double x = z[i];
            double y = z[i + 1];
            out[i] = x * x - y * y;
            out[i + 1] = x * y + y * x;
        }
        return out;
    }

    /** 1 / z, with the special cases of {@code divide(1 + 0i, z)}, as the standard specifies. */
    static double[] reciprocal(double[] z) {
        double[] out = new double[z.length];
        for (int i = 0; i < z.length; i += 2) {
            ComplexMath.divide(1.0, 0.0, z[i], z[i + 1], out, i);
        }
        return out;
    }

    // ---- binary ----

    static boolean[] equal(double[] a, double[] b) {
        boolean[] r = new boolean[a.length / 2];
        for (int i = 0; i < a.length; i += 2) {
            r[i / 2] = a[i] == b[i] && a[i + 1] == b[i + 1];
        }
        return r;
    }

    static boolean[] notEqual(double[] a, double[] b) {
        boolean[] r = new boolean[a.length / 2];
        for (int i = 0; i < a.length; i += 2) {
            r[i / 2] = a[i] != b[i] || a[i + 1] != b[i + 1];
        }
        return r;
    }

    static double[] add(double[] a, double[] b) {
        double[] out = new double[a.length];
        for (int i = 0; i < a.length; i++) {
            out[i] = a[i] + b[i];
        }
        return out;
    }

    static double[] subtract(double[] a, double[] b) {
        double[] out = new double[a.length];
        for (int i = 0; i < a.length; i++) {
            out[i] = a[i] - b[i];
        }
        return out;
    }

    static double[] multiply(double[] a, double[] b) {
        double[] out = new double[a.length];
        for (int i = 0; i < a.length; i += 2) {
            double ar = a[i];
            double ai = a[i + 1];
            double br = b[i];
            double bi = b[i + 1];
            out[i] = ar * br - ai * bi;
            out[i + 1] = ar * bi + ai * br;
        }
        return out;
    }

    static double[] divide(double[] a, double[] b) {
        double[] out = new double[a.length];
        for (int i = 0; i < a.length; i += 2) {
            ComplexMath.divide(a[i], a[i + 1], b[i], b[i + 1], out, i);
        }
        return out;
    }

    static double[] pow(double[] a, double[] b) {
        double[] out = new double[a.length];
        for (int i = 0; i < a.length; i += 2) {
            ComplexMath.pow(a[i], a[i + 1], b[i], b[i + 1], out, i);
        }
        return out;
    }
}
