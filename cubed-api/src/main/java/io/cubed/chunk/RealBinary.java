package io.cubed.chunk;

/**
 * Binary loops on real floating-point arrays of the same length, one kernel per function of {@link BinaryFunction}:
 * in double for float64 (and for float32 widened, then rounded once), and directly in float for float32 where float
 * arithmetic matters (the four arithmetic operations, nextafter, floor division and remainder) or the function is hot
 * (maximum, minimum). The hot functions also have loops with one operand a single value, which save expanding a
 * scalar to a whole chunk, and the four arithmetic operations loops with one operand a row repeated along the leading
 * axes (float64), which save expanding the row. The row loops copy each stretch of the other operand into a row-sized
 * buffer, compute there and copy it out: C2 (JDK 17) does not vectorise a loop whose arrays are indexed at different
 * offsets ({@code a[base + j] - row[j]}), and the buffered form ran 1.3-1.6 times as fast on the AMD machine type
 * (one thread, 8192 elements in cache, rows of 1024).
 *
 * <p>Result arrays come from {@link TileArrays}: every loop writes every element of its result.
 *
 * <p>maximum and minimum propagate NaN and, for equal arguments (including -0.0 and +0.0), return the second one,
 * as NumPy does.
 */
final class RealBinary {
    private RealBinary() {}

    static final Kernels.BinaryReal ADD = new Kernels.BinaryReal() {
        @Override
        public double[] apply(double[] a, double[] b) {
            double[] out = TileArrays.doubles(a.length);
            for (int i = 0; i < a.length; i++) {
                out[i] = a[i] + b[i];
            }
            return out;
        }

        @Override
        public float[] applyFloat(float[] a, float[] b) {
            float[] out = TileArrays.floats(a.length);
            for (int i = 0; i < a.length; i++) {
                out[i] = a[i] + b[i];
            }
            return out;
        }

        @Override
        public double[] applyScalar(double[] a, double s, boolean scalarRight) {
            double[] out = TileArrays.doubles(a.length);
            for (int i = 0; i < a.length; i++) {
                out[i] = a[i] + s;
            }
            return out;
        }

        @Override
        public float[] applyScalarFloat(float[] a, float s, boolean scalarRight) {
            float[] out = TileArrays.floats(a.length);
            for (int i = 0; i < a.length; i++) {
                out[i] = a[i] + s;
            }
            return out;
        }

        @Override
        public double[] applyRow(double[] a, double[] row, boolean rowRight) {
            double[] out = TileArrays.doubles(a.length);
            int m = row.length;
            double[] t = TileArrays.doubles(m);
            for (int base = 0; base < a.length; base += m) {
                System.arraycopy(a, base, t, 0, m);
                for (int j = 0; j < m; j++) {
                    t[j] = t[j] + row[j];
                }
                System.arraycopy(t, 0, out, base, m);
            }
            return out;
        }
    };

    static final Kernels.BinaryReal SUBTRACT = new Kernels.BinaryReal() {
        @Override
        public double[] apply(double[] a, double[] b) {
            double[] out = TileArrays.doubles(a.length);
            for (int i = 0; i < a.length; i++) {
                out[i] = a[i] - b[i];
            }
            return out;
        }

        @Override
        public float[] applyFloat(float[] a, float[] b) {
            float[] out = TileArrays.floats(a.length);
            for (int i = 0; i < a.length; i++) {
                out[i] = a[i] - b[i];
            }
            return out;
        }

        @Override
        public double[] applyScalar(double[] a, double s, boolean scalarRight) {
            double[] out = TileArrays.doubles(a.length);
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
            float[] out = TileArrays.floats(a.length);
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
            double[] out = TileArrays.doubles(a.length);
            int m = row.length;
            double[] t = TileArrays.doubles(m);
            for (int base = 0; base < a.length; base += m) {
                System.arraycopy(a, base, t, 0, m);
                if (rowRight) {
                    for (int j = 0; j < m; j++) {
                        t[j] = t[j] - row[j];
                    }
                } else {
                    for (int j = 0; j < m; j++) {
                        t[j] = row[j] - t[j];
                    }
                }
                System.arraycopy(t, 0, out, base, m);
            }
            return out;
        }
    };

    static final Kernels.BinaryReal MULTIPLY = new Kernels.BinaryReal() {
        @Override
        public double[] apply(double[] a, double[] b) {
            double[] out = TileArrays.doubles(a.length);
            for (int i = 0; i < a.length; i++) {
                out[i] = a[i] * b[i];
            }
            return out;
        }

        @Override
        public float[] applyFloat(float[] a, float[] b) {
            float[] out = TileArrays.floats(a.length);
            for (int i = 0; i < a.length; i++) {
                out[i] = a[i] * b[i];
            }
            return out;
        }

        @Override
        public double[] applyScalar(double[] a, double s, boolean scalarRight) {
            double[] out = TileArrays.doubles(a.length);
            for (int i = 0; i < a.length; i++) {
                out[i] = a[i] * s;
            }
            return out;
        }

        @Override
        public float[] applyScalarFloat(float[] a, float s, boolean scalarRight) {
            float[] out = TileArrays.floats(a.length);
            for (int i = 0; i < a.length; i++) {
                out[i] = a[i] * s;
            }
            return out;
        }

        @Override
        public double[] applyRow(double[] a, double[] row, boolean rowRight) {
            double[] out = TileArrays.doubles(a.length);
            int m = row.length;
            double[] t = TileArrays.doubles(m);
            for (int base = 0; base < a.length; base += m) {
                System.arraycopy(a, base, t, 0, m);
                for (int j = 0; j < m; j++) {
                    t[j] = t[j] * row[j];
                }
                System.arraycopy(t, 0, out, base, m);
            }
            return out;
        }
    };

    static final Kernels.BinaryReal DIVIDE = new Kernels.BinaryReal() {
        @Override
        public double[] apply(double[] a, double[] b) {
            double[] out = TileArrays.doubles(a.length);
            for (int i = 0; i < a.length; i++) {
                out[i] = a[i] / b[i];
            }
            return out;
        }

        @Override
        public float[] applyFloat(float[] a, float[] b) {
            float[] out = TileArrays.floats(a.length);
            for (int i = 0; i < a.length; i++) {
                out[i] = a[i] / b[i];
            }
            return out;
        }

        @Override
        public double[] applyScalar(double[] a, double s, boolean scalarRight) {
            double[] out = TileArrays.doubles(a.length);
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
            float[] out = TileArrays.floats(a.length);
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
            double[] out = TileArrays.doubles(a.length);
            int m = row.length;
            double[] t = TileArrays.doubles(m);
            for (int base = 0; base < a.length; base += m) {
                System.arraycopy(a, base, t, 0, m);
                if (rowRight) {
                    for (int j = 0; j < m; j++) {
                        t[j] = t[j] / row[j];
                    }
                } else {
                    for (int j = 0; j < m; j++) {
                        t[j] = row[j] / t[j];
                    }
                }
                System.arraycopy(t, 0, out, base, m);
            }
            return out;
        }
    };

    static final Kernels.BinaryReal MAXIMUM = new Kernels.BinaryReal() {
        @Override
        public double[] apply(double[] a, double[] b) {
            double[] out = TileArrays.doubles(a.length);
            for (int i = 0; i < a.length; i++) {
                out[i] = a[i] > b[i] || Double.isNaN(a[i]) ? a[i] : b[i];
            }
            return out;
        }

        @Override
        public float[] applyFloat(float[] a, float[] b) {
            float[] out = TileArrays.floats(a.length);
            for (int i = 0; i < a.length; i++) {
                out[i] = a[i] > b[i] || Float.isNaN(a[i]) ? a[i] : b[i];
            }
            return out;
        }

        @Override
        public double[] applyScalar(double[] a, double s, boolean scalarRight) {
            double[] out = TileArrays.doubles(a.length);
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
            float[] out = TileArrays.floats(a.length);
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
            double[] out = TileArrays.doubles(a.length);
            for (int i = 0; i < a.length; i++) {
                out[i] = a[i] < b[i] || Double.isNaN(a[i]) ? a[i] : b[i];
            }
            return out;
        }

        @Override
        public float[] applyFloat(float[] a, float[] b) {
            float[] out = TileArrays.floats(a.length);
            for (int i = 0; i < a.length; i++) {
                out[i] = a[i] < b[i] || Float.isNaN(a[i]) ? a[i] : b[i];
            }
            return out;
        }

        @Override
        public double[] applyScalar(double[] a, double s, boolean scalarRight) {
            double[] out = TileArrays.doubles(a.length);
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
            float[] out = TileArrays.floats(a.length);
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
            double[] out = TileArrays.doubles(a.length);
            for (int i = 0; i < a.length; i++) {
                out[i] = Math.nextAfter(a[i], b[i]);
            }
            return out;
        }

        @Override
        public float[] applyFloat(float[] a, float[] b) {
            float[] out = TileArrays.floats(a.length);
            for (int i = 0; i < a.length; i++) {
                out[i] = Math.nextAfter(a[i], b[i]);
            }
            return out;
        }
    };

    static final Kernels.BinaryReal FLOOR_DIVIDE = new Kernels.BinaryReal() {
        @Override
        public double[] apply(double[] a, double[] b) {
            double[] out = TileArrays.doubles(a.length);
            for (int i = 0; i < a.length; i++) {
                out[i] = RealMath.floorDivide(a[i], b[i]);
            }
            return out;
        }

        @Override
        public float[] applyFloat(float[] a, float[] b) {
            float[] out = TileArrays.floats(a.length);
            for (int i = 0; i < a.length; i++) {
                out[i] = RealMath.floorDivide(a[i], b[i]);
            }
            return out;
        }
    };

    static final Kernels.BinaryReal REMAINDER = new Kernels.BinaryReal() {
        @Override
        public double[] apply(double[] a, double[] b) {
            double[] out = TileArrays.doubles(a.length);
            for (int i = 0; i < a.length; i++) {
                out[i] = RealMath.remainder(a[i], b[i]);
            }
            return out;
        }

        @Override
        public float[] applyFloat(float[] a, float[] b) {
            float[] out = TileArrays.floats(a.length);
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
            double[] out = TileArrays.doubles(a.length);
            for (int i = 0; i < a.length; i++) {
                out[i] = RealMath.pow(a[i], b[i]);
            }
            return out;
        }

        @Override
        public double[] applyScalar(double[] a, double s, boolean scalarRight) {
            double[] out = TileArrays.doubles(a.length);
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
        double[] out = TileArrays.doubles(a.length);
        for (int i = 0; i < a.length; i++) {
            out[i] = Math.atan2(a[i], b[i]);
        }
        return out;
    }

    static double[] hypot(double[] a, double[] b) {
        double[] out = TileArrays.doubles(a.length);
        for (int i = 0; i < a.length; i++) {
            out[i] = Math.hypot(a[i], b[i]);
        }
        return out;
    }

    static double[] copysign(double[] a, double[] b) {
        double[] out = TileArrays.doubles(a.length);
        for (int i = 0; i < a.length; i++) {
            out[i] = Math.copySign(a[i], b[i]);
        }
        return out;
    }

    static double[] logaddexp(double[] a, double[] b) {
        double[] out = TileArrays.doubles(a.length);
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
