package io.cubed.array;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cubed.Cubed;
import io.cubed.chunk.Chunk;
import io.cubed.chunk.Contraction;
import io.cubed.chunk.MatMul;
import io.cubed.dtype.DType;
import io.cubed.plan.Computation;
import io.cubed.plan.OpNode;
import io.cubed.plan.Spec;
import io.cubed.runtime.LocalExecutor;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Linear algebra against plain triple loops: the chunk kernel, contractions, and the array functions. */
class LinearAlgebraTest {
    @TempDir
    Path tmp;

    private Spec spec(long allowed) {
        return Spec.builder()
                .workDir(tmp.resolve("work").toString())
                .allowedMem(allowed)
                .reservedMem(0)
                .executor(new LocalExecutor(2, 1, 0))
                .build();
    }

    /** A spec with one thread, {@code allowed} bytes and no reserve, working in {@code dir}. */
    private Spec oneThread(String dir, long allowed) {
        return Spec.builder()
                .workDir(tmp.resolve(dir).toString())
                .allowedMem(allowed)
                .reservedMem(0)
                .executor(new LocalExecutor(1, 1, 0))
                .build();
    }

    private static double[] random(int n, long seed) {
        Random r = new Random(seed);
        double[] d = new double[n];
        for (int i = 0; i < n; i++) {
            d[i] = r.nextDouble() * 2 - 1;
        }
        return d;
    }

    /** C = A·B for row-major A (m×k), B (k×n), in the plainest loop. */
    private static double[] naive(double[] a, double[] b, int m, int k, int n) {
        double[] c = new double[m * n];
        for (int i = 0; i < m; i++) {
            for (int j = 0; j < n; j++) {
                double s = 0;
                for (int p = 0; p < k; p++) {
                    s += a[i * k + p] * b[p * n + j];
                }
                c[i * n + j] = s;
            }
        }
        return c;
    }

    @Test
    void blockedKernelEqualsTheTripleLoopOnEdgeAndMultiBlockSizes() {
        int[][] sizes = {{1, 1, 1}, {3, 5, 7}, {4, 4, 4}, {17, 1, 9}, {1, 300, 1}, {130, 260, 1030}, {67, 513, 5}};
        long seed = 1;
        for (int[] s : sizes) {
            int m = s[0];
            int k = s[1];
            int n = s[2];
            double[] a = random(m * k, seed++);
            double[] b = random(k * n, seed++);
            double[] c = new double[m * n];
            c[0] = 1; // accumulates into C
            MatMul.multiply(a, 0, b, 0, c, 0, m, k, n);
            double[] e = naive(a, b, m, k, n);
            e[0] += 1;
            for (int i = 0; i < e.length; i++) {
                assertThat(c[i])
                        .as("%s element %d", java.util.Arrays.toString(s), i)
                        .isCloseTo(e[i], org.assertj.core.data.Offset.offset(1e-10 * Math.max(1, k)));
            }
        }
        long[] la = {1, 2, 3, 4, 5, 6};
        long max = Long.valueOf(Long.MAX_VALUE);
        long[] lb = {max, 1, 1, 1, 1, 1};
        long[] lc = new long[4];
        MatMul.multiply(la, 0, lb, 0, lc, 0, 2, 3, 2);
        assertThat(lc).containsExactly(max + 5, 6, 4 * max + 11, 15);
    }

    @Test
    void chunkContractionBroadcastsBatchesAndContractsSeveralLetters() {
        Chunk a = Chunk.wrap(DType.FLOAT64, new int[] {1, 2, 3}, random(6, 5));
        Chunk b = Chunk.wrap(DType.FLOAT64, new int[] {4, 3, 2}, random(24, 6));
        Chunk r = Contraction.contract(a, "bik", b, "bkj", "bij", DType.FLOAT64);
        assertThat(r.shape()).containsExactly(4, 2, 2);
        for (int t = 0; t < 4; t++) {
            double[] e = naive(a.doubles(), java.util.Arrays.copyOfRange(b.doubles(), 6 * t, 6 * t + 6), 2, 3, 2);
            for (int i = 0; i < 4; i++) {
                assertThat(r.doubles()[4 * t + i]).isCloseTo(e[i], org.assertj.core.data.Offset.offset(1e-12));
            }
        }
        // Two contracted letters, output letters reordered: out[j, i] = sum_{k, l} a[i, k, l] b[l, k, j].
        Chunk x = Chunk.wrap(DType.FLOAT64, new int[] {2, 3, 4}, random(24, 7));
        Chunk y = Chunk.wrap(DType.FLOAT64, new int[] {4, 3, 5}, random(60, 8));
        Chunk z = Contraction.contract(x, "ikl", y, "lkj", "ji", DType.FLOAT64);
        for (int j = 0; j < 5; j++) {
            for (int i = 0; i < 2; i++) {
                double s = 0;
                for (int k = 0; k < 3; k++) {
                    for (int l = 0; l < 4; l++) {
                        s += x.doubles()[i * 12 + k * 4 + l] * y.doubles()[l * 15 + k * 5 + j];
                    }
                }
                assertThat(z.doubles()[j * 2 + i]).isCloseTo(s, org.assertj.core.data.Offset.offset(1e-12));
            }
        }
        assertThatThrownBy(() -> Contraction.contract(x, "ikl", y, "lkj", "jiq", DType.FLOAT64))
                .hasMessageContaining("output letter 'q' is in neither input");
        Chunk t = Contraction.matrixTranspose(Chunk.wrap(DType.INT32, new int[] {2, 3}, new int[] {1, 2, 3, 4, 5, 6}));
        assertThat(t.shape()).containsExactly(3, 2);
        assertThat(t.ints()).containsExactly(1, 4, 2, 5, 3, 6);
    }

    @Test
    void contractAddSumsAProductIntoTheRunningSum() {
        Chunk a = Chunk.wrap(DType.FLOAT64, new int[] {1, 2, 3}, random(6, 5));
        Chunk b = Chunk.wrap(DType.FLOAT64, new int[] {4, 3, 2}, random(24, 6));
        Chunk p = Contraction.contract(a, "bik", b, "bkj", "bij", DType.FLOAT64);
        Chunk sum = Chunk.wrap(DType.FLOAT64, new int[] {4, 2, 2}, random(16, 9));
        double[] before = sum.doubles().clone();
        Chunk r = Contraction.contractAdd(sum, a, "bik", b, "bkj", "bij", DType.FLOAT64, false);
        // Float64 row-major matrices (batched, the first broadcast): BLAS adds into the running sum itself.
        assertThat(r).isSameAs(sum);
        assertClose(r.doubles(), sumOf(before, p.doubles()), "running sum plus the batched product");
        // Output letters reordered: the product is computed apart and added, the running sum left as it was.
        Chunk t = Contraction.contract(a, "bik", b, "bkj", "bji", DType.FLOAT64);
        Chunk sumT = Chunk.wrap(DType.FLOAT64, new int[] {4, 2, 2}, before.clone());
        Chunk rt = Contraction.contractAdd(sumT, a, "bik", b, "bkj", "bji", DType.FLOAT64, false);
        assertThat(rt).isNotSameAs(sumT);
        assertThat(sumT.doubles()).containsExactly(before);
        assertClose(rt.doubles(), sumOf(before, t.doubles()), "running sum plus the transposed product");
        // Integers add in their type, wrapping.
        int max = Integer.MAX_VALUE;
        Chunk ia = Chunk.wrap(DType.INT32, new int[] {1, 2}, new int[] {max, 1});
        Chunk ib = Chunk.wrap(DType.INT32, new int[] {2, 1}, new int[] {1, 0});
        Chunk is = Chunk.wrap(DType.INT32, new int[] {1, 1}, new int[] {1});
        assertThat(Contraction.contractAdd(is, ia, "ik", ib, "kj", "ij", DType.INT32, false)
                        .ints())
                .containsExactly(Integer.MIN_VALUE);
        assertThat(Contraction.contractAdd(null, ia, "ik", ib, "kj", "ij", DType.INT32, false)
                        .ints())
                .containsExactly(max);
        assertThatThrownBy(() -> Contraction.contractAdd(
                        Chunk.wrap(DType.FLOAT64, new int[] {2, 2}, new double[4]),
                        a,
                        "bik",
                        b,
                        "bkj",
                        "bij",
                        DType.FLOAT64,
                        false))
                .hasMessageContaining("running sum is a float64 chunk of shape [2, 2]")
                .hasMessageContaining("shape [4, 2, 2]");
    }

    private static double[] sumOf(double[] x, double[] y) {
        double[] s = new double[x.length];
        for (int i = 0; i < s.length; i++) {
            s[i] = x[i] + y[i];
        }
        return s;
    }

    @Test
    void theProductsAlongTheContractedAxesAreSummedInTheTasksThatComputeThem() {
        Spec spec = spec(50_000_000);
        Chunk a = matrix(DType.FLOAT64, new int[] {6, 8}, 31);
        Chunk b = matrix(DType.FLOAT64, new int[] {8, 4}, 32);
        CubedArray r = LinearAlgebra.matmul(Cubed.asarray(a, spec, 3, 2), Cubed.asarray(b, spec, 2, 2));
        Computation c = Computation.prepare(spec, List.of(r.node()), Map.of());
        // Four chunks along k: one operation, each of its 2 x 2 tasks summing the four products of its row of a's
        // chunks and column of b's.
        assertThat(c.plan().ops()).extracting(OpNode::name).containsExactly("matmul");
        assertThat(c.plan().ops().get(0).numTasks()).isEqualTo(4);
        assertClose(r.compute().doubles(), referenceMatmul(a, b, 1, false, 6, 8, 4), "matmul over 4 k chunks");

        // Two contracted axes in opposite orders: x's axes 1, 2 against z's axes 1, 0, so chunk (k, l) of x meets
        // chunk (l, k) of z; in one group of pairs (2 chunks along l) and in partial sums (3 x 2 chunks: 2 groups).
        Chunk x = matrix(DType.FLOAT64, new int[] {4, 5, 6}, 33);
        Chunk z = matrix(DType.FLOAT64, new int[] {6, 5, 3}, 34);
        double[] e = new double[4 * 3];
        for (int i = 0; i < 4; i++) {
            for (int j = 0; j < 3; j++) {
                for (int k = 0; k < 5; k++) {
                    for (int l = 0; l < 6; l++) {
                        e[i * 3 + j] += x.doubles()[i * 30 + k * 6 + l] * z.doubles()[l * 15 + k * 3 + j];
                    }
                }
            }
        }
        int[][][] chunkings = {{{2, 5, 3}, {3, 5, 2}}, {{2, 2, 4}, {4, 2, 2}}};
        String[] firstOps = {"tensordot", "tensordot partial sums"};
        for (int v = 0; v < chunkings.length; v++) {
            CubedArray t = LinearAlgebra.tensordot(
                    Cubed.asarray(x, spec, chunkings[v][0]),
                    Cubed.asarray(z, spec, chunkings[v][1]),
                    new int[] {1, 2},
                    new int[] {1, 0});
            Computation ct = Computation.prepare(spec, List.of(t.node()), Map.of());
            assertThat(ct.plan().ops().get(0).name()).isEqualTo(firstOps[v]);
            assertClose(
                    t.compute().doubles(), e, "tensordot with chunks " + java.util.Arrays.deepToString(chunkings[v]));
        }
    }

    @Test
    void tasksOfSeveralOutputChunksReadEachOperandChunkOnce() {
        // One thread: boxes of output chunks that leave at least two tasks.
        Spec spec = oneThread("boxes", 50_000_000);
        Chunk a = matrix(DType.FLOAT64, new int[] {8, 12}, 41);
        Chunk b = matrix(DType.FLOAT64, new int[] {12, 18}, 42);
        double[] e = referenceMatmul(a, b, 1, false, 8, 12, 18);
        // Boxes tile the output grid exactly. 2 x 4 chunks of a against 4 x 6 of b: the fewest reads leaving two tasks
        // are boxes of 2 x 3 output chunks, holding a's two chunks of each contracted chunk (fewer than b's three);
        // 4 x 2 chunks against 2 x 2: boxes of 2 x 2, holding b's two.
        int[][][] chunkings = {{{4, 3}, {3, 3}}, {{2, 6}, {6, 9}}};
        int[][] boxes = {{2, 3}, {2, 2}};
        int[][] held = {{2, 1}, {1, 2}};
        for (int v = 0; v < chunkings.length; v++) {
            CubedArray x = Cubed.asarray(a, spec, chunkings[v][0]);
            CubedArray r = LinearAlgebra.matmul(x, Cubed.asarray(b, spec, chunkings[v][1]));
            OpNode op = Computation.prepare(spec, List.of(r.node()), Map.of())
                    .plan()
                    .ops()
                    .get(0);
            assertThat(op.chunksPerTask()).containsExactly(boxes[v]);
            assertThat(op.numTasks()).isEqualTo(2);
            assertThat(new int[] {op.chunksHeld(0), op.chunksHeld(1)}).containsExactly(held[v]);
            // The first task lists each chunk it reads once: its rows of a's chunks and its columns of b's, along k.
            long[][][] keys = op.keyFunction()
                    .inputKeys(io.cubed.primitive.TaskRegion.of(r.chunks().chunksPerAxis(), boxes[v], 0));
            long kChunks = x.chunks().chunksPerAxis(1);
            assertThat(keys[0].length).isEqualTo((int) (boxes[v][0] * kChunks));
            assertThat(keys[1].length).isEqualTo((int) (boxes[v][1] * kChunks));
            assertClose(r.compute().doubles(), e, "boxes, chunks " + java.util.Arrays.deepToString(chunkings[v]));
        }
        // Stored Blosc operands with edge chunks along every axis (9 x 13 in 4 x 3 chunks, 13 x 17 in 3 x 3): each
        // task reads its operand chunks over the ones it read for the last contracted chunk, the full-size ones decoded
        // straight into them and the edge ones into chunks of their own shape (recycled arrays hold garbage in tests).
        Chunk ea = matrix(DType.FLOAT64, new int[] {9, 13}, 45);
        Chunk eb = matrix(DType.FLOAT64, new int[] {13, 17}, 46);
        for (io.cubed.storage.zarr.blosc.BloscShuffle shuffle : io.cubed.storage.zarr.blosc.BloscShuffle.values()) {
            CubedArray sa = Cubed.fromZarr(
                    io.cubed.storage.zarr.StoredArrays.blosc(ea, new int[] {4, 3}, shuffle, 0)
                            .url(),
                    spec);
            CubedArray sb = Cubed.fromZarr(
                    io.cubed.storage.zarr.StoredArrays.blosc(eb, new int[] {3, 3}, shuffle, 0)
                            .url(),
                    spec);
            CubedArray sr = LinearAlgebra.matmul(sa, sb);
            assertThat(Computation.prepare(spec, List.of(sr.node()), Map.of())
                            .plan()
                            .ops()
                            .get(0)
                            .chunksPerTask())
                    .as("boxes of several output chunks")
                    .satisfies(box -> assertThat(box[0] * box[1]).isGreaterThan(1));
            assertClose(
                    sr.compute().doubles(), referenceMatmul(ea, eb, 1, false, 9, 13, 17), "stored, shuffle " + shuffle);
        }
        // Other types add their products apart (no BLAS into the running sum).
        Chunk ia = ReferenceReductions.random(DType.INT64, new int[] {8, 12}, 43, 0);
        Chunk ib = ReferenceReductions.random(DType.INT64, new int[] {12, 18}, 44, 0);
        Chunk ir = LinearAlgebra.matmul(Cubed.asarray(ia, spec, 4, 3), Cubed.asarray(ib, spec, 3, 3))
                .compute();
        for (int i = 0; i < 8; i++) {
            for (int j = 0; j < 18; j++) {
                long sum = 0;
                for (int k = 0; k < 12; k++) {
                    sum += ia.longs()[i * 12 + k] * ib.longs()[k * 18 + j];
                }
                assertThat(ir.longs()[i * 18 + j])
                        .as("int64 element (%d, %d)", i, j)
                        .isEqualTo(sum);
            }
        }
        // Too little memory for a box of running sums: one output chunk per task.
        Spec tight = oneThread("tight", 1_500);
        CubedArray t = LinearAlgebra.matmul(Cubed.fromArray(a, tight, 4, 3), Cubed.fromArray(b, tight, 3, 3));
        Computation ct = Computation.prepare(tight, List.of(t.node()), Map.of());
        assertThat(ct.plan().ops().get(0).chunksPerTask()).containsExactly(1, 1);
        assertThat(ct.projectedMemBytes().values())
                .allSatisfy(m -> assertThat(m).isLessThanOrEqualTo(1_500L));
        assertClose(t.compute().doubles(), e, "one output chunk per task");
    }

    private static Chunk matrix(DType t, int[] shape, long seed) {
        return ReferenceReductions.random(t, shape, seed, 0);
    }

    /** matmul of two stacks by the standard's rules, in plain loops over doubles. */
    private static double[] referenceMatmul(Chunk a, Chunk b, int batch, boolean broadcastA, int m, int k, int n) {
        double[] out = new double[batch * m * n];
        for (int t = 0; t < batch; t++) {
            for (int i = 0; i < m; i++) {
                for (int j = 0; j < n; j++) {
                    double s = 0;
                    for (int p = 0; p < k; p++) {
                        int ta = broadcastA ? 0 : t;
                        s += a.getDouble(ta * m * k + i * k + p) * b.getDouble(t * k * n + p * n + j);
                    }
                    out[t * m * n + i * n + j] = s;
                }
            }
        }
        return out;
    }

    @Test
    void matmulOnSeveralChunkingsBatchedAndOneDimensional() {
        Spec spec = spec(50_000_000);
        Chunk a = matrix(DType.FLOAT64, new int[] {7, 9}, 1);
        Chunk b = matrix(DType.FLOAT64, new int[] {9, 5}, 2);
        double[] e = referenceMatmul(a, b, 1, false, 7, 9, 5);
        int[][][] chunkings = {{{7, 9}, {9, 5}}, {{3, 4}, {4, 2}}, {{2, 1}, {1, 5}}, {{7, 2}, {3, 5}}};
        for (int[][] c : chunkings) {
            CubedArray x = Cubed.asarray(a, spec, c[0]);
            CubedArray y = Cubed.asarray(b, spec, c[1]);
            Chunk r = LinearAlgebra.matmul(x, y).compute();
            assertThat(r.shape()).containsExactly(7, 5);
            assertClose(r.doubles(), e, "chunks " + java.util.Arrays.deepToString(c));
        }
        // Batched with broadcasting: (1, 7, 9) @ (3, 9, 5) -> (3, 7, 5).
        Chunk a3 = Chunk.wrap(DType.FLOAT64, new int[] {1, 7, 9}, a.doubles());
        Chunk b3 = matrix(DType.FLOAT64, new int[] {3, 9, 5}, 3);
        Chunk r3 = LinearAlgebra.matmul(Cubed.asarray(a3, spec, 1, 3, 4), Cubed.asarray(b3, spec, 2, 4, 2))
                .compute();
        assertThat(r3.shape()).containsExactly(3, 7, 5);
        assertClose(r3.doubles(), referenceMatmul(a3, b3, 3, true, 7, 9, 5), "batched");
        // 1-d rules: (9) @ (9, 5) -> (5); (7, 9) @ (9) -> (7); (9) @ (9) -> ().
        Chunk v = matrix(DType.FLOAT64, new int[] {9}, 4);
        CubedArray cv = Cubed.asarray(v, spec, 4);
        Chunk vm = LinearAlgebra.matmul(cv, Cubed.asarray(b, spec, 4, 2)).compute();
        assertThat(vm.shape()).containsExactly(5);
        assertClose(vm.doubles(), referenceMatmul(v, b, 1, false, 1, 9, 5), "vector @ matrix");
        Chunk mv = LinearAlgebra.matmul(Cubed.asarray(a, spec, 3, 4), cv).compute();
        assertThat(mv.shape()).containsExactly(7);
        assertClose(mv.doubles(), referenceMatmul(a, v, 1, false, 7, 9, 1), "matrix @ vector");
        Chunk vv = LinearAlgebra.matmul(cv, cv).compute();
        assertThat(vv.shape()).isEmpty();
        assertClose(vv.doubles(), referenceMatmul(v, v, 1, false, 1, 9, 1), "vector @ vector");
    }

    private static void assertClose(double[] actual, double[] expected, String what) {
        assertThat(actual).as(what).hasSameSizeAs(expected);
        for (int i = 0; i < expected.length; i++) {
            assertThat(actual[i])
                    .as(what + " element " + i)
                    .isCloseTo(expected[i], org.assertj.core.data.Offset.offset(1e-12));
        }
    }

    @Test
    void integerMatmulWrapsInItsTypeAndMixedTypesPromote() {
        Spec spec = spec(50_000_000);
        int max = Integer.valueOf(Integer.MAX_VALUE);
        Chunk a = Chunk.wrap(DType.INT32, new int[] {2, 2}, new int[] {max, 1, 2, 3});
        Chunk b = Chunk.wrap(DType.INT32, new int[] {2, 2}, new int[] {2, 0, 0, 1});
        Chunk r = LinearAlgebra.matmul(Cubed.asarray(a, spec, 1, 1), Cubed.asarray(b, spec, 1, 1))
                .compute();
        assertThat(r.dtype()).isEqualTo(DType.INT32);
        assertThat(r.ints()).containsExactly(max * 2, 1, 4, 3);
        Chunk c8 = Chunk.wrap(DType.INT8, new int[] {1, 2}, new byte[] {100, 100});
        Chunk c16 = Chunk.wrap(DType.INT16, new int[] {2, 1}, new short[] {100, 100});
        Chunk m = LinearAlgebra.matmul(Cubed.asarray(c8, spec, 1, 1), Cubed.asarray(c16, spec, 1, 1))
                .compute();
        assertThat(m.dtype()).isEqualTo(DType.INT16);
        assertThat(m.shorts()).containsExactly((short) 20000);
        Chunk f = Chunk.wrap(DType.FLOAT32, new int[] {1, 2}, new float[] {0.5f, 0.25f});
        CubedArray fa = Cubed.asarray(f, spec, 1, 1);
        Chunk g = LinearAlgebra.matmul(fa, LinearAlgebra.matrixTranspose(fa)).compute();
        assertThat(g.dtype()).isEqualTo(DType.FLOAT32);
        assertThat(g.floats()).containsExactly(0.3125f);
    }

    @Test
    void tensordotVecdotOuterAndTranspose() {
        Spec spec = spec(50_000_000);
        Chunk a = matrix(DType.FLOAT64, new int[] {4, 5, 6}, 11);
        Chunk b = matrix(DType.FLOAT64, new int[] {5, 6, 3}, 12);
        CubedArray x = Cubed.asarray(a, spec, 3, 2, 4);
        CubedArray y = Cubed.asarray(b, spec, 2, 4, 2);
        Chunk t = LinearAlgebra.tensordot(x, y, 2).compute();
        assertThat(t.shape()).containsExactly(4, 3);
        assertClose(t.doubles(), referenceMatmul(a, b, 1, false, 4, 30, 3), "tensordot axes=2");
        // axes ([1], [0]): (4, 5, 6) . (5, 6, 3) -> (4, 6, 6, 3).
        Chunk t1 = LinearAlgebra.tensordot(x, y, new int[] {1}, new int[] {0}).compute();
        assertThat(t1.shape()).containsExactly(4, 6, 6, 3);
        double s = 0;
        for (int k = 0; k < 5; k++) {
            s += a.doubles()[2 * 30 + k * 6 + 3] * b.doubles()[k * 18 + 4 * 3 + 1];
        }
        assertThat(t1.doubles()[((2 * 6 + 3) * 6 + 4) * 3 + 1])
                .isCloseTo(s, org.assertj.core.data.Offset.offset(1e-12));
        assertThat(LinearAlgebra.tensordot(x, y, 0).shape()).containsExactly(4, 5, 6, 5, 6, 3);

        // vecdot along the last axis with broadcasting: (4, 5, 6) . (6) -> (4, 5).
        Chunk v = matrix(DType.FLOAT64, new int[] {6}, 13);
        Chunk vd = LinearAlgebra.vecdot(x, Cubed.asarray(v, spec, 4)).compute();
        assertThat(vd.shape()).containsExactly(4, 5);
        assertClose(vd.doubles(), referenceMatmul(a, v, 1, false, 20, 6, 1), "vecdot");
        Chunk vd0 = LinearAlgebra.vecdot(x, x, 0).compute();
        assertThat(vd0.shape()).containsExactly(5, 6);
        double s0 = 0;
        for (int i = 0; i < 4; i++) {
            s0 += a.doubles()[i * 30 + 7] * a.doubles()[i * 30 + 7];
        }
        assertThat(vd0.doubles()[7]).isCloseTo(s0, org.assertj.core.data.Offset.offset(1e-12));

        Chunk o = LinearAlgebra.outer(Cubed.asarray(v, spec, 4), Cubed.asarray(v, spec, 5))
                .compute();
        assertThat(o.shape()).containsExactly(6, 6);
        assertThat(o.doubles()[2 * 6 + 5]).isEqualTo(v.doubles()[2] * v.doubles()[5]);

        Chunk tr = LinearAlgebra.matrixTranspose(x).compute();
        assertThat(tr.shape()).containsExactly(4, 6, 5);
        assertThat(tr.doubles()[(3 * 6 + 4) * 5 + 2]).isEqualTo(a.doubles()[(3 * 5 + 2) * 6 + 4]);
    }

    @Test
    void aContractionOverManyChunksIsATreeReductionWithinAllowedMem() {
        long allowed = 100_000;
        Spec spec = spec(allowed);
        Chunk a = matrix(DType.FLOAT64, new int[] {8, 200}, 21);
        Chunk b = matrix(DType.FLOAT64, new int[] {200, 8}, 22);
        CubedArray x = Cubed.asarray(a, spec, 8, 10);
        CubedArray y = Cubed.asarray(b, spec, 10, 8);
        CubedArray r = LinearAlgebra.matmul(x, y);
        Computation c = Computation.prepare(spec, List.of(r.node()), Map.of());
        // 20 chunks along k: partial sums of 4 products each (1 x 1 x 5 tasks), then the sum over k in rounds
        // 5 -> 2 -> 1.
        assertThat(c.plan().ops())
                .extracting(OpNode::name)
                .containsExactly("matmul partial sums", "matmul sum round 1/2", "matmul sum round 2/2");
        assertThat(c.plan().ops().get(0).numTasks()).isEqualTo(5);
        assertThat(c.projectedMemBytes().values()).allSatisfy(m -> assertThat(m).isLessThanOrEqualTo(allowed));
        assertClose(r.compute().doubles(), referenceMatmul(a, b, 1, false, 8, 200, 8), "matmul over 20 k chunks");
    }

    @Test
    void errorsNameTheOperationArraysAndShapes() {
        Spec spec = spec(50_000_000);
        CubedArray x = Creation.ones(new long[] {3, 4}, new int[] {2, 2}, DType.FLOAT64, spec);
        CubedArray y = Creation.ones(new long[] {5, 2}, new int[] {2, 2}, DType.FLOAT64, spec);
        assertThatThrownBy(() -> LinearAlgebra.matmul(x, y))
                .hasMessageContaining("matmul of " + x.name() + " and " + y.name())
                .hasMessageContaining("do not align: 4 (last axis of the first) != 5");
        CubedArray s = Creation.ones(new long[0], new int[0], DType.FLOAT64, spec);
        assertThatThrownBy(() -> LinearAlgebra.matmul(s, y)).hasMessageContaining("rank 1 or more");
        CubedArray bools = Creation.ones(new long[] {4, 3}, new int[] {2, 2}, DType.BOOL, spec);
        assertThatThrownBy(() -> LinearAlgebra.matmul(x, bools)).hasMessageContaining("no common type");
        CubedArray c = Creation.ones(new long[] {4}, new int[] {2}, DType.BOOL, spec);
        assertThatThrownBy(() -> LinearAlgebra.outer(c, c))
                .hasMessageContaining(
                        "outer of " + c.name() + " and " + c.name() + ": data type bool is not supported");
        assertThatThrownBy(() -> LinearAlgebra.tensordot(x, y, new int[] {1}, new int[] {0}))
                .hasMessageContaining("axis 1 of length 4 cannot be contracted with axis 0 of length 5");
        assertThatThrownBy(() -> LinearAlgebra.vecdot(x, y)).hasMessageContaining("has length 4 and 2");
        assertThatThrownBy(() -> LinearAlgebra.matrixTranspose(c)).hasMessageContaining("needs rank 2 or more");
    }
}
