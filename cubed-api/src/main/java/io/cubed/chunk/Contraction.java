package io.cubed.chunk;

import io.cubed.dtype.DType;
import io.cubed.error.InvalidArgumentException;
import java.util.Arrays;

/**
 * The product of two chunks contracted over shared index letters, einsum-style: {@code contract(a, "bik", b, "bkj",
 * "bij")} is a batched matrix product. A letter in both inputs and the output is a batch letter (length 1 in one input
 * broadcasts), in one input and the output a free letter, in both inputs but not the output a contracted (summed)
 * letter. Each batch is one dense product of the free-letters-of-a × contracted matrix with the contracted ×
 * free-letters-of-b matrix, done by {@link MatMul}. Integer types multiply in 64 bits and wrap to the result type;
 * floating types multiply in double and round once; complex types multiply in double on planar real and imaginary
 * parts ({@link ComplexContraction}) and round once.
 */
public final class Contraction {
    private Contraction() {}

    /**
     * {@code a} (letters {@code ia}) times {@code b} (letters {@code ib}) contracted over their shared letters not in
     * {@code out}, as a chunk of type {@code rt} with letters {@code out}.
     *
     * @throws InvalidArgumentException for letters that do not fit these rules, lengths that differ, or a bool or
     *     mismatched result type
     */
    public static Chunk contract(Chunk a, String ia, Chunk b, String ib, String out, DType rt) {
        return contract(a, ia, b, ib, out, rt, false);
    }

    /**
     * {@link #contract(Chunk, String, Chunk, String, String, DType)} with the complex conjugate of {@code a} when
     * {@code conjugateFirst} ({@code vecdot}); conjugating a real {@code a} changes nothing.
     *
     * @throws InvalidArgumentException for letters that do not fit these rules, lengths that differ, or a bool or
     *     mismatched result type
     */
    public static Chunk contract(Chunk a, String ia, Chunk b, String ib, String out, DType rt, boolean conjugateFirst) {
        return product(null, a, ia, b, ib, out, rt, conjugateFirst, false);
    }

    /**
     * {@code sum} plus the contraction of {@code a} and {@code b} ({@link #contract(Chunk, String, Chunk, String,
     * String, DType, boolean)}), for summing the products of several pairs of chunks one pair at a time; a null {@code
     * sum} is zero. Float64 products of row-major matrices are added by BLAS straight into {@code sum}, which is
     * returned; other types compute the product and add it in type {@code rt} (integers wrap), returning a new chunk.
     * {@code sum} is never an input chunk of the caller's: it may be written to.
     *
     * @throws InvalidArgumentException as {@code contract}, or when {@code sum} is not of type {@code rt} and the
     *     result's shape
     */
    public static Chunk contractAdd(
            Chunk sum, Chunk a, String ia, Chunk b, String ib, String out, DType rt, boolean conjugateFirst) {
        Chunk r = product(sum, a, ia, b, ib, out, rt, conjugateFirst, true);
        if (sum == null || r == sum) {
            return r;
        }
        return Elementwise.binary(BinaryFunction.ADD, sum, r);
    }

    /**
     * The contraction, added into {@code sum} and returned as {@code sum} where the product runs in BLAS on it. With
     * no {@code sum}, a BLAS product is written over a new array, one the thread's last task left ({@link
     * Chunk#allocateForTaskToOverwrite}) when {@code runningSum} (the chunk is a task's running sum, which lives until
     * the task writes it, and is not zeroed first: a chunk of 1024² is 8 MB the JVM or a fill would clear for
     * nothing).
     *
     * <p>The letters' analysis ({@link #cachedLayout}) and each type's product are methods of their own: this one runs once
     * per pair of chunks, reaches the JIT's optimizing compiler only after thousands of pairs, and compiled as one
     * method with everything inlined it took that compiler 0.55 s of a 2-core machine's CPU in the middle of a
     * computation (W4, docs/benchmarks.md).
     */
    private static Chunk product(
            Chunk sum,
            Chunk a,
            String ia,
            Chunk b,
            String ib,
            String out,
            DType rt,
            boolean conjugateFirst,
            boolean runningSum) {
        if (rt == DType.BOOL) {
            throw new InvalidArgumentException(
                    "contraction: result type " + rt + " is not supported; numeric types " + "are");
        }
        Layout l = cachedLayout(a, ia, b, ib, out);
        if (sum != null && (sum.dtype() != rt || !Arrays.equals(sum.shape(), l.outShape()))) {
            throw new InvalidArgumentException("contraction: the running sum is a " + sum.dtype() + " chunk of shape "
                    + Arrays.toString(sum.shape()) + ", the products are " + rt + " of shape "
                    + Arrays.toString(l.outShape()));
        }
        if (rt.isComplex()) {
            return ComplexContraction.contract(a, b, l, rt, conjugateFirst);
        }
        if (!rt.isFloating()) {
            return integerProduct(a, b, l, rt);
        }
        double[] ad = Casting.toDoubles(a.dtype() == rt ? a : Casting.astype(a, rt));
        double[] bd = Casting.toDoubles(b.dtype() == rt ? b : Casting.astype(b, rt));
        if (rt == DType.FLOAT64 && l.rowMajor()) {
            return blasProduct(sum, ad, bd, l, runningSum);
        }
        return floatingProduct(ad, bd, l, rt);
    }

    /**
     * Products of row-major matrices (matmul of 2-d chunks, or of stacks of them, broadcast or not): BLAS on the
     * chunks' own arrays, added straight into {@code sum}, no copies; with no sum, written over the result's array.
     * Each batch's product goes to a matrix of its own (batch letters are in the output), so with no sum every
     * element is written once, none read first.
     */
    private static Chunk blasProduct(Chunk sum, double[] ad, double[] bd, Layout l, boolean runningSum) {
        int m = l.m();
        int k = l.k();
        int n = l.n();
        if (sum != null) {
            double[] rd = sum.doubles();
            for (int t = 0; t < l.nb(); t++) {
                MatMul.multiply(ad, l.aB()[t], bd, l.bB()[t], rd, l.oB()[t], m, k, n);
            }
            return sum;
        }
        Chunk r = runningSum
                ? Chunk.allocateForTaskToOverwrite(DType.FLOAT64, l.outShape())
                : Chunk.wrap(DType.FLOAT64, l.outShape(), new double[Chunk.elementCount(l.outShape())]);
        double[] rd = r.doubles();
        for (int t = 0; t < l.nb(); t++) {
            MatMul.multiplyInto(ad, l.aB()[t], bd, l.bB()[t], rd, l.oB()[t], m, k, n);
        }
        return r;
    }

    /**
     * Floating-point products of any layout: each batch's operands gathered into row-major matrices first, and the
     * product written over the last batch's.
     */
    private static Chunk floatingProduct(double[] ad, double[] bd, Layout l, DType rt) {
        int m = l.m();
        int k = l.k();
        int n = l.n();
        double[] r = new double[Chunk.elementCount(l.outShape())];
        double[] am = new double[m * k];
        double[] bm = new double[k * n];
        double[] cm = new double[m * n];
        for (int t = 0; t < l.nb(); t++) {
            for (int i = 0; i < m; i++) {
                for (int p = 0; p < k; p++) {
                    am[i * k + p] = ad[l.aB()[t] + l.aM()[i] + l.aK()[p]];
                }
            }
            for (int p = 0; p < k; p++) {
                for (int j = 0; j < n; j++) {
                    bm[p * n + j] = bd[l.bB()[t] + l.bK()[p] + l.bN()[j]];
                }
            }
            MatMul.multiplyInto(am, 0, bm, 0, cm, 0, m, k, n);
            for (int i = 0; i < m; i++) {
                for (int j = 0; j < n; j++) {
                    r[l.oB()[t] + l.oM()[i] + l.oN()[j]] = cm[i * n + j];
                }
            }
        }
        return Chunk.wrap(rt, l.outShape(), Casting.fromDoubles(r, rt));
    }

    /** Integer products (wrapping), each batch's operands gathered into row-major matrices first. */
    private static Chunk integerProduct(Chunk a, Chunk b, Layout l, DType rt) {
        int m = l.m();
        int k = l.k();
        int n = l.n();
        long[] al = Casting.toLongs(a.dtype() == rt ? a : Casting.astype(a, rt));
        long[] bl = Casting.toLongs(b.dtype() == rt ? b : Casting.astype(b, rt));
        long[] r = new long[Chunk.elementCount(l.outShape())];
        long[] am = new long[m * k];
        long[] bm = new long[k * n];
        long[] cm = new long[m * n];
        for (int t = 0; t < l.nb(); t++) {
            for (int i = 0; i < m; i++) {
                for (int p = 0; p < k; p++) {
                    am[i * k + p] = al[l.aB()[t] + l.aM()[i] + l.aK()[p]];
                }
            }
            for (int p = 0; p < k; p++) {
                for (int j = 0; j < n; j++) {
                    bm[p * n + j] = bl[l.bB()[t] + l.bK()[p] + l.bN()[j]];
                }
            }
            Arrays.fill(cm, 0);
            MatMul.multiply(am, 0, bm, 0, cm, 0, m, k, n);
            for (int i = 0; i < m; i++) {
                for (int j = 0; j < n; j++) {
                    r[l.oB()[t] + l.oM()[i] + l.oN()[j]] = cm[i * n + j];
                }
            }
        }
        return Chunk.wrap(rt, l.outShape(), Casting.fromLongs(r, rt));
    }

    /**
     * The last layout each thread worked out ({@link #cachedLayout}). A thread's tasks multiply pair after pair of
     * chunks with the same letters and, but for the edges of the grids, the same shapes.
     */
    private static final ThreadLocal<CachedLayout> LAST_LAYOUT = new ThreadLocal<>();

    /** A layout and what it was worked out from: the letters and the two chunks' shapes. */
    private record CachedLayout(String ia, int[] aShape, String ib, int[] bShape, String out, Layout layout) {
        boolean isFor(Chunk a, String ia, Chunk b, String ib, String out) {
            return sameShape(aShape, a)
                    && sameShape(bShape, b)
                    && this.ia.equals(ia)
                    && this.ib.equals(ib)
                    && this.out.equals(out);
        }

        private static boolean sameShape(int[] shape, Chunk x) {
            if (shape.length != x.ndim()) {
                return false;
            }
            for (int i = 0; i < shape.length; i++) {
                if (shape[i] != x.shape(i)) {
                    return false;
                }
            }
            return true;
        }
    }

    /**
     * {@link #layout}, reused while a thread's pairs of chunks have the same letters and shapes (a layout depends on
     * nothing else, and its arrays are only read). Worked out anew for each pair, its offsets cost a pass over every
     * row and column of both chunks, and its C2 compilation, once thousands of pairs had called it, took 0.33-0.37 s of
     * a core in the first timed rounds of W4 on 2 cores (docs/benchmarks.md); reused, it runs a few times per thread.
     * Layouts of more than {@link #CACHED_LAYOUT_MAX_OFFSETS} offsets are not kept (their chunks' products dwarf
     * working them out).
     */
    private static Layout cachedLayout(Chunk a, String ia, Chunk b, String ib, String out) {
        CachedLayout last = LAST_LAYOUT.get();
        if (last != null && last.isFor(a, ia, b, ib, out)) {
            return last.layout();
        }
        Layout l = layout(a, ia, b, ib, out);
        if (l.offsetCount() <= CACHED_LAYOUT_MAX_OFFSETS) {
            LAST_LAYOUT.set(new CachedLayout(ia, a.shape(), ib, b.shape(), out, l));
        }
        return l;
    }

    /**
     * The most offsets a layout a thread keeps between pairs may hold (256 kB of them): a layout has one per row,
     * column and contracted index of its chunks, and a thread keeps it after its task, outside the tasks' memory
     * (a {@code vecdot} of chunks of 10⁷ elements has 2 × 10⁷ contracted offsets, 80 MB).
     */
    static final int CACHED_LAYOUT_MAX_OFFSETS = 1 << 16;

    /**
     * Where the elements of {@code a} (letters {@code ia}) times {@code b} (letters {@code ib}) with letters {@code
     * out} are, after checking the letters and lengths: letters in both inputs and the output are batches, those in
     * one input and the output free rows or columns, those in both inputs only contracted.
     */
    private static Layout layout(Chunk a, String ia, Chunk b, String ib, String out) {
        check(a, ia, "first");
        check(b, ib, "second");
        StringBuilder batch = new StringBuilder();
        StringBuilder freeA = new StringBuilder();
        StringBuilder freeB = new StringBuilder();
        StringBuilder con = new StringBuilder();
        for (char c : out.toCharArray()) {
            boolean inA = ia.indexOf(c) >= 0;
            boolean inB = ib.indexOf(c) >= 0;
            if (inA && inB) {
                batch.append(c);
            } else if (inA) {
                freeA.append(c);
            } else if (inB) {
                freeB.append(c);
            } else {
                throw new InvalidArgumentException("contraction: output letter '" + c + "' is in neither input");
            }
        }
        for (char c : ia.toCharArray()) {
            if (out.indexOf(c) < 0) {
                if (ib.indexOf(c) < 0) {
                    throw new InvalidArgumentException("contraction: letter '" + c
                            + "' of the first input is in neither the second nor the output");
                }
                con.append(c);
            }
        }
        for (char c : ib.toCharArray()) {
            if (out.indexOf(c) < 0 && ia.indexOf(c) < 0) {
                throw new InvalidArgumentException(
                        "contraction: letter '" + c + "' of the second input is in neither the first nor the output");
            }
        }
        int[] outShape = new int[out.length()];
        for (int i = 0; i < out.length(); i++) {
            outShape[i] = length(out.charAt(i), a, ia, b, ib, false);
        }
        for (char c : con.toString().toCharArray()) {
            length(c, a, ia, b, ib, true);
        }
        return new Layout(
                size(batch, a, ia, b, ib),
                size(freeA, a, ia, b, ib),
                size(con, a, ia, b, ib),
                size(freeB, a, ia, b, ib),
                offsets(batch.toString(), a, ia, b, ib, a.shape(), ia),
                offsets(freeA.toString(), a, ia, b, ib, a.shape(), ia),
                offsets(con.toString(), a, ia, b, ib, a.shape(), ia),
                offsets(batch.toString(), a, ia, b, ib, b.shape(), ib),
                offsets(con.toString(), a, ia, b, ib, b.shape(), ib),
                offsets(freeB.toString(), a, ia, b, ib, b.shape(), ib),
                offsets(batch.toString(), a, ia, b, ib, outShape, out),
                offsets(freeA.toString(), a, ia, b, ib, outShape, out),
                offsets(freeB.toString(), a, ia, b, ib, outShape, out),
                outShape);
    }

    private static void check(Chunk x, String letters, String which) {
        if (letters.length() != x.ndim()) {
            throw new InvalidArgumentException("contraction: letters '" + letters + "' of the " + which + " input do "
                    + "not match its shape " + Arrays.toString(x.shape()));
        }
        for (int i = 0; i < letters.length(); i++) {
            if (letters.indexOf(letters.charAt(i)) != i) {
                throw new InvalidArgumentException(
                        "contraction: letter '" + letters.charAt(i) + "' repeats in the " + which + " input");
            }
        }
    }

    /** The length of letter {@code c}: equal in both inputs, or 1 in one of them (broadcast) unless contracted. */
    private static int length(char c, Chunk a, String ia, Chunk b, String ib, boolean contracted) {
        int pa = ia.indexOf(c);
        int pb = ib.indexOf(c);
        int la = pa >= 0 ? a.shape(pa) : 1;
        int lb = pb >= 0 ? b.shape(pb) : 1;
        if (la != lb && (contracted || (la != 1 && lb != 1))) {
            throw new InvalidArgumentException("contraction: letter '" + c + "' has length " + la + " in the first "
                    + "input and " + lb + " in the second");
        }
        return Math.max(la, lb);
    }

    private static int size(CharSequence letters, Chunk a, String ia, Chunk b, String ib) {
        int s = 1;
        for (int i = 0; i < letters.length(); i++) {
            s *= length(letters.charAt(i), a, ia, b, ib, false);
        }
        return s;
    }

    /** True when {@code rows[i] == i · width} and {@code cols[j] == j}: a row-major block of {@code width} columns. */
    private static boolean rowMajor(int[] rows, int[] cols, int width) {
        if (cols.length != width) {
            return false;
        }
        for (int i = 0; i < rows.length; i++) {
            if (rows[i] != i * width) {
                return false;
            }
        }
        for (int j = 0; j < cols.length; j++) {
            if (cols[j] != j) {
                return false;
            }
        }
        return true;
    }

    /**
     * For every combination of {@code letters} (C order), the flat offset in an array of shape {@code x} (letters
     * {@code ix}); a letter that {@code x} lacks or holds with length 1 contributes 0 (broadcast).
     */
    private static int[] offsets(String letters, Chunk a, String ia, Chunk b, String ib, int[] x, String ix) {
        int count = size(letters, a, ia, b, ib);
        int[] stride = Chunk.strides(x);
        int[] off = new int[count];
        int[] lengths = new int[letters.length()];
        int[] steps = new int[letters.length()];
        for (int l = 0; l < letters.length(); l++) {
            lengths[l] = length(letters.charAt(l), a, ia, b, ib, false);
            int p = ix.indexOf(letters.charAt(l));
            steps[l] = p >= 0 && x[p] != 1 ? stride[p] : 0;
        }
        for (int i = 0; i < count; i++) {
            int rest = i;
            int o = 0;
            for (int l = letters.length() - 1; l >= 0; l--) {
                o += (rest % lengths[l]) * steps[l];
                rest /= lengths[l];
            }
            off[i] = o;
        }
        return off;
    }

    /**
     * Where the elements of one contraction are: {@code nb} batches of an {@code m×k} by {@code k×n} product; for
     * batch {@code t}, row {@code i}, contracted index {@code p} and column {@code j}, element {@code aB[t] + aM[i] +
     * aK[p]} of the first input, {@code bB[t] + bK[p] + bN[j]} of the second and {@code oB[t] + oM[i] + oN[j]} of the
     * output (flat element indexes, C order); the output's shape.
     */
    record Layout(
            int nb,
            int m,
            int k,
            int n,
            int[] aB,
            int[] aM,
            int[] aK,
            int[] bB,
            int[] bK,
            int[] bN,
            int[] oB,
            int[] oM,
            int[] oN,
            int[] outShape) {
        /** How many offsets the layout holds, in all of its arrays. */
        long offsetCount() {
            return (long) aB.length
                    + aM.length
                    + aK.length
                    + bB.length
                    + bK.length
                    + bN.length
                    + oB.length
                    + oM.length
                    + oN.length;
        }

        /** Whether every matrix of the three is row-major and contiguous, as BLAS takes them. */
        boolean rowMajor() {
            return Contraction.rowMajor(aM, aK, k)
                    && Contraction.rowMajor(bK, bN, n)
                    && Contraction.rowMajor(oM, oN, n);
        }
    }

    /** {@code x} with its last two axes swapped (each matrix transposed), as a new chunk. */
    public static Chunk matrixTranspose(Chunk x) {
        int nd = x.ndim();
        if (nd < 2) {
            throw new InvalidArgumentException(
                    "matrix_transpose needs a chunk of rank 2 or more, got shape " + Arrays.toString(x.shape()));
        }
        int[] s = x.shape();
        int rows = s[nd - 2];
        int cols = s[nd - 1];
        int[] t = s.clone();
        t[nd - 2] = cols;
        t[nd - 1] = rows;
        Chunk out = Chunk.allocate(x.dtype(), t);
        int slots = x.dtype().slotsPerElement();
        int matrix = rows * cols;
        int count = matrix == 0 ? 0 : x.size() / matrix;
        Object src = x.data();
        Object dst = out.data();
        for (int b = 0; b < count; b++) {
            int base = b * matrix;
            for (int i = 0; i < rows; i++) {
                for (int j = 0; j < cols; j++) {
                    System.arraycopy(src, (base + i * cols + j) * slots, dst, (base + j * rows + i) * slots, slots);
                }
            }
        }
        return out;
    }
}
