package io.cubed.chunk;

/**
 * Unary kernels on real floating-point values held as doubles. float32 chunks are widened, computed here and rounded
 * back once: exact for the correctly rounded operations (sqrt, square, rounding functions) and more accurate than
 * float32 libm for the transcendental ones.
 */
final class RealKernels {
    private RealKernels() {}

    /** A unary function of a real floating array: a {@code double[]}, or a {@code boolean[]} for the predicates. */
    static Object unary(UnaryFunction f, double[] x) {
        int n = x.length;
        double[] out = new double[n];
        switch (f) {
            case ABS:
                for (int i = 0; i < n; i++) {
                    out[i] = Math.abs(x[i]);
                }
                return out;
            case NEGATIVE:
                for (int i = 0; i < n; i++) {
                    out[i] = -x[i];
                }
                return out;
            case POSITIVE:
                System.arraycopy(x, 0, out, 0, n);
                return out;
            case SQUARE:
                for (int i = 0; i < n; i++) {
                    out[i] = x[i] * x[i];
                }
                return out;
            case SQRT:
                for (int i = 0; i < n; i++) {
                    out[i] = Math.sqrt(x[i]);
                }
                return out;
            case CEIL:
                for (int i = 0; i < n; i++) {
                    out[i] = Math.ceil(x[i]);
                }
                return out;
            case FLOOR:
                for (int i = 0; i < n; i++) {
                    out[i] = Math.floor(x[i]);
                }
                return out;
            case TRUNC:
                for (int i = 0; i < n; i++) {
                    out[i] = x[i] < 0 ? Math.ceil(x[i]) : Math.floor(x[i]);
                }
                return out;
            case ROUND:
                for (int i = 0; i < n; i++) {
                    out[i] = Math.rint(x[i]); // half to even
                }
                return out;
            case SIGN:
                for (int i = 0; i < n; i++) {
                    out[i] = RealMath.sign(x[i]);
                }
                return out;
            case EXP:
                for (int i = 0; i < n; i++) {
                    out[i] = Math.exp(x[i]);
                }
                return out;
            case EXPM1:
                for (int i = 0; i < n; i++) {
                    out[i] = Math.expm1(x[i]);
                }
                return out;
            case LOG:
                for (int i = 0; i < n; i++) {
                    out[i] = Math.log(x[i]);
                }
                return out;
            case LOG1P:
                for (int i = 0; i < n; i++) {
                    out[i] = Math.log1p(x[i]);
                }
                return out;
            case LOG2:
                for (int i = 0; i < n; i++) {
                    out[i] = RealMath.log2(x[i]);
                }
                return out;
            case LOG10:
                for (int i = 0; i < n; i++) {
                    out[i] = Math.log10(x[i]);
                }
                return out;
            default:
                return trig(f, x, out);
        }
    }

    private static Object trig(UnaryFunction f, double[] x, double[] out) {
        int n = x.length;
        switch (f) {
            case SIN:
                for (int i = 0; i < n; i++) {
                    out[i] = Math.sin(x[i]);
                }
                return out;
            case COS:
                for (int i = 0; i < n; i++) {
                    out[i] = Math.cos(x[i]);
                }
                return out;
            case TAN:
                for (int i = 0; i < n; i++) {
                    out[i] = Math.tan(x[i]);
                }
                return out;
            case ASIN:
                for (int i = 0; i < n; i++) {
                    out[i] = Math.asin(x[i]);
                }
                return out;
            case ACOS:
                for (int i = 0; i < n; i++) {
                    out[i] = Math.acos(x[i]);
                }
                return out;
            case ATAN:
                for (int i = 0; i < n; i++) {
                    out[i] = Math.atan(x[i]);
                }
                return out;
            case SINH:
                for (int i = 0; i < n; i++) {
                    out[i] = Math.sinh(x[i]);
                }
                return out;
            case COSH:
                for (int i = 0; i < n; i++) {
                    out[i] = Math.cosh(x[i]);
                }
                return out;
            case TANH:
                for (int i = 0; i < n; i++) {
                    out[i] = Math.tanh(x[i]);
                }
                return out;
            case ASINH:
                for (int i = 0; i < n; i++) {
                    out[i] = RealMath.asinh(x[i]);
                }
                return out;
            case ACOSH:
                for (int i = 0; i < n; i++) {
                    out[i] = RealMath.acosh(x[i]);
                }
                return out;
            case ATANH:
                for (int i = 0; i < n; i++) {
                    out[i] = RealMath.atanh(x[i]);
                }
                return out;
            default:
                return predicate(f, x);
        }
    }

    private static boolean[] predicate(UnaryFunction f, double[] x) {
        int n = x.length;
        boolean[] r = new boolean[n];
        switch (f) {
            case ISNAN:
                for (int i = 0; i < n; i++) {
                    r[i] = Double.isNaN(x[i]);
                }
                return r;
            case ISINF:
                for (int i = 0; i < n; i++) {
                    r[i] = Double.isInfinite(x[i]);
                }
                return r;
            case ISFINITE:
                for (int i = 0; i < n; i++) {
                    r[i] = Double.isFinite(x[i]);
                }
                return r;
            case SIGNBIT:
                for (int i = 0; i < n; i++) {
                    r[i] = Double.doubleToRawLongBits(x[i]) < 0;
                }
                return r;
            default:
                throw new AssertionError(f);
        }
    }
}
