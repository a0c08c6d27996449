package io.cubed.chunk;

/**
 * Scalar real functions that {@link Math} lacks or defines differently from C99/NumPy: inverse hyperbolic functions,
 * log2, logaddexp, pow with C's special cases, NumPy's sign and Python-style floor division and remainder.
 */
final class RealMath {
    private static final double LN2 = 0.6931471805599453;
    private static final double LARGE = 0x1p28;

    private RealMath() {}

    /** Inverse hyperbolic sine; odd, exact for ±0 and ±inf. */
    static double asinh(double x) {
        double a = Math.abs(x);
        double r;
        if (a < 0x1p-28 || Double.isNaN(x) || Double.isInfinite(x)) {
            return x;
        } else if (a > LARGE) {
            r = Math.log(a) + LN2;
        } else {
            // log(a + sqrt(a^2 + 1)) written as log1p of a small quantity to keep precision near 0.
            double a2 = a * a;
            r = Math.log1p(a + a2 / (1 + Math.sqrt(1 + a2)));
        }
        return Math.copySign(r, x);
    }

    /** Inverse hyperbolic cosine; NaN below 1. */
    static double acosh(double x) {
        if (x < 1 || Double.isNaN(x)) {
            return Double.NaN;
        }
        if (x > LARGE) {
            return Double.isInfinite(x) ? x : Math.log(x) + LN2;
        }
        if (x > 2) {
            return Math.log(2 * x - 1 / (x + Math.sqrt(x * x - 1)));
        }
        double t = x - 1;
        return Math.log1p(t + Math.sqrt(2 * t + t * t));
    }

    /** Inverse hyperbolic tangent; ±inf at ±1, NaN beyond. */
    static double atanh(double x) {
        double a = Math.abs(x);
        if (a > 1 || Double.isNaN(x)) {
            return Double.NaN;
        }
        if (a < 0x1p-28) {
            return x;
        }
        double r;
        if (a < 0.5) {
            double t = a + a;
            r = 0.5 * Math.log1p(t + t * a / (1 - a));
        } else {
            r = 0.5 * Math.log1p((a + a) / (1 - a));
        }
        return Math.copySign(r, x);
    }

    /** Base-2 logarithm, exact for powers of two. */
    static double log2(double x) {
        if (!(x > 0) || Double.isInfinite(x)) {
            return x == 0 ? Double.NEGATIVE_INFINITY : x < 0 ? Double.NaN : x;
        }
        int e = Math.getExponent(x);
        if (e < Double.MIN_EXPONENT) {
            // Subnormal: scale into the normal range first.
            return log2(x * 0x1p54) - 54;
        }
        double m = Math.scalb(x, -e); // in [1, 2)
        if (m > Math.sqrt(2)) {
            m /= 2;
            e++;
        }
        return e + Math.log(m) / LN2;
    }

    /** log(exp(x) + exp(y)) without overflow, as NumPy computes it. */
    static double logaddexp(double x, double y) {
        if (x == y) {
            return x + LN2; // also handles equal infinities
        }
        double d = x - y;
        if (d > 0) {
            return x + Math.log1p(Math.exp(-d));
        } else if (d <= 0) {
            return y + Math.log1p(Math.exp(d));
        }
        return d; // NaN
    }

    /** {@code x} to the power {@code y} with C99's special cases (pow(1, y) = 1 and pow(-1, ±inf) = 1, even for NaN y). */
    static double pow(double x, double y) {
        if (x == 1 || (x == -1 && Double.isInfinite(y))) {
            return 1;
        }
        return Math.pow(x, y);
    }

    /** NumPy's sign: -1, 0 or 1, NaN for NaN, and +0 for both zeros. */
    static double sign(double x) {
        return x > 0 ? 1 : x < 0 ? -1 : x == 0 ? 0 : x;
    }

    /** Python/NumPy floor division: floor(x / y) computed from fmod so it is consistent with {@link #remainder}. */
    static double floorDivide(double a, double b) {
        if (b == 0) {
            return a / b;
        }
        double mod = a % b;
        double div = (a - mod) / b;
        if (mod != 0 && ((b < 0) != (mod < 0))) {
            div -= 1.0;
        }
        if (div == 0) {
            return Math.copySign(0.0, a / b);
        }
        double fl = Math.floor(div);
        return div - fl > 0.5 ? fl + 1.0 : fl;
    }

    /** Python/NumPy remainder: has the sign of the divisor; fmod's NaN for a zero divisor. */
    static double remainder(double a, double b) {
        double mod = a % b;
        if (b == 0) {
            return mod;
        }
        if (mod != 0) {
            if ((b < 0) != (mod < 0)) {
                mod += b;
            }
            return mod;
        }
        return Math.copySign(0.0, b);
    }

    /** {@link #floorDivide} in float32 arithmetic. */
    static float floorDivide(float a, float b) {
        if (b == 0) {
            return a / b;
        }
        float mod = a % b;
        float div = (a - mod) / b;
        if (mod != 0 && ((b < 0) != (mod < 0))) {
            div -= 1.0f;
        }
        if (div == 0) {
            return Math.copySign(0.0f, a / b);
        }
        float fl = (float) Math.floor(div);
        return div - fl > 0.5f ? fl + 1.0f : fl;
    }

    /** {@link #remainder} in float32 arithmetic. */
    static float remainder(float a, float b) {
        float mod = a % b;
        if (b == 0) {
            return mod;
        }
        if (mod != 0) {
            if ((b < 0) != (mod < 0)) {
                mod += b;
            }
            return mod;
        }
        return Math.copySign(0.0f, b);
    }
}
