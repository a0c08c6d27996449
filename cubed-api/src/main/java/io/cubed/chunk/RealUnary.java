package io.cubed.chunk;

/**
 * Unary loops on real floating-point values held as doubles, one method per function of {@link UnaryFunction}.
 * float32 chunks are widened, computed here and rounded back once: exact for the correctly rounded operations (sqrt,
 * square, reciprocal, rounding functions) and more accurate than float32 libm for the transcendental ones. Result
 * arrays come from {@link TileArrays}: every loop writes every element of its result.
 */
final class RealUnary {
    private RealUnary() {}

    static double[] abs(double[] x) {
        double[] out = TileArrays.doubles(x.length);
        for (int i = 0; i < x.length; i++) {
            out[i] = Math.abs(x[i]);
        }
        return out;
    }

    static double[] negative(double[] x) {
        double[] out = TileArrays.doubles(x.length);
        for (int i = 0; i < x.length; i++) {
            out[i] = -x[i];
        }
        return out;
    }

    static double[] positive(double[] x) {
        return x.clone();
    }

    static double[] square(double[] x) {
        double[] out = TileArrays.doubles(x.length);
        for (int i = 0; i < x.length; i++) {
            out[i] = x[i] * x[i];
        }
        return out;
    }

    static double[] sqrt(double[] x) {
        double[] out = TileArrays.doubles(x.length);
        for (int i = 0; i < x.length; i++) {
            out[i] = Math.sqrt(x[i]);
        }
        return out;
    }

    static double[] reciprocal(double[] x) {
        double[] out = TileArrays.doubles(x.length);
        for (int i = 0; i < x.length; i++) {
            out[i] = 1.0 / x[i];
        }
        return out;
    }

    static double[] ceil(double[] x) {
        double[] out = TileArrays.doubles(x.length);
        for (int i = 0; i < x.length; i++) {
            out[i] = Math.ceil(x[i]);
        }
        return out;
    }

    static double[] floor(double[] x) {
        double[] out = TileArrays.doubles(x.length);
        for (int i = 0; i < x.length; i++) {
            out[i] = Math.floor(x[i]);
        }
        return out;
    }

    static double[] trunc(double[] x) {
        double[] out = TileArrays.doubles(x.length);
        for (int i = 0; i < x.length; i++) {
            out[i] = x[i] < 0 ? Math.ceil(x[i]) : Math.floor(x[i]);
        }
        return out;
    }

    static double[] round(double[] x) {
        double[] out = TileArrays.doubles(x.length);
        for (int i = 0; i < x.length; i++) {
            out[i] = Math.rint(x[i]); // half to even
        }
        return out;
    }

    static double[] sign(double[] x) {
        double[] out = TileArrays.doubles(x.length);
        for (int i = 0; i < x.length; i++) {
            out[i] = RealMath.sign(x[i]);
        }
        return out;
    }

    static double[] exp(double[] x) {
        double[] out = TileArrays.doubles(x.length);
        for (int i = 0; i < x.length; i++) {
            out[i] = Math.exp(x[i]);
        }
        return out;
    }

    static double[] expm1(double[] x) {
        double[] out = TileArrays.doubles(x.length);
        for (int i = 0; i < x.length; i++) {
            out[i] = Math.expm1(x[i]);
        }
        return out;
    }

    static double[] log(double[] x) {
        double[] out = TileArrays.doubles(x.length);
        for (int i = 0; i < x.length; i++) {
            out[i] = Math.log(x[i]);
        }
        return out;
    }

    static double[] log1p(double[] x) {
        double[] out = TileArrays.doubles(x.length);
        for (int i = 0; i < x.length; i++) {
            out[i] = Math.log1p(x[i]);
        }
        return out;
    }

    static double[] log2(double[] x) {
        double[] out = TileArrays.doubles(x.length);
        for (int i = 0; i < x.length; i++) {
            out[i] = RealMath.log2(x[i]);
        }
        return out;
    }

    static double[] log10(double[] x) {
        double[] out = TileArrays.doubles(x.length);
        for (int i = 0; i < x.length; i++) {
            out[i] = Math.log10(x[i]);
        }
        return out;
    }

    static double[] sin(double[] x) {
        double[] out = TileArrays.doubles(x.length);
        for (int i = 0; i < x.length; i++) {
            out[i] = Math.sin(x[i]);
        }
        return out;
    }

    static double[] cos(double[] x) {
        double[] out = TileArrays.doubles(x.length);
        for (int i = 0; i < x.length; i++) {
            out[i] = Math.cos(x[i]);
        }
        return out;
    }

    static double[] tan(double[] x) {
        double[] out = TileArrays.doubles(x.length);
        for (int i = 0; i < x.length; i++) {
            out[i] = Math.tan(x[i]);
        }
        return out;
    }

    static double[] asin(double[] x) {
        double[] out = TileArrays.doubles(x.length);
        for (int i = 0; i < x.length; i++) {
            out[i] = Math.asin(x[i]);
        }
        return out;
    }

    static double[] acos(double[] x) {
        double[] out = TileArrays.doubles(x.length);
        for (int i = 0; i < x.length; i++) {
            out[i] = Math.acos(x[i]);
        }
        return out;
    }

    static double[] atan(double[] x) {
        double[] out = TileArrays.doubles(x.length);
        for (int i = 0; i < x.length; i++) {
            out[i] = Math.atan(x[i]);
        }
        return out;
    }

    static double[] sinh(double[] x) {
        double[] out = TileArrays.doubles(x.length);
        for (int i = 0; i < x.length; i++) {
            out[i] = Math.sinh(x[i]);
        }
        return out;
    }

    static double[] cosh(double[] x) {
        double[] out = TileArrays.doubles(x.length);
        for (int i = 0; i < x.length; i++) {
            out[i] = Math.cosh(x[i]);
        }
        return out;
    }

    static double[] tanh(double[] x) {
        double[] out = TileArrays.doubles(x.length);
        for (int i = 0; i < x.length; i++) {
            out[i] = Math.tanh(x[i]);
        }
        return out;
    }

    static double[] asinh(double[] x) {
        double[] out = TileArrays.doubles(x.length);
        for (int i = 0; i < x.length; i++) {
            out[i] = RealMath.asinh(x[i]);
        }
        return out;
    }

    static double[] acosh(double[] x) {
        double[] out = TileArrays.doubles(x.length);
        for (int i = 0; i < x.length; i++) {
            out[i] = RealMath.acosh(x[i]);
        }
        return out;
    }

    static double[] atanh(double[] x) {
        double[] out = TileArrays.doubles(x.length);
        for (int i = 0; i < x.length; i++) {
            out[i] = RealMath.atanh(x[i]);
        }
        return out;
    }

    static boolean[] isnan(double[] x) {
        boolean[] out = new boolean[x.length];
        for (int i = 0; i < x.length; i++) {
            out[i] = Double.isNaN(x[i]);
        }
        return out;
    }

    static boolean[] isinf(double[] x) {
        boolean[] out = new boolean[x.length];
        for (int i = 0; i < x.length; i++) {
            out[i] = Double.isInfinite(x[i]);
        }
        return out;
    }

    static boolean[] isfinite(double[] x) {
        boolean[] out = new boolean[x.length];
        for (int i = 0; i < x.length; i++) {
            out[i] = Double.isFinite(x[i]);
        }
        return out;
    }

    static boolean[] signbit(double[] x) {
        boolean[] out = new boolean[x.length];
        for (int i = 0; i < x.length; i++) {
            out[i] = Double.doubleToRawLongBits(x[i]) < 0;
        }
        return out;
    }
}
