package io.cubed.chunk;

/**
 * Complex elementary functions on the principal branch, one value at a time: each takes the real and imaginary part
 * and writes the result to {@code out[o]} (real) and {@code out[o + 1]} (imaginary).
 *
 * <p>Branch cuts follow C99 Annex G and NumPy, with the sign of a zero imaginary part choosing the side of the cut;
 * the inverse functions use Kahan's formulas ("Branch Cuts for Complex Elementary Functions", 1987). Inputs with an
 * infinite or NaN part give the values the Python Array API standard lists in its "Special cases" (C99 Annex G),
 * for every function here including the inverse ones (acos(0 + inf j) = pi/2 - inf j, asinh(0 + inf j) = inf +
 * pi/2 j, atanh(0 + inf j) = 0 + pi/2 j, tanh(0 + inf j) = 0 + NaN j); where the standard leaves a sign unspecified
 * or says nothing, NumPy's (glibc's) value. The inverse functions take those inputs on separate paths
 * ({@code asinhSpecial} and the like), so finite inputs go through the formulas unchanged. expm1 follows the standard
 * where NumPy 1.24 does not (expm1(inf + 0j) = inf + 0j, NumPy inf + NaN j). ComplexSpecialValuesTest checks the grid
 * {0, -0, 1, -1, inf, -inf, NaN} squared.
 */
final class ComplexMath {
    private static final double LN2 = 0.6931471805599453;
    private static final double LN10 = 2.302585092994046;
    private static final double HUGE = 0x1p1000;

    private ComplexMath() {}

    static void sqrt(double x, double y, double[] out, int o) {
        if (Double.isInfinite(y)) {
            set(out, o, Double.POSITIVE_INFINITY, y);
        } else if (Double.isNaN(x)) {
            set(out, o, x, Double.NaN);
        } else if (Double.isInfinite(x)) {
            if (x > 0) {
                set(out, o, x, Double.isNaN(y) ? y : Math.copySign(0.0, y));
            } else {
                set(out, o, Double.isNaN(y) ? y : 0.0, Math.copySign(Double.POSITIVE_INFINITY, y));
            }
        } else if (Double.isNaN(y)) {
            set(out, o, Double.NaN, Double.NaN);
        } else if (x == 0 && y == 0) {
            set(out, o, 0.0, y);
        } else {
            double ax = Math.abs(x);
            double ay = Math.abs(y);
            double t;
            if (ax > HUGE || ay > HUGE) {
                t = 2 * Math.sqrt((ax / 4 + Math.hypot(ax / 4, ay / 4)) / 2);
            } else {
                t = Math.sqrt((ax + Math.hypot(ax, ay)) / 2);
            }
            if (x >= 0) {
                set(out, o, t, y / (2 * t));
            } else {
                set(out, o, ay / (2 * t), Math.copySign(t, y));
            }
        }
    }

    static void exp(double x, double y, double[] out, int o) {
        if (y == 0) {
            set(out, o, Math.exp(x), y);
        } else if (Double.isInfinite(x)) {
            if (x < 0) {
                if (Double.isFinite(y)) {
                    set(out, o, Math.copySign(0.0, Math.cos(y)), Math.copySign(0.0, Math.sin(y)));
                } else {
                    set(out, o, 0.0, Double.isInfinite(y) ? Math.copySign(0.0, y) : 0.0);
                }
            } else if (Double.isFinite(y)) {
                set(out, o, x * Math.cos(y), x * Math.sin(y));
            } else {
                set(out, o, x, Double.NaN);
            }
        } else if (x > 709) {
            // exp(x) overflows but exp(x) * cos(y) may not: scale in two halves.
            double h = Math.exp(x / 2);
            set(out, o, h * Math.cos(y) * h, h * Math.sin(y) * h);
        } else {
            double e = Math.exp(x);
            set(out, o, e * Math.cos(y), e * Math.sin(y));
        }
    }

    static void expm1(double x, double y, double[] out, int o) {
        if (!Double.isFinite(x) || !Double.isFinite(y)) {
            exp(x, y, out, o);
            out[o] -= 1;
            return;
        }
        double s = Math.sin(y / 2);
        set(out, o, Math.expm1(x) * Math.cos(y) - 2 * s * s, Math.exp(x) * Math.sin(y));
    }

    /** The real part of log(z): log|z|, accurate also when |z| is close to 1. */
    private static double logAbs(double x, double y) {
        double ax = Math.max(Math.abs(x), Math.abs(y));
        double ay = Math.min(Math.abs(x), Math.abs(y));
        if (ax > 0.5 && ax < 2 && Double.isFinite(ay)) {
            return 0.5 * Math.log1p((ax - 1) * (ax + 1) + ay * ay);
        }
        return Math.log(Math.hypot(x, y));
    }

    static void log(double x, double y, double[] out, int o) {
        set(out, o, logAbs(x, y), Math.atan2(y, x));
    }

    static void log1p(double x, double y, double[] out, int o) {
        double re;
        if (Math.abs(x) < 0.5 && Math.abs(y) < 0.5) {
            re = 0.5 * Math.log1p(x * (2 + x) + y * y);
        } else {
            re = logAbs(1 + x, y);
        }
        set(out, o, re, Math.atan2(y, 1 + x));
    }

    static void log2(double x, double y, double[] out, int o) {
        log(x, y, out, o);
        out[o] /= LN2;
        out[o + 1] /= LN2;
    }

    static void log10(double x, double y, double[] out, int o) {
        log(x, y, out, o);
        out[o] /= LN10;
        out[o + 1] /= LN10;
    }

    static void sinh(double x, double y, double[] out, int o) {
        if (y == 0) {
            set(out, o, Math.sinh(x), y);
        } else if (x == 0 && !Double.isFinite(y)) {
            set(out, o, x, Double.NaN);
        } else if (Double.isInfinite(x) && !Double.isFinite(y)) {
            set(out, o, Double.POSITIVE_INFINITY, Double.NaN); // sign of the real part unspecified; glibc's +inf
        } else {
            set(out, o, Math.sinh(x) * Math.cos(y), Math.cosh(x) * Math.sin(y));
        }
    }

    static void cosh(double x, double y, double[] out, int o) {
        if (y == 0) {
            // sinh(x) * y, a zero: NaN x keeps y (NaN + 0j), and so does an infinite x or a sinh that overflows.
            double s = Math.sinh(x);
            set(out, o, Math.cosh(x), Double.isNaN(x) ? y : Double.isFinite(s) ? s * y : y * Math.copySign(1.0, x));
        } else if (x == 0 && !Double.isFinite(y)) {
            set(out, o, Double.NaN, 0.0);
        } else if (Double.isInfinite(x) && !Double.isFinite(y)) {
            set(out, o, Double.POSITIVE_INFINITY, Double.NaN);
        } else {
            set(out, o, Math.cosh(x) * Math.cos(y), Math.sinh(x) * Math.sin(y));
        }
    }

    static void tanh(double x, double y, double[] out, int o) {
        if (y == 0) {
            set(out, o, Math.tanh(x), y);
        } else if (Double.isInfinite(x)) {
            double im = Double.isFinite(y) ? Math.copySign(0.0, Math.sin(2 * y)) : Double.isNaN(y) ? 0.0 : y;
            set(out, o, Math.copySign(1.0, x), Math.copySign(0.0, im));
        } else if (!Double.isFinite(y)) {
            set(out, o, x == 0 ? x : Double.NaN, Double.NaN);
        } else if (Math.abs(x) > 22) {
            double e = Math.exp(-2 * Math.abs(x));
            set(out, o, Math.copySign(1.0, x), 4 * Math.sin(y) * Math.cos(y) * e);
        } else {
            // Kahan: stable for all finite arguments, including y near pi/2.
            double t = Math.tan(y);
            double beta = 1 + t * t;
            double s = Math.sinh(x);
            double rho = Math.sqrt(1 + s * s);
            double d = 1 + beta * s * s;
            set(out, o, beta * rho * s / d, t / d);
        }
    }

    /** sin z = -i sinh(iz). */
    static void sin(double x, double y, double[] out, int o) {
        if (Double.isInfinite(y) && !Double.isFinite(x)) {
            // -i sinh(iz) with sinh(±inf + NaN i) = ±inf + NaN i: the sign of the imaginary part is unspecified.
            set(out, o, Double.NaN, Double.POSITIVE_INFINITY);
            return;
        }
        sinh(-y, x, out, o);
        rotateMinusI(out, o);
    }

    /** cos z = cosh(iz). */
    static void cos(double x, double y, double[] out, int o) {
        cosh(-y, x, out, o);
    }

    /** tan z = -i tanh(iz). */
    static void tan(double x, double y, double[] out, int o) {
        tanh(-y, x, out, o);
        rotateMinusI(out, o);
    }

    static void asin(double x, double y, double[] out, int o) {
        if (!Double.isFinite(x) || !Double.isFinite(y)) {
            asinhSpecial(-y, x, out, o);
            rotateMinusI(out, o);
            if (Double.isInfinite(x) && Double.isNaN(y)) {
                out[o + 1] = INF; // the sign is unspecified; NumPy's (glibc's) +inf
            }
            return;
        }
        double[] s = new double[4];
        sqrt(1 - x, -y, s, 0); // sqrt(1 - z)
        sqrt(1 + x, y, s, 2); // sqrt(1 + z)
        double re = Math.atan(x / (s[0] * s[2] - s[1] * s[3]));
        double im = RealMath.asinh(s[0] * s[3] - s[1] * s[2]);
        set(out, o, re, im);
    }

    static void acos(double x, double y, double[] out, int o) {
        if (!Double.isFinite(x) || !Double.isFinite(y)) {
            acosSpecial(x, y, out, o);
            return;
        }
        double[] s = new double[4];
        sqrt(1 - x, -y, s, 0); // sqrt(1 - z)
        sqrt(1 + x, y, s, 2); // sqrt(1 + z)
        double re = 2 * Math.atan(s[0] / s[2]);
        double im = RealMath.asinh(s[2] * s[1] - s[3] * s[0]);
        set(out, o, re, im);
    }

    static void acosh(double x, double y, double[] out, int o) {
        if (!Double.isFinite(x) || !Double.isFinite(y)) {
            acoshSpecial(x, y, out, o);
            return;
        }
        double[] s = new double[4];
        sqrt(x - 1, y, s, 0); // sqrt(z - 1)
        sqrt(x + 1, y, s, 2); // sqrt(z + 1)
        double re = RealMath.asinh(s[0] * s[2] + s[1] * s[3]);
        double im = 2 * Math.atan(s[1] / s[2]);
        set(out, o, re, im);
    }

    /** asinh z = -i asin(iz). */
    static void asinh(double x, double y, double[] out, int o) {
        if (!Double.isFinite(x) || !Double.isFinite(y)) {
            asinhSpecial(x, y, out, o);
            return;
        }
        asin(-y, x, out, o);
        rotateMinusI(out, o);
    }

    static void atanh(double x, double y, double[] out, int o) {
        if (!Double.isFinite(x) || !Double.isFinite(y)) {
            atanhSpecial(x, y, out, o);
            return;
        }
        double h = Math.hypot(x, y);
        if (h > 0x1p60 && Double.isFinite(h)) {
            // 1/z dominates: atanh z ~ 1/z + i pi/2 sign(y) on the principal branch.
            set(out, o, x / h / h, Math.copySign(Math.PI / 2, y));
            return;
        }
        double[] s = new double[4];
        log1p(x, y, s, 0);
        log1p(-x, -y, s, 2);
        // On the imaginary axis the real part is an exact zero, with the sign of x (atanh is odd).
        set(out, o, x == 0 ? x : 0.5 * (s[0] - s[2]), 0.5 * (s[1] - s[3]));
    }

    private static final double PI_4 = Math.PI / 4;
    private static final double PI_2 = Math.PI / 2;
    private static final double INF = Double.POSITIVE_INFINITY;
    private static final double NAN = Double.NaN;

    /**
     * asinh when a part is infinite or NaN: the special cases of the Array API standard (C99 Annex G), and NumPy's
     * (glibc's) choice where the standard leaves a sign unspecified. asinh is odd and commutes with conj.
     */
    private static void asinhSpecial(double x, double y, double[] out, int o) {
        if (Double.isNaN(x)) {
            if (Double.isInfinite(y)) {
                set(out, o, INF, NAN);
            } else {
                set(out, o, NAN, y == 0 ? y : NAN);
            }
        } else if (Double.isNaN(y)) {
            set(out, o, Double.isInfinite(x) ? x : NAN, NAN);
        } else if (Double.isInfinite(x)) {
            set(out, o, x, Math.copySign(Double.isInfinite(y) ? PI_4 : 0.0, y));
        } else {
            set(out, o, Math.copySign(INF, x), Math.copySign(PI_2, y));
        }
    }

    /** acos when a part is infinite or NaN (standard, C99 Annex G; NumPy where a sign is unspecified). */
    private static void acosSpecial(double x, double y, double[] out, int o) {
        if (Double.isNaN(x)) {
            set(out, o, NAN, Double.isInfinite(y) ? -y : NAN);
        } else if (Double.isNaN(y)) {
            if (x == 0) {
                set(out, o, PI_2, NAN);
            } else {
                set(out, o, NAN, Double.isInfinite(x) ? -INF : NAN);
            }
        } else if (Double.isInfinite(x)) {
            double re = x > 0 ? (Double.isInfinite(y) ? PI_4 : 0.0) : (Double.isInfinite(y) ? 3 * PI_4 : Math.PI);
            set(out, o, re, Math.copySign(INF, -y));
        } else {
            set(out, o, PI_2, -y);
        }
    }

    /** acosh when a part is infinite or NaN (standard, C99 Annex G; NumPy where a sign is unspecified). */
    private static void acoshSpecial(double x, double y, double[] out, int o) {
        if (Double.isNaN(x)) {
            set(out, o, Double.isInfinite(y) ? INF : NAN, NAN);
        } else if (Double.isNaN(y)) {
            if (x == 0) {
                set(out, o, NAN, PI_2);
            } else {
                set(out, o, Double.isInfinite(x) ? INF : NAN, NAN);
            }
        } else if (Double.isInfinite(x)) {
            double im = x > 0 ? (Double.isInfinite(y) ? PI_4 : 0.0) : (Double.isInfinite(y) ? 3 * PI_4 : Math.PI);
            set(out, o, INF, Math.copySign(im, y));
        } else {
            set(out, o, INF, Math.copySign(PI_2, y));
        }
    }

    /** atanh when a part is infinite or NaN (standard, C99 Annex G). atanh is odd and commutes with conj. */
    private static void atanhSpecial(double x, double y, double[] out, int o) {
        if (Double.isNaN(x)) {
            set(out, o, Double.isInfinite(y) ? 0.0 : NAN, Double.isInfinite(y) ? Math.copySign(PI_2, y) : NAN);
        } else if (Double.isNaN(y)) {
            set(out, o, x == 0 || Double.isInfinite(x) ? Math.copySign(0.0, x) : NAN, NAN);
        } else {
            set(out, o, Math.copySign(0.0, x), Math.copySign(PI_2, y));
        }
    }

    /** atan z = -i atanh(iz). */
    static void atan(double x, double y, double[] out, int o) {
        if (Double.isInfinite(x) && Double.isNaN(y)) {
            set(out, o, Math.copySign(PI_2, x), 0.0); // the sign of the zero is unspecified; NumPy's (glibc's) +0
            return;
        }
        atanh(-y, x, out, o);
        rotateMinusI(out, o);
    }

    /** z / |z|, 0 for 0, NaN parts for NaN or two infinite parts, the unit toward an infinite part otherwise. */
    static void sign(double x, double y, double[] out, int o) {
        if (Double.isNaN(x) || Double.isNaN(y) || (Double.isInfinite(x) && Double.isInfinite(y))) {
            set(out, o, Double.NaN, Double.NaN);
        } else if (Double.isInfinite(x)) {
            set(out, o, Math.copySign(1.0, x), 0.0);
        } else if (Double.isInfinite(y)) {
            set(out, o, 0.0, Math.copySign(1.0, y));
        } else if (x == 0 && y == 0) {
            set(out, o, 0.0, 0.0);
        } else {
            double h = Math.hypot(x, y);
            set(out, o, x / h, y / h);
        }
    }

    /** (a + ib) / (c + id) by Smith's algorithm; a zero divisor gives the infinities or NaNs of dividing the parts. */
    static void divide(double a, double b, double c, double d, double[] out, int o) {
        double ac = Math.abs(c);
        double ad = Math.abs(d);
        if (ac >= ad) {
            if (ac == 0 && ad == 0) {
                set(out, o, a / ac, b / ac);
            } else {
                double rat = d / c;
                double scl = 1.0 / (c + d * rat);
                set(out, o, (a + b * rat) * scl, (b - a * rat) * scl);
            }
        } else {
            double rat = c / d;
            double scl = 1.0 / (d + c * rat);
            set(out, o, (a * rat + b) * scl, (b * rat - a) * scl);
        }
    }

    /**
     * (a + ib) to the power (c + id): 1 for a zero exponent, 0 or NaN for a zero base, repeated multiplication for
     * small integer exponents (as NumPy does), exp(w log z) otherwise.
     */
    static void pow(double a, double b, double c, double d, double[] out, int o) {
        if (c == 0 && d == 0) {
            set(out, o, 1.0, 0.0);
        } else if (a == 0 && b == 0) {
            if (c > 0 && d == 0) {
                set(out, o, 0.0, 0.0);
            } else {
                set(out, o, Double.NaN, Double.NaN);
            }
        } else if (d == 0 && c == Math.rint(c) && Math.abs(c) <= 100) {
            long n = (long) Math.abs(c);
            double rr = 1;
            double ri = 0;
            double pr = a;
            double pi = b;
            while (n != 0) {
                if ((n & 1) != 0) {
                    double t = rr * pr - ri * pi;
                    ri = rr * pi + ri * pr;
                    rr = t;
                }
                double t = pr * pr - pi * pi;
                pi = 2 * pr * pi;
                pr = t;
                n >>= 1;
            }
            if (c < 0) {
                divide(1, 0, rr, ri, out, o);
            } else {
                set(out, o, rr, ri);
            }
        } else {
            double[] l = new double[2];
            log(a, b, l, 0);
            exp(l[0] * c - l[1] * d, l[0] * d + l[1] * c, out, o);
        }
    }

    private static void rotateMinusI(double[] out, int o) {
        double re = out[o];
        out[o] = out[o + 1];
        out[o + 1] = -re;
    }

    private static void set(double[] out, int o, double re, double im) {
        out[o] = re;
        out[o + 1] = im;
    }
}
