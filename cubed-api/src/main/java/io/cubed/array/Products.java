package io.cubed.array;

import io.cubed.chunk.Chunk;
import io.cubed.chunk.Contraction;
import io.cubed.error.InvalidArgumentException;
import io.cubed.primitive.ChunkArgs;
import java.util.Arrays;

/**
 * The products of {@link LinearAlgebra}: each checks its operands' shapes, names their axes with letters (as an
 * einsum would) and hands the letters to {@link ContractionPlan}; {@code matrix_transpose} is a plain blockwise
 * operation and {@code matrix_power} a chain of {@code matmul}s.
 */
final class Products {
    private Products() {}

    /** {@link LinearAlgebra#matmul}: batch axes get letters, then rows Y, contracted Z and columns X. */
    static CubedArray matmul(CubedArray x1, CubedArray x2) {
        int n1 = x1.ndim();
        int n2 = x2.ndim();
        if (n1 == 0 || n2 == 0) {
            throw new InvalidArgumentException("matmul of " + x1.name() + " and " + x2.name()
                    + ": operands must have rank 1 or more, got shapes " + Arrays.toString(x1.shape()) + " and "
                    + Arrays.toString(x2.shape()));
        }
        int batch = Math.max(Math.max(n1, n2) - 2, 0);
        String letters = Blockwise.letters(batch);
        // Batch letters are a, b, ...; rows, contracted and columns are Y, Z, X.
        String i1 = n1 == 1 ? "Z" : letters.substring(batch - (n1 - 2)) + "YZ";
        String i2 = n2 == 1 ? "Z" : letters.substring(batch - (n2 - 2)) + "ZX";
        String out = (n1 == 1 && n2 == 1 ? "" : letters) + (n1 > 1 ? "Y" : "") + (n2 > 1 ? "X" : "");
        long k1 = x1.shape()[n1 - 1];
        long k2 = x2.shape()[n2 == 1 ? 0 : n2 - 2];
        if (k1 != k2) {
            throw new InvalidArgumentException("matmul of " + x1.name() + " and " + x2.name() + ": shapes "
                    + Arrays.toString(x1.shape()) + " and " + Arrays.toString(x2.shape()) + " do not align: "
                    + k1 + " (last axis of the first) != " + k2 + " (" + (n2 == 1 ? "only" : "second-to-last")
                    + " axis of the second)");
        }
        return ContractionPlan.contract("matmul", x1, i1, x2, i2, out, false);
    }

    /** {@link LinearAlgebra#tensordot(CubedArray, CubedArray, int)}: x1's last {@code axes} axes against x2's first. */
    static CubedArray tensordot(CubedArray x1, CubedArray x2, int axes) {
        if (axes < 0 || axes > x1.ndim() || axes > x2.ndim()) {
            throw new InvalidArgumentException("tensordot of " + x1.name() + " and " + x2.name() + ": axes " + axes
                    + " must be between 0 and the smaller rank (" + x1.ndim() + ", " + x2.ndim() + ")");
        }
        int[] a1 = new int[axes];
        int[] a2 = new int[axes];
        for (int i = 0; i < axes; i++) {
            a1[i] = x1.ndim() - axes + i;
            a2[i] = i;
        }
        return tensordot(x1, x2, a1, a2);
    }

    /** {@link LinearAlgebra#tensordot(CubedArray, CubedArray, int[], int[])}: paired axes share a letter. */
    static CubedArray tensordot(CubedArray x1, CubedArray x2, int[] axes1, int[] axes2) {
        String op = "tensordot";
        if (axes1.length != axes2.length) {
            throw new InvalidArgumentException(op + " of " + x1.name() + " and " + x2.name() + ": axes "
                    + Arrays.toString(axes1) + " and " + Arrays.toString(axes2) + " differ in number");
        }
        int[] n1 = Reduction.normalizeAxes(op, x1, axes1);
        Reduction.normalizeAxes(op, x2, axes2);
        char[] l1 = new char[x1.ndim()];
        char[] l2 = new char[x2.ndim()];
        char next = 'a';
        for (int a = 0; a < l1.length; a++) {
            l1[a] = next++;
        }
        Arrays.fill(l2, (char) 0);
        for (int i = 0; i < axes1.length; i++) {
            int a1 = Reduction.normalizeAxis(op, x1, axes1[i]);
            int a2 = Reduction.normalizeAxis(op, x2, axes2[i]);
            if (x1.shape()[a1] != x2.shape()[a2]) {
                throw new InvalidArgumentException(op + " of " + x1.name() + " and " + x2.name() + ": axis " + a1
                        + " of length " + x1.shape()[a1] + " cannot be contracted with axis " + a2 + " of length "
                        + x2.shape()[a2]);
            }
            l2[a2] = l1[a1];
        }
        StringBuilder out = new StringBuilder();
        for (int a = 0; a < l1.length; a++) {
            if (Arrays.binarySearch(n1, a) < 0) {
                out.append(l1[a]);
            }
        }
        for (int a = 0; a < l2.length; a++) {
            if (l2[a] == 0) {
                l2[a] = next++;
                out.append(l2[a]);
            }
        }
        return ContractionPlan.contract(op, x1, new String(l1), x2, new String(l2), out.toString(), false);
    }

    /** {@link LinearAlgebra#vecdot(CubedArray, CubedArray, int)}: the chosen axis is the one contracted letter. */
    static CubedArray vecdot(CubedArray x1, CubedArray x2, int axis) {
        int nd = Math.max(x1.ndim(), x2.ndim());
        if (axis < -nd || axis >= nd || x1.ndim() == 0 || x2.ndim() == 0) {
            throw new InvalidArgumentException("vecdot of " + x1.name() + " and " + x2.name() + ": axis " + axis
                    + " is out of bounds for shapes " + Arrays.toString(x1.shape()) + " and "
                    + Arrays.toString(x2.shape()));
        }
        int a = axis < 0 ? axis + nd : axis;
        String letters = Blockwise.letters(nd);
        String i1 = letters.substring(nd - x1.ndim());
        String i2 = letters.substring(nd - x2.ndim());
        char c = letters.charAt(a);
        if (i1.indexOf(c) < 0 || i2.indexOf(c) < 0) {
            throw new InvalidArgumentException("vecdot of " + x1.name() + " and " + x2.name() + ": axis " + axis
                    + " must be an axis of both shapes " + Arrays.toString(x1.shape()) + " and "
                    + Arrays.toString(x2.shape()));
        }
        long len1 = x1.shape()[i1.indexOf(c)];
        long len2 = x2.shape()[i2.indexOf(c)];
        if (len1 != len2) {
            throw new InvalidArgumentException("vecdot of " + x1.name() + " and " + x2.name() + ": axis " + axis
                    + " has length " + len1 + " and " + len2);
        }
        return ContractionPlan.contract("vecdot", x1, i1, x2, i2, letters.replace(String.valueOf(c), ""), true);
    }

    /** {@link LinearAlgebra#outer}: a contraction over no letter at all. */
    static CubedArray outer(CubedArray x1, CubedArray x2) {
        if (x1.ndim() != 1 || x2.ndim() != 1) {
            throw new InvalidArgumentException("outer of " + x1.name() + " and " + x2.name() + ": both must be 1-d, "
                    + "got shapes " + Arrays.toString(x1.shape()) + " and " + Arrays.toString(x2.shape()));
        }
        return ContractionPlan.contract("outer", x1, "i", x2, "j", "ij", false);
    }

    /** {@link LinearAlgebra#matrixTranspose}: a blockwise swap of the last two letters. */
    static CubedArray matrixTranspose(CubedArray x) {
        int nd = x.ndim();
        if (nd < 2) {
            throw new InvalidArgumentException("matrix_transpose of " + x.name() + ": needs rank 2 or more, got shape "
                    + Arrays.toString(x.shape()));
        }
        String in = Blockwise.letters(nd);
        String out = in.substring(0, nd - 2) + in.charAt(nd - 1) + in.charAt(nd - 2);
        return Blockwise.blockwise(new TransposeChunks(), out, x.dtype(), x, in);
    }

    /** {@link LinearAlgebra#matrixPower}: identity, the array itself, or squarings multiplied in. */
    static CubedArray matrixPower(CubedArray x, long n) {
        int nd = x.ndim();
        if (nd < 2 || x.shape()[nd - 2] != x.shape()[nd - 1]) {
            throw new InvalidArgumentException("matrix_power of " + Layout.describe(x) + ": needs square matrices "
                    + "in the last two axes (shape (..., M, M))");
        }
        LinalgChecks.checkNumeric("matrix_power of " + Layout.describe(x), "matrix_power", x);
        if (n < 0) {
            if (x.dtype().isInteger()) {
                throw new InvalidArgumentException("matrix_power of " + Layout.describe(x) + ": n = " + n + " is an "
                        + "inverse power, and integer matrices are not inverted (as in NumPy); cast to a floating-point "
                        + "type with astype first");
            }
            if (n == Long.MIN_VALUE) {
                throw new InvalidArgumentException(
                        "matrix_power of " + Layout.describe(x) + ": n = " + n + " has no positive counterpart");
            }
            return matrixPower(MatrixFactorizations.inv(x), -n);
        }
        if (n == 0) {
            int[] chunks = x.chunkShape();
            long m = x.shape()[nd - 1];
            CubedArray eye = Creation.eye(m, m, 0, new int[] {chunks[nd - 2], chunks[nd - 1]}, x.dtype(), x.spec());
            return nd == 2 ? eye : Manipulation.broadcastTo(eye, x.shape(), chunks);
        }
        // NumPy's order: z runs through x, x², x⁴, ...; the result multiplies in the z of each set bit of n.
        CubedArray z = null;
        CubedArray result = null;
        long rest = n;
        while (rest > 0) {
            z = z == null ? x : matmul(z, z);
            if ((rest & 1) == 1) {
                result = result == null ? z : matmul(result, z);
            }
            rest >>= 1;
        }
        return result;
    }

    /** Transposes the last two axes of a chunk. */
    private record TransposeChunks() implements BlockwiseFunction {
        @Override
        public Chunk apply(ChunkArgs args, long[] blockId) {
            return Contraction.matrixTranspose(args.chunk(0));
        }
    }
}
