package io.cubed.chunk;

import io.cubed.dtype.DType;
import java.util.Arrays;

/**
 * The complex path of {@link Contraction}: each batch's operands are gathered from their chunks (complex64 and
 * complex128 interleaved, or real) straight into planar double arrays, real and imaginary parts apart, multiplied by
 * {@link MatMul#multiplyComplex} (four real BLAS products, two when one operand is real), and scattered into an
 * interleaved result, rounded once to complex64 when that is the result type.
 *
 * <p>Working memory beyond the inputs and the output chunk, in bytes: {@code 16·m·k} for the first operand's parts
 * ({@code 8·m·k} when it is real), {@code 16·k·n} for the second's, {@code 16·m·n} for the product's parts, and for a
 * complex64 result the interleaved double result ({@code 16} per output element) that is rounded into it. Integer or
 * bool inputs, which the standard does not promote with complex types, are converted to the result type first.
 */
final class ComplexContraction {
    private ComplexContraction() {}

    static Chunk contract(Chunk a, Chunk b, Contraction.Layout l, DType rt, boolean conjugateFirst) {
        Chunk ca = a.dtype().isFloating() || a.dtype().isComplex() ? a : Casting.astype(a, rt);
        Chunk cb = b.dtype().isFloating() || b.dtype().isComplex() ? b : Casting.astype(b, rt);
        int m = l.m();
        int k = l.k();
        int n = l.n();
        boolean aComplex = ca.dtype().isComplex();
        boolean bComplex = cb.dtype().isComplex();
        double[] ar = new double[m * k];
        double[] ai = aComplex ? new double[m * k] : null;
        double[] br = new double[k * n];
        double[] bi = bComplex ? new double[k * n] : null;
        double[] cr = new double[m * n];
        double[] ci = new double[m * n];
        double[] r = new double[2 * Chunk.elementCount(l.outShape())];
        int[] oM = l.oM();
        int[] oN = l.oN();
        for (int t = 0; t < l.nb(); t++) {
            gather(ca, l.aB()[t], l.aM(), l.aK(), ar, ai, conjugateFirst);
            gather(cb, l.bB()[t], l.bK(), l.bN(), br, bi, false);
            Arrays.fill(cr, 0);
            Arrays.fill(ci, 0);
            MatMul.multiplyComplex(ar, ai, br, bi, cr, ci, m, k, n);
            int base = l.oB()[t];
            for (int i = 0; i < m; i++) {
                for (int j = 0; j < n; j++) {
                    int o = 2 * (base + oM[i] + oN[j]);
                    r[o] = cr[i * n + j];
                    r[o + 1] = ci[i * n + j];
                }
            }
        }
        return Chunk.wrap(rt, l.outShape(), Casting.fromDoubles(r, rt));
    }

    /**
     * Element {@code base + rows[i] + cols[j]} of {@code x} into {@code re[i·cols.length + j]} and, for a complex
     * {@code x}, its imaginary part (negated when {@code conjugate}) into {@code im}; {@code im} is null for a real
     * {@code x}.
     */
    private static void gather(Chunk x, int base, int[] rows, int[] cols, double[] re, double[] im, boolean conjugate) {
        int w = cols.length;
        double sign = conjugate ? -1.0 : 1.0;
        switch (x.dtype()) {
            case COMPLEX128 -> {
                double[] d = x.doubles();
                for (int i = 0; i < rows.length; i++) {
                    for (int j = 0; j < w; j++) {
                        int s = 2 * (base + rows[i] + cols[j]);
                        re[i * w + j] = d[s];
                        im[i * w + j] = sign * d[s + 1];
                    }
                }
            }
            case COMPLEX64 -> {
                float[] f = x.floats();
                for (int i = 0; i < rows.length; i++) {
                    for (int j = 0; j < w; j++) {
                        int s = 2 * (base + rows[i] + cols[j]);
                        re[i * w + j] = f[s];
                        im[i * w + j] = sign * f[s + 1];
                    }
                }
            }
            case FLOAT64 -> {
                double[] d = x.doubles();
                for (int i = 0; i < rows.length; i++) {
                    for (int j = 0; j < w; j++) {
                        re[i * w + j] = d[base + rows[i] + cols[j]];
                    }
                }
            }
            case FLOAT32 -> {
                float[] f = x.floats();
                for (int i = 0; i < rows.length; i++) {
                    for (int j = 0; j < w; j++) {
                        re[i * w + j] = f[base + rows[i] + cols[j]];
                    }
                }
            }
            default -> throw new AssertionError(x.dtype());
        }
    }
}
