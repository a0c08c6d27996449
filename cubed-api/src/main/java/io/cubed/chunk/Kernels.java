package io.cubed.chunk;

import io.cubed.dtype.DType;

/**
 * The shapes of the loops that implement one elementwise function for one family of data types: the kernel columns of
 * {@link UnaryFunction} and {@link BinaryFunction}. Every loop takes whole working arrays (bool as {@code boolean[]},
 * integers widened to {@code long[]}, real floats to {@code double[]}, complex to interleaved {@code double[]}) and
 * returns a new array, so each function's loop is compiled for that function alone.
 */
final class Kernels {
    private Kernels() {}

    /** A unary loop on bool: the results as {@code boolean[]}. */
    @FunctionalInterface
    interface UnaryBool {
        boolean[] apply(boolean[] x);
    }

    /** A unary loop on integers of type {@code t}: {@code long[]} to be wrapped to the result type, or boolean[]. */
    @FunctionalInterface
    interface UnaryInt {
        Object apply(long[] x, DType t);
    }

    /** A unary loop on real floats: {@code double[]} to be rounded to the result type, or {@code boolean[]}. */
    @FunctionalInterface
    interface UnaryReal {
        Object apply(double[] x);
    }

    /**
     * A unary loop on interleaved complex values of {@code z.length / 2} elements: interleaved {@code double[]}, a
     * {@code double[]} of one real per element, or {@code boolean[]}.
     */
    @FunctionalInterface
    interface UnaryComplex {
        Object apply(double[] z);
    }

    /** One complex function of one element {@code x + iy}, written to {@code out[o]} and {@code out[o + 1]}. */
    @FunctionalInterface
    interface ComplexElement {
        void apply(double x, double y, double[] out, int o);
    }

    /** A binary loop on bool arrays of the same length. */
    @FunctionalInterface
    interface BinaryBool {
        boolean[] apply(boolean[] a, boolean[] b);
    }

    /** A binary loop on integer arrays of the same length and promoted type {@code t}: long[] or boolean[]. */
    @FunctionalInterface
    interface BinaryInt {
        Object apply(long[] a, long[] b, DType t);
    }

    /**
     * The loops of a binary function on real floats of the same length. {@link #apply} computes in double (float32
     * inputs are widened and the result rounded once); the optional loops return null when the function has none.
     */
    @FunctionalInterface
    interface BinaryReal {
        /** float64 loop: {@code double[]} or {@code boolean[]}. */
        Object apply(double[] a, double[] b);

        /** A float32 loop in float arithmetic, where it differs from double-then-round or is hot; else null. */
        default float[] applyFloat(float[] a, float[] b) {
            return null;
        }

        /** {@code f(a[i], s)} if {@code scalarRight}, else {@code f(s, a[i])}, in double; or null. */
        default double[] applyScalar(double[] a, double s, boolean scalarRight) {
            return null;
        }

        /** {@link #applyScalar} in float32 arithmetic; or null. */
        default float[] applyScalarFloat(float[] a, float s, boolean scalarRight) {
            return null;
        }

        /**
         * {@code f(a[i], row[i % row.length])} if {@code rowRight}, else {@code f(row[i % row.length], a[i])}, in
         * double, where {@code a.length} is a multiple of {@code row.length}: an operand broadcast along the leading
         * axes (such as {@code x - mean(x, axis=0)}) without expanding it to a whole chunk; or null.
         */
        default double[] applyRow(double[] a, double[] row, boolean rowRight) {
            return null;
        }
    }

    /** A binary loop on interleaved complex arrays of the same length: interleaved double[] or boolean[]. */
    @FunctionalInterface
    interface BinaryComplex {
        Object apply(double[] a, double[] b);
    }
}
