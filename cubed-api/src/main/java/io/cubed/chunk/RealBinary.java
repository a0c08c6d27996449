package io.cubed.chunk;

/**
 * Binary loops on real floating-point arrays of the same length, one kernel per function of {@link BinaryFunction}:
 * in double for float64 (and for float32 widened, then rounded once), and directly in float for float32 where float
 * arithmetic matters (the four arithmetic operations, nextafter, floor division and remainder) or the function is hot
 * (maximum, minimum). The hot functions also have loops with one operand a single value, which save expanding a
 * scalar to a whole chunk, and the four arithmetic operations loops with one operand a row repeated along the leading
 * axes (float64), which save expanding the row.
 *
 * <p>maximum and minimum propagate NaN and, for equal arguments (including -0.0 and +0.0), return the second one,
 * as NumPy does.
 */
final class RealBinary {
    private RealBinary() {}

    static final Kernels.BinaryReal ADD = new Kernels.BinaryReal() {
        @Override
        public double[] apply(double[] a, double[] b) {
            double[] out = new double[a.length];
            for (int i = 0; i < a.length; i++) {
                out[i] = a[i] + b[i];
            }
            return out;
        }

        @Override
        public float[] applyFloat(float[] a, float[] b) {
            float[] out = new float[a.length];
            for (int i = 0; i < a.length; i++) {
                out[i] = a[i] + b[i];
            }
            return out;
        }

        @Override
        public double[] applyScalar(double[] a, double s, boolean scalarRight) {
            double[] out = new double[a.length];
            for (int i = 0; i < a.length; i++) {
                out[i] = a[i] + s;
            }
            return out;
        }

        @Override
        public float[] applyScalarFloat(float[] a, float s, boolean scalarRight) {
            float[] out = new float[a.length];
            for (int i = 0; i < a.length; i++) {
                out[i] = a[i] + s;
            }
            return out;
        }

        @Override
        public double[] applyRow(double[] a, double[] row, boolean rowRight) {
            double[] out = new double[a.length];
            int m = row.length;
            for (int base = 0; base < a.length; base += m) {
                for (int j = 0; j < m; j++) {
                    out[base + j] = a[base + j] + row[j];
                }
            }
            return out;
        }
    };

    static final Kernels.BinaryReal SUBTRACT = new Kernels.BinaryReal() {
        @Override
        public double[] apply(double[] a, double[] b) {
            double[] out = new double[a.length];
            for (int i = 0; i < a.length; i++) {
                out[i] = a[i] - b[i];
            }
            return out;
        }

        @Override
        public float[] applyFloat(float[] a, float[] b) {
            float[] out = new float[a.length];
            for (int i = 0; i < a.length; i++) {
                out[i] = a[i] - b[i];
            }
            return out;
        }

        @Override
        public double[] applyScalar(double[] a, double s, boolean scalarRight) {
            double[] out = new double[a.length];
            if (scalarRight) {
                for (int i = 0; i < a.length; i++) {
                    out[i] = a[i] - s;
                }
            } else {
                for (int i = 0; i < a.length; i++) {
                    out[i] = s - a[i];
                }
            }
            return out;
        }

        @Override
        public float[] applyScalarFloat(float[] a, float s, boolean scalarRight) {
            float[] out = new float[a.length];
            if (scalarRight) {
                for (int i = 0; i < a.length; i++) {
                    out[i] = a[i] - s;
                }
            } else {
                for (int i = 0; i < a.length; i++) {
                    out[i] = s - a[i];
                }
            }
            return out;
        }

        @Override
        public double[] applyRow(double[] a, double[] row, boolean rowRight) {
            double[] out = new double[a.length];
            int m = row.length;
            for (int base = 0; base < a.length; base += m) {
                if (rowRight) {
                    for (int j = 0; j < m; j++) {
                        out[base + j] = a[base + j] - row[j];
                    }
                } else {
                    for (int j = 0; j < m; j++) {
                        out[base + j] = row[j] - a[base + j];
                    }
                }
            }
            return out;
        }
    };

    static final Kernels.BinaryReal MULTIPLY = new Kernels.BinaryReal() {
        @Override
        public double[] apply(double[] a, double[] b) {
            double[] out = new double[a.length];
            for (int i = 0; i < a.length; i++) {
                out[i] = a[i] * b[i];
            }
            return out;
        }

        @Override
        public float[] applyFloat(float[] a, float[] b) {
            float[] out = new float[a.length];
            for (int i = 0; i < a.length; i++) {
                out[i] = a[i] * b[i];
            }
            return out;
        }

        @Override
        public double[] applyScalar(double[] a, double s, boolean scalarRight) {
            double[] out = new double[a.length];
            for (int i = 0; i < a.length; i++) {
                out[i] = a[i] * s;
            }
            return out;
        }

        @Override
        public float[] applyScalarFloat(float[] a, float s, boolean scalarRight) {
            float[] out = new float[a.length];
            for (int i = 0; i < a.length; i++) {
                out[i] = a[i] * s;
            }
            return out;
        }

        @Override
        public double[] applyRow(double[] a, double[] row, boolean rowRight) {
            double[] out = new double[a.length];
            int m = row.length;
            for (int base = 0; base < a.length; base += m) {
                for (int j = 0; j < m; j++) {
                    out[base + j] = a[base + j] * row[j];
                }
            }
            return out;
        }
    };

    static final Kernels.BinaryReal DIVIDE = new Kernels.BinaryReal() {
        @Override
        public double[] apply(double[] a, double[] b) {
            double[] out = new double[a.length];
            for (int i = 0; i < a.length; i++) {
                out[i] = a[i] / b[i];
            }
            return out;
        }

        @Override
        public float[] applyFloat(float[] a, float[] b) {
            float[] out = new float[a.length];
            for (int i = 0; i < a.length; i++) {
                out[i] = a[i] / b[i];
            }
            return out;
        }

        @Override
        public double[] applyScalar(double[] a, double s, boolean scalarRight) {
            double[] out = new double[a.length];
            if (scalarRight) {
                for (int i = 0; i < a.length; i++) {
                    out[i] = a[i] / s;
                }
            } else {
                for (int i = 0; i < a.length; i++) {
                    out[i] = s / a[i];
                }
            }
            return out;
        }

        @Override
        public float[] applyScalarFloat(float[] a, float s, boolean scalarRight) {
            float[] out = new float[a.length];
            if (scalarRight) {
                for (int i = 0; i < a.length; i++) {
                    out[i] = a[i] / s;
                }
            } else {
                for (int i = 0; i < a.length; i++) {
                    out[i] = s / a[i];
                }
            }
            return out;
        }

        @Override
        public double[] applyRow(double[] a, double[] row, boolean rowRight) {
            double[] out = new double[a.length];
            int m = row.length;
            for (int base = 0; base < a.length; base += m) {
                if (rowRight) {
                    for (int j = 0; j < m; j++) {
                        out[base + j] = a[base + j] / row[j];
                    }
                } else {
                    for (int j = 0; j < m; j++) {
                        out[base + j] = row[j] / a[base + j];
                    }
                }
            }
            return out;
        }
    };

    static final Kernels.BinaryReal MAXIMUM = new Kernels.BinaryReal() {
        @Override
        public double[] apply(double[] a, double[] b) {
            double[] out = new double[a.length];
            for (int i = 0; i < a.length; i++) {
                out[i] = a[i] > b[i] || Double.isNaN(a[i]) ? a[i] : b[i];
            }
            return out;
        }

        @Override
        public float[] applyFloat(float[] a, float[] b) {
            float[] out = new float[a.length];
            for (int i = 0; i < a.length; i++) {
                out[i] = a[i] > b[i] || Float.isNaN(a[i]) ? a[i] : b[i];
            }
            return out;
        }

        @Override
        public double[] applyScalar(double[] a, double s, boolean scalarRight) {
            double[] out = new double[a.length];
            if (scalarRight) {
                for (int i = 0; i < a.length; i++) {
                    out[i] = a[i] > s || Double.isNaN(a[i]) ? a[i] : s;
                }
            } else {
                for (int i = 0; i < a.length; i++) {
                    out[i] = s > a[i] || Double.isNaN(s) ? s : a[i];
                }
            }
            return out;
        }

        @Override
        public float[] applyScalarFloat(float[] a, float s, boolean scalarRight) {
            float[] out = new float[a.length];
            if (scalarRight) {
                for (int i = 0; i < a.length; i++) {
                    out[i] = a[i] > s || Float.isNaN(a[i]) ? a[i] : s;
                }
            } else {
                for (int i = 0; i < a.length; i++) {
                    out[i] = s > a[i] || Float.isNaN(s) ? s : a[i];
                }
            }
            return out;
        }
    };

    static final Kernels.BinaryReal MINIMUM = new Kernels.BinaryReal() {
        @Override
        public double[] apply(double[] a, double[] b) {
            double[] out = new double[a.length];
            for (int i = 0; i < a.length; i++) {
                out[i] = a[i] < b[i] || Double.isNaN(a[i]) ? a[i] : b[i];
            }
            return out;
        }

        @Override
        public float[] applyFloat(float[] a, float[] b) {
            float[] out = new float[a.length];
            for (int i = 0; i < a.length; i++) {
                out[i] = a[i] < b[i] || Float.isNaN(a[i]) ? a[i] : b[i];
            }
            return out;
        }

        @Override
        public double[] applyScalar(double[] a, double s, boolean scalarRight) {
            double[] out = new double[a.length];
            if (scalarRight) {
                for (int i = 0; i < a.length; i++) {
                    out[i] = a[i] < s || Double.isNaN(a[i]) ? a[i] : s;
                }
            } else {
                for (int i = 0; i < a.length; i++) {
                    out[i] = s < a[i] || Double.isNaN(s) ? s : a[i];
                }
            }
            return out;
        }

        @Override
        public float[] applyScalarFloat(float[] a, float s, boolean scalarRight) {
            float[] out = new float[a.length];
            if (scalarRight) {
                for (int i = 0; i < a.length; i++) {
                    out[i] = a[i] < s || Float.isNaN(a[i]) ? a[i] : s;
                }
            } else {
                for (int i = 0; i < a.length; i++) {
                    out[i] = s < a[i] || Float.isNaN(s) ? s : a[i];
                }
            }
            return out;
        }
    };

    static final Kernels.BinaryReal NEXTAFTER = new Kernels.BinaryReal() {
        @Override
        public double[] apply(double[] a, double[] b) {
            double[] out = new double[a.length];
            for (int i = 0; i < a.length; i++) {
                out[i] = Math.nextAfter(a[i], b[i]);
            }
            return out;
        }

        @Override
        public float[] applyFloat(float[] a, float[] b) {
            float[] out = new float[a.length];
            for (int i = 0; i < a.length; i++) {
                out[i] = Math.nextAfter(a[i], b[i]);
            }
            return out;
        }
    };

    static final Kernels.BinaryReal FLOOR_DIVIDE = new Kernels.BinaryReal() {
        @Override
        public double[] apply(double[] a, double[] b) {
            double[] out = new double[a.length];
            for (int i = 0; i < a.length; i++) {
                out[i] = RealMath.floorDivide(a[i], b[i]);
            }
            return out;
        }

        @Override
        public float[] applyFloat(float[] a, float[] b) {
            float[] out = new float[a.length];
            for (int i = 0; i < a.length; i++) {
                out[i] = RealMath.floorDivide(a[i], b[i]);
            }
            return out;
        }
    };

    static final Kernels.BinaryReal REMAINDER = new Kernels.BinaryReal() {
        @Override
        public double[] apply(double[] a, double[] b) {
            double[] out = new double[a.length];
            for (int i = 0; i < a.length; i++) {
                out[i] = RealMath.remainder(a[i], b[i]);
            }
            return out;
        }

        @Override
        public float[] applyFloat(float[] a, float[] b) {
            float[] out = new float[a.length];
            for (int i = 0; i < a.length; i++) {
                out[i] = RealMath.remainder(a[i], b[i]);
            }
            return out;
        }
    };

    /**
     * pow, with loops for a scalar exponent or base that expand nothing: {@code x ** 2} is {@code x * x} (as NumPy's
     * {@code **} computes it: the correctly rounded square, where {@code Math.pow} may be 1 ulp off), other scalars go
     * through {@link RealMath#pow} element by element.
     */
    static final Kernels.BinaryReal POW = new Kernels.BinaryReal() {
        @Override
        public double[] apply(double[] a, double[] b) {
            double[] out = new double[a.length];
            for (int i = 0; i < a.length; i++) {
                out[i] = RealMath.pow(a[i], b[i]);
            }
            return out;
        }

        @Override
        public double[] applyScalar(double[] a, double s, boolean scalarRight) {
            double[] out = new double[a.length];
            if (!scalarRight) {
                for (int i = 0; i < a.length; i++) {
                    out[i] = RealMath.pow(s, a[i]);
                }
            } else if (s == 2) {
                for (int i = 0; i < a.length; i++) {
                    out[i] = a[i] * a[i];
                }
            } else {
                for (int i = 0; i < a.length; i++) {
                    out[i] = RealMath.pow(a[i], s);
                }
            }
            return out;
        }
    };

    static double[] atan2(double[] a, double[] b) {
        double[] out = new double[a.length];
        for (int i = 0; i < a.length; i++) {
            out[i] = Math.atan2(a[i], b[i]);
        }
        return out;
    }

    static double[] hypot(double[] a, double[] b) {
        double[] out = new double[a.length];
        for (int i = 0; i < a.length; i++) {
            out[i] = Math.hypot(a[i], b[i]);
        }
        return out;
    }

    static double[] copysign(double[] a, double[] b) {
        double[] out = new double[a.length];
        for (int i = 0; i < a.length; i++) {
            out[i] = Math.copySign(a[i], b[i]);
        }
        return out;
    }

    static double[] logaddexp(double[] a, double[] b) {
        double[] out = new double[a.length];
        for (int i = 0; i < a.length; i++) {
            out[i] = RealMath.logaddexp(a[i], b[i]);
        }
        return out;
    }

    static boolean[] equal(double[] a, double[] b) {
        boolean[] r = new boolean[a.length];
        for (int i = 0; i < a.length; i++) {
            r[i] = a[i] == b[i];
        }
        return r;
    }

    static boolean[] notEqual(double[] a, double[] b) {
        boolean[] r = new boolean[a.length];
        for (int i = 0; i < a.length; i++) {
            r[i] = a[i] != b[i];
        }
        return r;
    }

    static boolean[] greater(double[] a, double[] b) {
        boolean[] r = new boolean[a.length];
        for (int i = 0; i < a.length; i++) {
            r[i] = a[i] > b[i];
        }
        return r;
    }

    static boolean[] greaterEqual(double[] a, double[] b) {
        boolean[] r = new boolean[a.length];
        for (int i = 0; i < a.length; i++) {
            r[i] = a[i] >= b[i];
        }
        return r;
    }

    static boolean[] less(double[] a, double[] b) {
        boolean[] r = new boolean[a.length];
        for (int i = 0; i < a.length; i++) {
            r[i] = a[i] < b[i];
        }
        return r;
    }

    static boolean[] lessEqual(double[] a, double[] b) {
        boolean[] r = new boolean[a.length];
        for (int i = 0; i < a.length; i++) {
            r[i] = a[i] <= b[i];
        }
        return r;
    }
}
