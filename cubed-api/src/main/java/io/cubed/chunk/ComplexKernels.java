package io.cubed.chunk;

/**
 * Kernels on complex values held as interleaved doubles (real, imaginary, …); complex64 chunks are widened, computed
 * here and rounded back once.
 */
final class ComplexKernels {
    private ComplexKernels() {}

    /**
     * A unary function of an interleaved complex array of {@code n} elements: an interleaved {@code double[]}, a
     * {@code double[]} of {@code n} reals (abs, real, imag) or a {@code boolean[]} (predicates).
     */
    static Object unary(UnaryFunction f, double[] z) {
        int n = z.length / 2;
        switch (f) {
            case ABS:
            case REAL:
            case IMAG:
                double[] r = new double[n];
                for (int i = 0; i < n; i++) {
                    r[i] = f == UnaryFunction.ABS
                            ? Math.hypot(z[2 * i], z[2 * i + 1])
                            : f == UnaryFunction.REAL ? z[2 * i] : z[2 * i + 1];
                }
                return r;
            case ISNAN:
            case ISINF:
            case ISFINITE:
                boolean[] b = new boolean[n];
                for (int i = 0; i < n; i++) {
                    double x = z[2 * i];
                    double y = z[2 * i + 1];
                    b[i] = f == UnaryFunction.ISNAN
                            ? Double.isNaN(x) || Double.isNaN(y)
                            : f == UnaryFunction.ISINF
                                    ? Double.isInfinite(x) || Double.isInfinite(y)
                                    : Double.isFinite(x) && Double.isFinite(y);
                }
                return b;
            default:
                double[] out = new double[z.length];
                if (!simple(f, z, out)) {
                    for (int i = 0; i < z.length; i += 2) {
                        elementary(f, z[i], z[i + 1], out, i);
                    }
                }
                return out;
        }
    }

    /** The functions that are plain loops; false when {@code f} is not one of them. */
    private static boolean simple(UnaryFunction f, double[] z, double[] out) {
        int len = z.length;
        switch (f) {
            case CONJ:
                for (int i = 0; i < len; i += 2) {
                    out[i] = z[i];
                    out[i + 1] = -z[i + 1];
                }
                return true;
            case NEGATIVE:
                for (int i = 0; i < len; i++) {
                    out[i] = -z[i];
                }
                return true;
            case POSITIVE:
                System.arraycopy(z, 0, out, 0, len);
                return true;
            case ROUND:
                for (int i = 0; i < len; i++) {
                    out[i] = Math.rint(z[i]);
                }
                return true;
            case SQUARE:
                for (int i = 0; i < len; i += 2) {
                    double x = z[i];
                    double y = z[i + 1];
                    out[i] = x * x - y * y;
                    out[i + 1] = x * y + y * x;
                }
                return true;
            default:
                return false;
        }
    }

    private static void elementary(UnaryFunction f, double x, double y, double[] out, int o) {
        switch (f) {
            case SQRT -> ComplexMath.sqrt(x, y, out, o);
            case EXP -> ComplexMath.exp(x, y, out, o);
            case EXPM1 -> ComplexMath.expm1(x, y, out, o);
            case LOG -> ComplexMath.log(x, y, out, o);
            case LOG1P -> ComplexMath.log1p(x, y, out, o);
            case LOG2 -> ComplexMath.log2(x, y, out, o);
            case LOG10 -> ComplexMath.log10(x, y, out, o);
            case SIN -> ComplexMath.sin(x, y, out, o);
            case COS -> ComplexMath.cos(x, y, out, o);
            case TAN -> ComplexMath.tan(x, y, out, o);
            case SINH -> ComplexMath.sinh(x, y, out, o);
            case COSH -> ComplexMath.cosh(x, y, out, o);
            case TANH -> ComplexMath.tanh(x, y, out, o);
            case ASIN -> ComplexMath.asin(x, y, out, o);
            case ACOS -> ComplexMath.acos(x, y, out, o);
            case ATAN -> ComplexMath.atan(x, y, out, o);
            case ASINH -> ComplexMath.asinh(x, y, out, o);
            case ACOSH -> ComplexMath.acosh(x, y, out, o);
            case ATANH -> ComplexMath.atanh(x, y, out, o);
            case SIGN -> ComplexMath.sign(x, y, out, o);
            default -> throw new AssertionError(f);
        }
    }

    /** A binary function of two interleaved complex arrays: interleaved {@code double[]} or {@code boolean[]}. */
    static Object binary(BinaryFunction f, double[] a, double[] b) {
        int len = a.length;
        if (f == BinaryFunction.EQUAL || f == BinaryFunction.NOT_EQUAL) {
            boolean[] r = new boolean[len / 2];
            boolean eq = f == BinaryFunction.EQUAL;
            for (int i = 0; i < len; i += 2) {
                r[i / 2] = (a[i] == b[i] && a[i + 1] == b[i + 1]) == eq;
            }
            return r;
        }
        double[] out = new double[len];
        switch (f) {
            case ADD:
                for (int i = 0; i < len; i++) {
                    out[i] = a[i] + b[i];
                }
                return out;
            case SUBTRACT:
                for (int i = 0; i < len; i++) {
                    out[i] = a[i] - b[i];
                }
                return out;
            case MULTIPLY:
                for (int i = 0; i < len; i += 2) {
                    double ar = a[i];
                    double ai = a[i + 1];
                    double br = b[i];
                    double bi = b[i + 1];
                    out[i] = ar * br - ai * bi;
                    out[i + 1] = ar * bi + ai * br;
                }
                return out;
            case DIVIDE:
                for (int i = 0; i < len; i += 2) {
                    ComplexMath.divide(a[i], a[i + 1], b[i], b[i + 1], out, i);
                }
                return out;
            case POW:
                for (int i = 0; i < len; i += 2) {
                    ComplexMath.pow(a[i], a[i + 1], b[i], b[i + 1], out, i);
                }
                return out;
            default:
                throw new AssertionError(f);
        }
    }
}
