package io.cubed.array;

import static org.assertj.core.api.Assertions.assertThat;

import io.cubed.Cubed;
import io.cubed.chunk.Chunk;
import io.cubed.chunk.Contraction;
import io.cubed.dtype.DType;
import io.cubed.plan.Computation;
import io.cubed.plan.OpNode;
import io.cubed.plan.Spec;
import io.cubed.runtime.LocalExecutor;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Linear algebra on complex64 and complex128 arrays, alone and mixed with real ones, against plain loops over (re, im)
 * pairs: matmul (2-d, batched with broadcasting, the 1-d rules), tensordot, vecdot (which conjugates its first
 * operand), outer and matrix_transpose, on chunkings whose chunks do not divide the shape and that split the
 * contracted axis over several chunks; result types by the standard's promotion table; the projected memory of a
 * complex product term by term, and that it covers what the kernel allocates.
 */
class ComplexLinearAlgebraTest {
    @TempDir
    Path tmp;

    private Spec spec() {
        return Spec.builder()
                .workDir(tmp.resolve("work").toString())
                .allowedMem(50_000_000)
                .reservedMem(0)
                .executor(new LocalExecutor(2, 1, 0))
                .build();
    }

    private static Chunk random(DType t, long seed, int... shape) {
        return ReferenceReductions.random(t, shape, seed, 0);
    }

    /** The (re, im) parts of every element of {@code c}, real types with imaginary part 0. */
    private static double[][] parts(Chunk c) {
        double[][] z = new double[2][c.size()];
        for (int i = 0; i < c.size(); i++) {
            z[0][i] = c.getDouble(i);
            z[1][i] = c.getImag(i);
        }
        return z;
    }

    /**
     * Stacks of matrices by the definition: out[t, i, j] = sum_p a[t or 0, i, p] · b[t, p, j], with a broadcast over
     * the batch when {@code broadcastA}.
     */
    private static double[][] referenceMatmul(Chunk a, Chunk b, int batch, boolean broadcastA, int m, int k, int n) {
        double[][] x = parts(a);
        double[][] y = parts(b);
        double[][] out = new double[2][batch * m * n];
        for (int t = 0; t < batch; t++) {
            int ta = broadcastA ? 0 : t;
            for (int i = 0; i < m; i++) {
                for (int j = 0; j < n; j++) {
                    double sr = 0;
                    double si = 0;
                    for (int p = 0; p < k; p++) {
                        int ia = ta * m * k + i * k + p;
                        int ib = t * k * n + p * n + j;
                        sr += x[0][ia] * y[0][ib] - x[1][ia] * y[1][ib];
                        si += x[0][ia] * y[1][ib] + x[1][ia] * y[0][ib];
                    }
                    out[0][t * m * n + i * n + j] = sr;
                    out[1][t * m * n + i * n + j] = si;
                }
            }
        }
        return out;
    }

    /** Within {@code tol} of max(1, |expected|), part by part. */
    private static void assertClose(Chunk actual, double[][] expected, double tol, String what) {
        assertThat(actual.size()).as(what + " size").isEqualTo(expected[0].length);
        double[][] z = parts(actual);
        for (int i = 0; i < expected[0].length; i++) {
            for (int part = 0; part < 2; part++) {
                double e = expected[part][i];
                assertThat(z[part][i])
                        .as("%s element %d %s", what, i, part == 0 ? "re" : "im")
                        .isCloseTo(e, org.assertj.core.data.Offset.offset(tol * Math.max(1, Math.abs(e))));
            }
        }
    }

    /** The tolerance of a result of type {@code t}: complex64 partial products are stored rounded to float. */
    private static double tol(DType t) {
        return t == DType.COMPLEX64 ? 2e-6 : 1e-12;
    }

    /** Operand types and the result type the standard's promotion table gives them. */
    private static final DType[][] TYPES = {
        {DType.COMPLEX128, DType.COMPLEX128, DType.COMPLEX128},
        {DType.COMPLEX64, DType.COMPLEX64, DType.COMPLEX64},
        {DType.COMPLEX64, DType.FLOAT32, DType.COMPLEX64},
        {DType.FLOAT32, DType.COMPLEX64, DType.COMPLEX64},
        {DType.COMPLEX64, DType.FLOAT64, DType.COMPLEX128},
        {DType.FLOAT64, DType.COMPLEX128, DType.COMPLEX128},
        {DType.COMPLEX128, DType.FLOAT32, DType.COMPLEX128},
        {DType.COMPLEX64, DType.COMPLEX128, DType.COMPLEX128},
    };

    @Test
    void matmulOfComplexAndMixedOperandsOnSeveralChunkings() {
        Spec spec = spec();
        // {m, k, n}, then chunkings of (m, k) and (k, n): one chunk; uneven edges with k over 3 chunks; k over 9
        // chunks; k chunked differently in the two operands (unified); products large enough for BLAS.
        Object[][] cases = {
            {new int[] {7, 9, 5}, new int[][][] {{{7, 9}, {9, 5}}, {{3, 4}, {4, 2}}, {{2, 1}, {1, 5}}, {{7, 2}, {3, 5}}}
            },
            {new int[] {40, 60, 50}, new int[][][] {{{16, 25}, {25, 20}}}},
        };
        long seed = 100;
        for (Object[] c : cases) {
            int[] mkn = (int[]) c[0];
            int m = mkn[0];
            int k = mkn[1];
            int n = mkn[2];
            for (DType[] types : TYPES) {
                Chunk a = random(types[0], seed++, m, k);
                Chunk b = random(types[1], seed++, k, n);
                double[][] e = referenceMatmul(a, b, 1, false, m, k, n);
                for (int[][] ch : (int[][][]) c[1]) {
                    String what =
                            Arrays.toString(types) + " " + Arrays.toString(mkn) + " chunks " + Arrays.deepToString(ch);
                    CubedArray r = LinearAlgebra.matmul(Cubed.asarray(a, spec, ch[0]), Cubed.asarray(b, spec, ch[1]));
                    assertThat(r.dtype()).as(what).isEqualTo(types[2]);
                    Chunk v = r.compute();
                    assertThat(v.dtype()).as(what).isEqualTo(types[2]);
                    assertThat(v.shape()).as(what).containsExactly(m, n);
                    assertClose(v, e, tol(types[2]), what);
                }
            }
        }
    }

    @Test
    void batchedAndOneDimensionalComplexMatmul() {
        Spec spec = spec();
        // (1, 7, 9) complex64 @ (3, 9, 5) complex128 -> (3, 7, 5) complex128, the first broadcast over the batch.
        Chunk a = random(DType.COMPLEX64, 1, 1, 7, 9);
        Chunk b = random(DType.COMPLEX128, 2, 3, 9, 5);
        Chunk r = LinearAlgebra.matmul(Cubed.asarray(a, spec, 1, 3, 4), Cubed.asarray(b, spec, 2, 4, 2))
                .compute();
        assertThat(r.dtype()).isEqualTo(DType.COMPLEX128);
        assertThat(r.shape()).containsExactly(3, 7, 5);
        assertClose(r, referenceMatmul(a, b, 3, true, 7, 9, 5), 1e-12, "batched");
        // The 1-d rules: (9) @ (9, 5) -> (5); (7, 9) @ (9) -> (7); (9) @ (9) -> () (no conjugation in matmul).
        Chunk v = random(DType.COMPLEX128, 3, 9);
        Chunk mat = random(DType.COMPLEX64, 4, 9, 5);
        Chunk mat2 = random(DType.COMPLEX128, 5, 7, 9);
        CubedArray cv = Cubed.asarray(v, spec, 4);
        Chunk vm = LinearAlgebra.matmul(cv, Cubed.asarray(mat, spec, 4, 2)).compute();
        assertThat(vm.shape()).containsExactly(5);
        assertClose(vm, referenceMatmul(v, mat, 1, false, 1, 9, 5), 1e-12, "vector @ matrix");
        Chunk mv = LinearAlgebra.matmul(Cubed.asarray(mat2, spec, 3, 4), cv).compute();
        assertThat(mv.shape()).containsExactly(7);
        assertClose(mv, referenceMatmul(mat2, v, 1, false, 7, 9, 1), 1e-12, "matrix @ vector");
        Chunk vv = LinearAlgebra.matmul(cv, cv).compute();
        assertThat(vv.shape()).isEmpty();
        assertClose(vv, referenceMatmul(v, v, 1, false, 1, 9, 1), 1e-12, "vector @ vector");
    }

    @Test
    void tensordotOfComplexArrays() {
        Spec spec = spec();
        for (DType[] types : TYPES) {
            Chunk a = random(types[0], 11, 4, 5, 6);
            Chunk b = random(types[1], 12, 5, 6, 3);
            CubedArray x = Cubed.asarray(a, spec, 3, 2, 4);
            CubedArray y = Cubed.asarray(b, spec, 2, 4, 2);
            String what = Arrays.toString(types);
            // axes=2: (4, 5, 6) . (5, 6, 3) -> (4, 3), which is (4, 30) @ (30, 3) in C order.
            Chunk t = LinearAlgebra.tensordot(x, y, 2).compute();
            assertThat(t.dtype()).isEqualTo(types[2]);
            assertThat(t.shape()).containsExactly(4, 3);
            assertClose(t, referenceMatmul(a, b, 1, false, 4, 30, 3), tol(types[2]), what + " axes=2");
            // axes ([1], [0]): out[i, l, m, j] = sum_k a[i, k, l] b[k, m, j], shape (4, 6, 6, 3).
            Chunk t1 =
                    LinearAlgebra.tensordot(x, y, new int[] {1}, new int[] {0}).compute();
            assertThat(t1.shape()).containsExactly(4, 6, 6, 3);
            double[][] x2 = parts(a);
            double[][] y2 = parts(b);
            double[][] e = new double[2][4 * 6 * 6 * 3];
            for (int i = 0; i < 4; i++) {
                for (int l = 0; l < 6; l++) {
                    for (int mm = 0; mm < 6; mm++) {
                        for (int j = 0; j < 3; j++) {
                            int o = ((i * 6 + l) * 6 + mm) * 3 + j;
                            for (int k = 0; k < 5; k++) {
                                int ia = (i * 5 + k) * 6 + l;
                                int ib = (k * 6 + mm) * 3 + j;
                                e[0][o] += x2[0][ia] * y2[0][ib] - x2[1][ia] * y2[1][ib];
                                e[1][o] += x2[0][ia] * y2[1][ib] + x2[1][ia] * y2[0][ib];
                            }
                        }
                    }
                }
            }
            assertClose(t1, e, tol(types[2]), what + " axes ([1], [0])");
        }
    }

    /** out[r] = sum_p conj(a[r, p]) · b[p or r·k + p], the vecdot of each row of a with b. */
    private static double[][] referenceVecdot(Chunk a, Chunk b, int rows, int k, boolean bHasRows) {
        double[][] x = parts(a);
        double[][] y = parts(b);
        double[][] out = new double[2][rows];
        for (int r = 0; r < rows; r++) {
            for (int p = 0; p < k; p++) {
                int ia = r * k + p;
                int ib = bHasRows ? r * k + p : p;
                // conj(x) · y = (xr − i·xi)(yr + i·yi)
                out[0][r] += x[0][ia] * y[0][ib] + x[1][ia] * y[1][ib];
                out[1][r] += x[0][ia] * y[1][ib] - x[1][ia] * y[0][ib];
            }
        }
        return out;
    }

    @Test
    void vecdotConjugatesItsFirstOperand() {
        Spec spec = spec();
        for (DType[] types : TYPES) {
            String what = Arrays.toString(types);
            // (4, 5, 6) . (6) along the last axis, broadcast: 6 in chunks of 4 (two partial products summed).
            Chunk a = random(types[0], 21, 4, 5, 6);
            Chunk v = random(types[1], 22, 6);
            CubedArray x = Cubed.asarray(a, spec, 3, 2, 4);
            CubedArray cv = Cubed.asarray(v, spec, 4);
            Chunk d = LinearAlgebra.vecdot(x, cv).compute();
            assertThat(d.dtype()).isEqualTo(types[2]);
            assertThat(d.shape()).containsExactly(4, 5);
            assertClose(d, referenceVecdot(a, v, 20, 6, false), tol(types[2]), what + " vecdot(x, v)");
            // Swapping the operands conjugates the result: vecdot(v, x) = conj(vecdot(x, v)).
            Chunk s = LinearAlgebra.vecdot(cv, x).compute();
            double[][] conj = referenceVecdot(a, v, 20, 6, false);
            for (int i = 0; i < 20; i++) {
                conj[1][i] = -conj[1][i];
            }
            assertClose(s, conj, tol(types[2]), what + " vecdot(v, x)");
        }
        // Along axis 0 of two (4, 5, 6) arrays: out[j, l] = sum_i conj(x[i, j, l]) y[i, j, l].
        Chunk a = random(DType.COMPLEX128, 23, 4, 5, 6);
        Chunk b = random(DType.COMPLEX64, 24, 4, 5, 6);
        Chunk d0 = LinearAlgebra.vecdot(Cubed.asarray(a, spec, 3, 2, 4), Cubed.asarray(b, spec, 2, 5, 6), 0)
                .compute();
        assertThat(d0.shape()).containsExactly(5, 6);
        double[][] x = parts(a);
        double[][] y = parts(b);
        double[][] e = new double[2][30];
        for (int jl = 0; jl < 30; jl++) {
            for (int i = 0; i < 4; i++) {
                int f = i * 30 + jl;
                e[0][jl] += x[0][f] * y[0][f] + x[1][f] * y[1][f];
                e[1][jl] += x[0][f] * y[1][f] - x[1][f] * y[0][f];
            }
        }
        assertClose(d0, e, 1e-12, "vecdot axis 0");
    }

    @Test
    void vecdotOfAComplexVectorWithItselfIsItsSquaredNormWithAZeroImaginaryPart() {
        Spec spec = spec();
        for (DType t : new DType[] {DType.COMPLEX128, DType.COMPLEX64}) {
            // 1-d, 100 elements in chunks of 7 (15 partial products summed in rounds), and rows of a (4, 5, 6) array.
            Chunk v = random(t, 31, 100);
            CubedArray cv = Cubed.asarray(v, spec, 7);
            Chunk d = LinearAlgebra.vecdot(cv, cv).compute();
            assertThat(d.dtype()).isEqualTo(t);
            assertThat(d.shape()).isEmpty();
            double norm2 = 0;
            for (int i = 0; i < 100; i++) {
                norm2 += v.getDouble(i) * v.getDouble(i) + v.getImag(i) * v.getImag(i);
            }
            assertThat(d.getDouble(0)).isCloseTo(norm2, org.assertj.core.data.Offset.offset(tol(t) * norm2));
            assertThat(d.getImag(0)).as(t + " imaginary part").isEqualTo(0.0);
            Chunk a = random(t, 32, 4, 5, 6);
            CubedArray x = Cubed.asarray(a, spec, 3, 2, 4);
            Chunk rows = LinearAlgebra.vecdot(x, x).compute();
            assertThat(rows.shape()).containsExactly(4, 5);
            for (int r = 0; r < 20; r++) {
                double s = 0;
                for (int p = 0; p < 6; p++) {
                    s += a.getDouble(r * 6 + p) * a.getDouble(r * 6 + p) + a.getImag(r * 6 + p) * a.getImag(r * 6 + p);
                }
                assertThat(rows.getDouble(r)).isCloseTo(s, org.assertj.core.data.Offset.offset(tol(t) * s));
                assertThat(rows.getImag(r))
                        .as(t + " row " + r + " imaginary part")
                        .isEqualTo(0.0);
            }
        }
    }

    @Test
    void outerAndMatrixTransposeOfComplexArrays() {
        Spec spec = spec();
        for (DType[] types : TYPES) {
            Chunk u = random(types[0], 41, 6);
            Chunk w = random(types[1], 42, 7);
            Chunk o = LinearAlgebra.outer(Cubed.asarray(u, spec, 4), Cubed.asarray(w, spec, 3))
                    .compute();
            assertThat(o.dtype()).isEqualTo(types[2]);
            assertThat(o.shape()).containsExactly(6, 7);
            // out[i, j] = u[i] · w[j], without conjugation.
            assertClose(o, referenceMatmul(u, w, 1, false, 6, 1, 7), tol(types[2]), Arrays.toString(types));
        }
        for (DType t : new DType[] {DType.COMPLEX64, DType.COMPLEX128}) {
            Chunk a = random(t, 43, 4, 5, 6);
            Chunk tr = LinearAlgebra.matrixTranspose(Cubed.asarray(a, spec, 3, 2, 4))
                    .compute();
            assertThat(tr.dtype()).isEqualTo(t);
            assertThat(tr.shape()).containsExactly(4, 6, 5);
            for (int b = 0; b < 4; b++) {
                for (int i = 0; i < 5; i++) {
                    for (int j = 0; j < 6; j++) {
                        int src = (b * 5 + i) * 6 + j;
                        int dst = (b * 6 + j) * 5 + i;
                        // Transposed, not conjugated: both parts move unchanged.
                        assertThat(tr.getDouble(dst)).isEqualTo(a.getDouble(src));
                        assertThat(tr.getImag(dst)).isEqualTo(a.getImag(src));
                    }
                }
            }
        }
    }

    @Test
    void theProjectedMemoryOfAComplexProductCountsItsPlanarPartsAndCoversWhatTheKernelAllocates() {
        Spec spec = spec();
        int m = 30;
        int k = 40;
        int n = 30;
        Chunk a = random(DType.COMPLEX64, 51, m, k);
        Chunk b = random(DType.COMPLEX64, 52, k, n);
        CubedArray r = LinearAlgebra.matmul(Cubed.asarray(a, spec, m, 20), Cubed.asarray(b, spec, 20, n));
        Computation c = Computation.prepare(spec, List.of(r.node()), Map.of());
        OpNode products = c.plan().ops().stream()
                .filter(op -> op.name().equals("matmul"))
                .findFirst()
                .orElseThrow();
        long ae = (long) m * 20;
        long be = 20L * n;
        long oe = (long) m * n;
        // Planar parts of each operand chunk and of the product (16 bytes per element each), the interleaved double
        // product that is rounded to complex64 (16 per output element), the fixed kernel allowance, and, the two
        // chunks along k being summed in the task, the running sum and the product added to it (complex64 each) with
        // what the addition converts them to (interleaved doubles: 16 per element of each, and of the result).
        long extra = 16 * (ae + be + oe)
                + 16 * oe
                + 8 * Math.min(128L * 256 + 256L * 1024, ae + be)
                + 2 * 8 * oe
                + 3 * 16 * oe;
        assertThat(products.extraMemBytes()).isEqualTo(extra);

        // What adding one product of such chunks to a running sum allocates on this thread beyond the new sum: the
        // product and its working arrays.
        Chunk ca = random(DType.COMPLEX64, 53, m, 20);
        Chunk cb = random(DType.COMPLEX64, 54, 20, n);
        Chunk sum = Contraction.contract(ca, "ik", cb, "kj", "ij", DType.COMPLEX64);
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long least = Long.MAX_VALUE;
        for (int i = 0; i < 20; i++) {
            long before = threads.getCurrentThreadAllocatedBytes();
            Chunk p = Contraction.contractAdd(sum, ca, "ik", cb, "kj", "ij", DType.COMPLEX64, false);
            long allocated = threads.getCurrentThreadAllocatedBytes() - before;
            least = Math.min(least, allocated - p.nbytes());
        }
        assertThat(least).as("bytes allocated beyond the output chunk").isLessThanOrEqualTo(extra);
        // The planar parts alone are 16 bytes per element of each chunk: the figure is not padded far beyond them.
        assertThat(least).isGreaterThanOrEqualTo(16 * (ae + be + oe));
    }
}
