package io.cubed.array;

import io.cubed.chunk.ReduceFunction;
import io.cubed.dtype.DType;
import io.cubed.dtype.DTypes;
import io.cubed.dtype.Scalar;
import io.cubed.error.InvalidArgumentException;

/**
 * The vector and matrix norms of {@link LinearAlgebra} ({@code vector_norm}, {@code matrix_norm}), composed from
 * elementwise functions and tree reductions; only the singular-value orders of {@code matrix_norm} take a
 * factorization.
 */
final class Norms {
    private Norms() {}

    /** {@link LinearAlgebra#vectorNorm(CubedArray, int[], boolean, double)}, as NumPy builds it. */
    static CubedArray vectorNorm(CubedArray x, int[] axis, boolean keepdims, double ord) {
        String op = "vector_norm";
        DType t = x.dtype();
        if (!t.isFloating() && !t.isComplex()) {
            throw new InvalidArgumentException(op + " of " + Layout.describe(x) + ": data type " + t + " is not "
                    + "supported; vector_norm takes a floating-point array (float32, float64, complex64, complex128): "
                    + "cast it with astype first");
        }
        if (Double.isNaN(ord)) {
            throw new InvalidArgumentException(
                    op + " of " + x.name() + ": ord must be a real number or ±infinity, got NaN");
        }
        int[] axes = Reduction.normalizeAxes(op, x, axis);
        ReductionOptions options = ReductionOptions.axis(axes).keepdims(keepdims);
        DType real = DTypes.realOf(t);
        if (Double.isInfinite(ord)) {
            for (int a : axes) {
                if (x.shape()[a] == 0) {
                    throw new InvalidArgumentException(op + " of " + Layout.describe(x) + ": ord=" + ord + " is the "
                            + (ord > 0 ? "maximum" : "minimum") + " of |x| along axis " + a + ", which is empty");
                }
            }
            ReduceFunction f = ord > 0 ? ReduceFunction.MAX : ReduceFunction.MIN;
            return Reduction.reduce(Elementwise.abs(x), f, options, op + " " + f.pythonName());
        }
        if (ord == 0) {
            CubedArray count = Reduction.reduce(x, ReduceFunction.COUNT_NONZERO, options, op + " count");
            return Elementwise.astype(count, real);
        }
        if (ord == 1) {
            return Reduction.reduce(Elementwise.abs(x), ReduceFunction.SUM, options, op + " sum");
        }
        if (ord == 2) {
            CubedArray squares = t.isComplex()
                    ? Elementwise.add(Elementwise.square(Elementwise.real(x)), Elementwise.square(Elementwise.imag(x)))
                    : Elementwise.square(x);
            return Elementwise.sqrt(Reduction.reduce(squares, ReduceFunction.SUM, options, op + " sum"));
        }
        CubedArray powers = Elementwise.pow(Elementwise.abs(x), Scalar.ofDouble(ord));
        CubedArray sum = Reduction.reduce(powers, ReduceFunction.SUM, options, op + " sum");
        // NumPy raises to the reciprocal of ord computed in the result type (1/3 rounded to float32 for float32).
        double inverse = real == DType.FLOAT32 ? (double) (1.0f / (float) ord) : 1.0 / ord;
        return Elementwise.pow(sum, Scalar.ofDouble(inverse));
    }

    /** {@link LinearAlgebra#matrixNorm(CubedArray, boolean, String)}: sums and extremes, or singular values. */
    static CubedArray matrixNorm(CubedArray x, boolean keepdims, String ord) {
        String op = "matrix_norm";
        DType t = LinalgChecks.factorType(op, x, false);
        CubedArray xf = Elementwise.astype(x, t);
        int nd = x.ndim();
        CubedArray r;
        switch (ord) {
            case "fro" -> {
                CubedArray a = Elementwise.abs(xf);
                r = Elementwise.sqrt(Statistical.sum(
                        Elementwise.multiply(a, a),
                        ReductionOptions.axis(nd - 2, nd - 1).keepdims(keepdims)));
            }
            case "1", "-1", "inf", "-inf" -> {
                boolean cols = ord.endsWith("1");
                CubedArray sums = Statistical.sum(
                        Elementwise.abs(xf),
                        ReductionOptions.axis(cols ? nd - 2 : nd - 1).keepdims(true));
                ReductionOptions o =
                        ReductionOptions.axis(cols ? nd - 1 : nd - 2).keepdims(true);
                r = ord.startsWith("-") ? Statistical.min(sums, o) : Statistical.max(sums, o);
                if (!keepdims) {
                    r = Manipulation.squeeze(r, nd - 2, nd - 1);
                }
            }
            case "2", "-2", "nuc" -> {
                CubedArray s = MatrixFactorizations.svdvals(xf);
                ReductionOptions o = ReductionOptions.axis(s.ndim() - 1);
                r = ord.equals("nuc")
                        ? Statistical.sum(s, o)
                        : ord.equals("2") ? Statistical.max(s, o) : Statistical.min(s, o);
                if (keepdims) {
                    r = Manipulation.expandDims(r, r.ndim(), r.ndim() + 1);
                }
            }
            default -> throw new InvalidArgumentException(op + " of " + x.name() + ": ord '" + ord
                    + "' is not one of 'fro', 'nuc', '1', '-1', '2', '-2', 'inf', '-inf'");
        }
        return r;
    }
}
