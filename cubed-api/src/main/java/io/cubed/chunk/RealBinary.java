package io.cubed.chunk;

import io.cubed.dtype.DType;

/**
 * Binary kernels on real floating-point arrays of the same length: explicit loops per function, in double for float64
 * and directly in float for float32 where float arithmetic matters (the four arithmetic operations, nextafter, floor
 * division and remainder); the other float32 functions are computed in double and rounded once.
 *
 * <p>maximum and minimum propagate NaN and, for equal arguments (including -0.0 and +0.0), return the second one,
 * as NumPy does.
 */
final class RealBinary {
    private RealBinary() {}

    /** A binary function of two float64 arrays: a {@code double[]}, or a {@code boolean[]} for comparisons. */
    static Object apply(BinaryFunction f, double[] a, double[] b) {
        int n = a.length;
        if (f.resultType(DType.FLOAT64) == DType.BOOL) {
            return compare(f, a, b);
        }
        double[] out = new double[n];
        switch (f) {
            case ADD:
                for (int i = 0; i < n; i++) {
                    out[i] = a[i] + b[i];
                }
                return out;
            case SUBTRACT:
                for (int i = 0; i < n; i++) {
                    out[i] = a[i] - b[i];
                }
                return out;
            case MULTIPLY:
                for (int i = 0; i < n; i++) {
                    out[i] = a[i] * b[i];
                }
                return out;
            case DIVIDE:
                for (int i = 0; i < n; i++) {
                    out[i] = a[i] / b[i];
                }
                return out;
            case MAXIMUM:
                for (int i = 0; i < n; i++) {
                    out[i] = a[i] > b[i] || Double.isNaN(a[i]) ? a[i] : b[i];
                }
                return out;
            case MINIMUM:
                for (int i = 0; i < n; i++) {
                    out[i] = a[i] < b[i] || Double.isNaN(a[i]) ? a[i] : b[i];
                }
                return out;
            case POW:
                for (int i = 0; i < n; i++) {
                    out[i] = RealMath.pow(a[i], b[i]);
                }
                return out;
            case ATAN2:
                for (int i = 0; i < n; i++) {
                    out[i] = Math.atan2(a[i], b[i]);
                }
                return out;
            case HYPOT:
                for (int i = 0; i < n; i++) {
                    out[i] = Math.hypot(a[i], b[i]);
                }
                return out;
            case COPYSIGN:
                for (int i = 0; i < n; i++) {
                    out[i] = Math.copySign(a[i], b[i]);
                }
                return out;
            case NEXTAFTER:
                for (int i = 0; i < n; i++) {
                    out[i] = Math.nextAfter(a[i], b[i]);
                }
                return out;
            case LOGADDEXP:
                for (int i = 0; i < n; i++) {
                    out[i] = RealMath.logaddexp(a[i], b[i]);
                }
                return out;
            case FLOOR_DIVIDE:
                for (int i = 0; i < n; i++) {
                    out[i] = RealMath.floorDivide(a[i], b[i]);
                }
                return out;
            case REMAINDER:
                for (int i = 0; i < n; i++) {
                    out[i] = RealMath.remainder(a[i], b[i]);
                }
                return out;
            default:
                return compare(f, a, b);
        }
    }

    private static boolean[] compare(BinaryFunction f, double[] a, double[] b) {
        int n = a.length;
        boolean[] r = new boolean[n];
        switch (f) {
            case EQUAL:
                for (int i = 0; i < n; i++) {
                    r[i] = a[i] == b[i];
                }
                return r;
            case NOT_EQUAL:
                for (int i = 0; i < n; i++) {
                    r[i] = a[i] != b[i];
                }
                return r;
            case GREATER:
                for (int i = 0; i < n; i++) {
                    r[i] = a[i] > b[i];
                }
                return r;
            case GREATER_EQUAL:
                for (int i = 0; i < n; i++) {
                    r[i] = a[i] >= b[i];
                }
                return r;
            case LESS:
                for (int i = 0; i < n; i++) {
                    r[i] = a[i] < b[i];
                }
                return r;
            case LESS_EQUAL:
                for (int i = 0; i < n; i++) {
                    r[i] = a[i] <= b[i];
                }
                return r;
            default:
                throw new AssertionError(f);
        }
    }

    /**
     * The float32 loops for the functions whose float arithmetic differs from double-then-round, or that are hot;
     * null for the others.
     */
    static float[] applyFloat(BinaryFunction f, float[] a, float[] b) {
        int n = a.length;
        float[] out = new float[n];
        switch (f) {
            case ADD:
                for (int i = 0; i < n; i++) {
                    out[i] = a[i] + b[i];
                }
                return out;
            case SUBTRACT:
                for (int i = 0; i < n; i++) {
                    out[i] = a[i] - b[i];
                }
                return out;
            case MULTIPLY:
                for (int i = 0; i < n; i++) {
                    out[i] = a[i] * b[i];
                }
                return out;
            case DIVIDE:
                for (int i = 0; i < n; i++) {
                    out[i] = a[i] / b[i];
                }
                return out;
            case MAXIMUM:
                for (int i = 0; i < n; i++) {
                    out[i] = a[i] > b[i] || Float.isNaN(a[i]) ? a[i] : b[i];
                }
                return out;
            case MINIMUM:
                for (int i = 0; i < n; i++) {
                    out[i] = a[i] < b[i] || Float.isNaN(a[i]) ? a[i] : b[i];
                }
                return out;
            case NEXTAFTER:
                for (int i = 0; i < n; i++) {
                    out[i] = Math.nextAfter(a[i], b[i]);
                }
                return out;
            case FLOOR_DIVIDE:
                for (int i = 0; i < n; i++) {
                    out[i] = RealMath.floorDivide(a[i], b[i]);
                }
                return out;
            case REMAINDER:
                for (int i = 0; i < n; i++) {
                    out[i] = RealMath.remainder(a[i], b[i]);
                }
                return out;
            default:
                return null;
        }
    }

    /**
     * The hot float64 functions with one operand a single value: {@code f(a[i], s)} when {@code scalarRight}, else
     * {@code f(s, a[i])}; null for the other functions (the caller broadcasts instead). Saves expanding the scalar to
     * a whole chunk.
     */
    static double[] applyScalar(BinaryFunction f, double[] a, double s, boolean scalarRight) {
        int n = a.length;
        double[] out = new double[n];
        switch (f) {
            case ADD:
                for (int i = 0; i < n; i++) {
                    out[i] = a[i] + s;
                }
                return out;
            case SUBTRACT:
                if (scalarRight) {
                    for (int i = 0; i < n; i++) {
                        out[i] = a[i] - s;
                    }
                } else {
                    for (int i = 0; i < n; i++) {
                        out[i] = s - a[i];
                    }
                }
                return out;
            case MULTIPLY:
                for (int i = 0; i < n; i++) {
                    out[i] = a[i] * s;
                }
                return out;
            case DIVIDE:
                if (scalarRight) {
                    for (int i = 0; i < n; i++) {
                        out[i] = a[i] / s;
                    }
                } else {
                    for (int i = 0; i < n; i++) {
                        out[i] = s / a[i];
                    }
                }
                return out;
            case MAXIMUM:
                if (scalarRight) {
                    for (int i = 0; i < n; i++) {
                        out[i] = a[i] > s || Double.isNaN(a[i]) ? a[i] : s;
                    }
                } else {
                    for (int i = 0; i < n; i++) {
                        out[i] = s > a[i] || Double.isNaN(s) ? s : a[i];
                    }
                }
                return out;
            case MINIMUM:
                if (scalarRight) {
                    for (int i = 0; i < n; i++) {
                        out[i] = a[i] < s || Double.isNaN(a[i]) ? a[i] : s;
                    }
                } else {
                    for (int i = 0; i < n; i++) {
                        out[i] = s < a[i] || Double.isNaN(s) ? s : a[i];
                    }
                }
                return out;
            default:
                return null;
        }
    }

    /** {@link #applyScalar(BinaryFunction, double[], double, boolean)} in float32 arithmetic. */
    static float[] applyScalarFloat(BinaryFunction f, float[] a, float s, boolean scalarRight) {
        int n = a.length;
        float[] out = new float[n];
        switch (f) {
            case ADD:
                for (int i = 0; i < n; i++) {
                    out[i] = a[i] + s;
                }
                return out;
            case SUBTRACT:
                if (scalarRight) {
                    for (int i = 0; i < n; i++) {
                        out[i] = a[i] - s;
                    }
                } else {
                    for (int i = 0; i < n; i++) {
                        out[i] = s - a[i];
                    }
                }
                return out;
            case MULTIPLY:
                for (int i = 0; i < n; i++) {
                    out[i] = a[i] * s;
                }
                return out;
            case DIVIDE:
                if (scalarRight) {
                    for (int i = 0; i < n; i++) {
                        out[i] = a[i] / s;
                    }
                } else {
                    for (int i = 0; i < n; i++) {
                        out[i] = s / a[i];
                    }
                }
                return out;
            case MAXIMUM:
                if (scalarRight) {
                    for (int i = 0; i < n; i++) {
                        out[i] = a[i] > s || Float.isNaN(a[i]) ? a[i] : s;
                    }
                } else {
                    for (int i = 0; i < n; i++) {
                        out[i] = s > a[i] || Float.isNaN(s) ? s : a[i];
                    }
                }
                return out;
            case MINIMUM:
                if (scalarRight) {
                    for (int i = 0; i < n; i++) {
                        out[i] = a[i] < s || Float.isNaN(a[i]) ? a[i] : s;
                    }
                } else {
                    for (int i = 0; i < n; i++) {
                        out[i] = s < a[i] || Float.isNaN(s) ? s : a[i];
                    }
                }
                return out;
            default:
                return null;
        }
    }
}
