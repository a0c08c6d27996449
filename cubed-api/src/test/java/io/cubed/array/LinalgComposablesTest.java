package io.cubed.array;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cubed.Cubed;
import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.error.InvalidArgumentException;
import io.cubed.error.MemoryBudgetExceededException;
import io.cubed.plan.Computation;
import io.cubed.plan.Spec;
import io.cubed.primitive.Diagonal;
import io.cubed.runtime.Callback;
import io.cubed.runtime.LocalExecutor;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The composable {@code linalg} functions (vector_norm, diagonal, trace, cross, matrix_power) against NumPy 2 on random
 * data, over single-chunk, several-chunk and uneven chunkings, batch axes and the data types each accepts; their
 * errors; and diagonal's reads (only the chunks on the diagonal) and memory.
 *
 * <p>Tolerances: exact for integers and bool and for diagonal; for floating results, relative to each expected value
 * (norms, traces: the sums run in a different order than NumPy's pairwise sums) or to the largest expected magnitude
 * (cross, matrix_power, where values cancel), 1e-12 for float64 and complex128, 1e-5 for float32 and complex64.
 */
class LinalgComposablesTest {
    @TempDir
    Path tmp;

    private Spec spec() {
        return spec(200_000_000);
    }

    private Spec spec(long allowed) {
        return Spec.builder()
                .workDir(tmp.resolve("work").toString())
                .allowedMem(allowed)
                .reservedMem(0)
                .executor(new LocalExecutor(2, 1, 0))
                .build();
    }

    /** One comparison: {@code actual} against NumPy case {@code expected}. */
    private record Check(String label, CubedArray actual, int expected, double rtol, boolean global) {}

    private final List<Check> checks = new ArrayList<>();

    private void check(String label, CubedArray actual, int expected, DType t, boolean global) {
        double rtol = t == DType.FLOAT32 || t == DType.COMPLEX64 ? 1e-5 : 1e-12;
        checks.add(new Check(label, actual, expected, rtol, global));
    }

    /** Computes every check, runs NumPy and compares; returns the number of checks. */
    private int verify(NumpyOracle np) throws Exception {
        List<Chunk> actual = Cubed.compute(checks.stream().map(Check::actual).toList());
        List<Chunk> expected = np.run();
        List<String> failures = new ArrayList<>();
        for (int i = 0; i < checks.size(); i++) {
            Check c = checks.get(i);
            compare(c.label(), actual.get(i), expected.get(c.expected()), c.rtol(), c.global(), failures);
        }
        assertThat(failures).isEmpty();
        return checks.size();
    }

    private static void compare(String label, Chunk a, Chunk e, double rtol, boolean global, List<String> failures) {
        if (a.dtype() != e.dtype() || !Arrays.equals(a.shape(), e.shape())) {
            failures.add(label + ": " + a.dtype() + " " + Arrays.toString(a.shape()) + ", numpy " + e.dtype() + " "
                    + Arrays.toString(e.shape()));
            return;
        }
        DType t = a.dtype();
        if (t == DType.BOOL || t.isInteger()) {
            for (int i = 0; i < a.size(); i++) {
                if (a.getLong(i) != e.getLong(i)) {
                    failures.add(label + " element " + i + ": " + a.getLong(i) + ", numpy " + e.getLong(i));
                    return;
                }
            }
            return;
        }
        double scale = 0;
        if (global) {
            for (int i = 0; i < e.size(); i++) {
                scale = Math.max(scale, Math.hypot(e.getDouble(i), t.isComplex() ? e.getImag(i) : 0));
            }
        }
        for (int i = 0; i < a.size(); i++) {
            double[] av = {a.getDouble(i), t.isComplex() ? a.getImag(i) : 0};
            double[] ev = {e.getDouble(i), t.isComplex() ? e.getImag(i) : 0};
            for (int p = 0; p < 2; p++) {
                boolean ok = Double.isNaN(ev[p])
                        ? Double.isNaN(av[p])
                        : av[p] == ev[p] || Math.abs(av[p] - ev[p]) <= rtol * Math.max(Math.abs(ev[p]), scale);
                if (!ok) {
                    failures.add(label + " element " + i + (p == 0 ? "" : " (imaginary)") + ": " + av[p] + ", numpy "
                            + ev[p]);
                    return;
                }
            }
        }
    }

    /** Random data of {@code t}: reals in [-1, 1) with about {@code zeros} of them 0, small integers, bools. */
    private static Chunk random(DType t, long seed, double zeros, int... shape) {
        Random r = new Random(seed);
        Chunk c = Chunk.allocate(t, shape);
        Object d = c.data();
        int slots = java.lang.reflect.Array.getLength(d);
        for (int i = 0; i < slots; i++) {
            boolean zero = r.nextDouble() < zeros;
            double v = zero ? 0 : r.nextDouble() * 2 - 1;
            long k = zero ? 0 : r.nextInt(201) - 100;
            if (d instanceof double[] x) {
                x[i] = v;
            } else if (d instanceof float[] x) {
                x[i] = (float) v;
            } else if (d instanceof long[] x) {
                x[i] = k;
            } else if (d instanceof int[] x) {
                x[i] = (int) k;
            } else if (d instanceof short[] x) {
                x[i] = (short) (t == DType.UINT16 ? Math.abs(k) * 300 : k);
            } else if (d instanceof byte[] x) {
                x[i] = (byte) k;
            } else {
                ((boolean[]) d)[i] = r.nextBoolean();
            }
        }
        return c;
    }

    private static String py(double ord) {
        if (Double.isInfinite(ord)) {
            return ord > 0 ? "inf" : "-inf";
        }
        return Double.toString(ord);
    }

    private static String pyAxes(int[] axes) {
        if (axes == null) {
            return "None";
        }
        StringBuilder sb = new StringBuilder("(");
        for (int a : axes) {
            sb.append(a).append(',');
        }
        return sb.append(')').toString();
    }

    @Test
    void everyOperationsFunctionsSurviveSerialization() throws Exception {
        Spec spec = spec();
        CubedArray x = Creation.ones(new long[] {2, 6, 6}, new int[] {1, 4, 2}, DType.FLOAT64, spec);
        CubedArray v = Creation.ones(new long[] {4, 3}, new int[] {2, 2}, DType.INT32, spec);
        List<CubedArray> arrays = List.of(
                LinearAlgebra.vectorNorm(x, new int[] {1}, false, 3),
                LinearAlgebra.trace(x, 1, null),
                LinearAlgebra.cross(v, v),
                LinearAlgebra.matrixPower(x, 3),
                LinearAlgebra.matrixPower(x, 0));
        int ops = 0;
        for (CubedArray a : arrays) {
            for (io.cubed.plan.OpNode op :
                    io.cubed.plan.Plan.of(List.of(a.node())).ops()) {
                assertThat(roundTrip(op.keyFunction())).as(op.toString()).isNotNull();
                assertThat(roundTrip(op.function())).as(op.toString()).isNotNull();
                ops++;
            }
        }
        assertThat(ops).isGreaterThan(8);
    }

    private static Object roundTrip(Object o) throws Exception {
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        try (java.io.ObjectOutputStream out = new java.io.ObjectOutputStream(bytes)) {
            out.writeObject(o);
        }
        try (java.io.ObjectInputStream in =
                new java.io.ObjectInputStream(new java.io.ByteArrayInputStream(bytes.toByteArray()))) {
            return in.readObject();
        }
    }

    // ---- vector_norm ----

    @Test
    void vectorNormMatchesNumpyForEveryOrderAxisAndFloatingType() throws Exception {
        NumpyOracle.require();
        NumpyOracle np = new NumpyOracle(tmp);
        Spec spec = spec();
        int[][] shapes = {{7}, {9, 10}, {2, 5, 6}};
        int[][] chunkings = {{7}, {4, 3}, {1, 2, 4}};
        int[][][] axesByShape = {
            {null, {0}, {}}, {null, {0}, {-1}, {1, 0}}, {null, {1, 2}, {0, 2}, {-2}},
        };
        double[] ords = {2, 1, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, 0, 3, 0.5, -1, -2, 2.5};
        DType[] types = {DType.FLOAT64, DType.FLOAT32, DType.COMPLEX128, DType.COMPLEX64};
        long seed = 1;
        int k = 0;
        for (DType t : types) {
            for (int s = 0; s < shapes.length; s++) {
                Chunk data = random(t, seed++, 0.15, shapes[s]);
                int in = np.input(data);
                CubedArray x = Cubed.asarray(data, spec, chunkings[s]);
                for (int[] axes : axesByShape[s]) {
                    for (double ord : ords) {
                        boolean keep = k++ % 2 == 0;
                        int e = np.add(String.format(
                                Locale.ROOT,
                                "np.linalg.vector_norm(x[%d], axis=%s, keepdims=%s, ord=%s)",
                                in,
                                pyAxes(axes),
                                keep ? "True" : "False",
                                py(ord)));
                        String label = "vector_norm " + t + " " + Arrays.toString(shapes[s]) + " axis "
                                + (axes == null ? "None" : Arrays.toString(axes)) + " keepdims " + keep + " ord "
                                + ord;
                        check(label, LinearAlgebra.vectorNorm(x, axes, keep, ord), e, t, false);
                    }
                }
            }
        }
        assertThat(verify(np)).isEqualTo(4 * 11 * 10);
    }

    @Test
    void vectorNormDefaultsTypesAndOverflowAsNumpyDoes() {
        Spec spec = spec();
        CubedArray v =
                Cubed.asarray(Chunk.wrap(DType.FLOAT64, new int[] {2, 2}, new double[] {3, 0, 0, -4}), spec, 1, 2);
        Chunk norm = LinearAlgebra.vectorNorm(v).compute();
        assertThat(norm.shape()).isEmpty();
        assertThat(norm.doubles()).containsExactly(5.0);
        // No rescaling: the squares overflow to infinity, as NumPy's do.
        CubedArray big = Cubed.asarray(Chunk.wrap(DType.FLOAT64, new int[] {2}, new double[] {1e200, 1e200}), spec);
        assertThat(LinearAlgebra.vectorNorm(big).compute().doubles()).containsExactly(Double.POSITIVE_INFINITY);
        assertThat(LinearAlgebra.vectorNorm(big, null, false, 1).compute().doubles())
                .containsExactly(2e200);
        CubedArray c64 = Cubed.asarray(Chunk.wrap(DType.COMPLEX64, new int[] {2}, new float[] {3, 4, 0, 0}), spec);
        Chunk c = LinearAlgebra.vectorNorm(c64, new int[] {0}, true, 0).compute();
        assertThat(c.dtype()).isEqualTo(DType.FLOAT32);
        assertThat(c.shape()).containsExactly(1);
        assertThat(c.floats()).containsExactly(1f);
        CubedArray empty = Creation.zeros(new long[] {0, 3}, new int[] {1, 3}, DType.FLOAT64, spec);
        assertThat(LinearAlgebra.vectorNorm(empty, new int[] {0}, false, 2)
                        .compute()
                        .doubles())
                .containsExactly(0, 0, 0);
    }

    @Test
    void vectorNormRefusesBadArguments() {
        Spec spec = spec();
        CubedArray ints = Creation.ones(new long[] {3}, new int[] {3}, DType.INT32, spec);
        assertThatThrownBy(() -> LinearAlgebra.vectorNorm(ints))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("vector_norm of " + ints.name())
                .hasMessageContaining("data type int32 is not supported")
                .hasMessageContaining("astype");
        CubedArray x = Creation.ones(new long[] {3, 0}, new int[] {3, 1}, DType.FLOAT64, spec);
        assertThatThrownBy(() -> LinearAlgebra.vectorNorm(x, null, false, Double.NaN))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("ord must be a real number");
        assertThatThrownBy(() -> LinearAlgebra.vectorNorm(x, new int[] {2}, false, 2))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("vector_norm of " + x.name() + ": axis 2 is out of bounds");
        assertThatThrownBy(() -> LinearAlgebra.vectorNorm(x, new int[] {0, -2}, false, 2))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("is repeated");
        assertThatThrownBy(() -> LinearAlgebra.vectorNorm(x, new int[] {1}, false, Double.POSITIVE_INFINITY))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("maximum of |x| along axis 1, which is empty");
    }

    // ---- diagonal ----

    @Test
    void diagonalMatchesNumpyForEveryOffsetChunkingAndType() throws Exception {
        NumpyOracle.require();
        NumpyOracle np = new NumpyOracle(tmp);
        Spec spec = spec();
        int[][] shapes = {{7, 9}, {2, 3, 5, 4}, {6, 6}, {4, 10, 3}};
        int[][] chunkings = {{3, 4}, {1, 2, 2, 3}, {6, 6}, {3, 4, 2}};
        DType[] types = {DType.FLOAT32, DType.COMPLEX128, DType.BOOL, DType.INT16};
        int count = 0;
        for (int s = 0; s < shapes.length; s++) {
            Chunk data = random(types[s], 100 + s, 0, shapes[s]);
            int in = np.input(data);
            CubedArray x = Cubed.asarray(data, spec, chunkings[s]);
            int m = shapes[s][shapes[s].length - 2];
            int n = shapes[s][shapes[s].length - 1];
            for (int offset = -m - 1; offset <= n + 1; offset++) {
                int e = np.add("np.linalg.diagonal(x[" + in + "], offset=" + offset + ")");
                String label = "diagonal " + types[s] + " " + Arrays.toString(shapes[s]) + " chunks "
                        + Arrays.toString(chunkings[s]) + " offset " + offset;
                check(label, LinearAlgebra.diagonal(x, offset), e, DType.INT64, false);
                count++;
            }
        }
        assertThat(verify(np)).isEqualTo(count).isEqualTo(19 + 12 + 15 + 16);
    }

    @Test
    void diagonalListsExactlyTheChunksItsRunPassesThrough() {
        int[][] grids = {{12, 12, 3, 3}, {10, 17, 4, 3}, {17, 10, 2, 5}, {9, 9, 9, 9}, {20, 7, 6, 1}};
        for (int[] g : grids) {
            long m = g[0];
            long n = g[1];
            io.cubed.grid.ChunkGrid in = io.cubed.grid.ChunkGrid.of(new long[] {2, m, n}, new int[] {1, g[2], g[3]});
            for (long offset = -m; offset <= n; offset++) {
                long r0 = offset < 0 ? -offset : 0;
                long c0 = offset > 0 ? offset : 0;
                long len = Math.max(0, Math.min(m - r0, n - c0));
                io.cubed.grid.ChunkGrid out =
                        Chunking.grid(new long[] {2, len}, new int[] {1, Math.min(g[2], g[3])}, "diagonal");
                Diagonal f = new Diagonal(DType.FLOAT64, in, out, r0, c0);
                for (long j = 0; j < out.chunksPerAxis(1); j++) {
                    long from = j * out.chunkShape(1);
                    long to = Math.min(len, from + out.chunkShape(1));
                    List<List<Long>> want = new ArrayList<>();
                    for (long i = from; i < to; i++) {
                        List<Long> key = List.of(1L, (r0 + i) / g[2], (c0 + i) / g[3]);
                        if (want.isEmpty() || !want.get(want.size() - 1).equals(key)) {
                            want.add(key);
                        }
                    }
                    long[][] keys = f.inputKeys(new long[] {1, j})[0];
                    List<List<Long>> got = new ArrayList<>();
                    for (long[] key : keys) {
                        got.add(Arrays.stream(key).boxed().toList());
                    }
                    assertThat(got)
                            .as("grid %s offset %d chunk %d", Arrays.toString(g), offset, j)
                            .isEqualTo(want)
                            .hasSizeLessThanOrEqualTo(3);
                }
            }
        }
    }

    @Test
    void diagonalReadsOnlyTheDiagonalChunksAndHoldsOneAtATime() {
        Spec spec = spec();
        double[] d = new double[12 * 12];
        for (int i = 0; i < d.length; i++) {
            d[i] = i;
        }
        CubedArray x = Cubed.asarray(Chunk.wrap(DType.FLOAT64, new int[] {12, 12}, d), spec, 3, 3);
        CubedArray diag = LinearAlgebra.diagonal(x);
        assertThat(diag.chunkShape()).containsExactly(3);
        assertThat(diag.node().op().chunksHeld(0)).isEqualTo(1);
        // reserved 0 + one input chunk (in the task: no read copy) + output chunk (1 + 1 write copy), and the 12 x 12
        // float64 asarray the task function carries.
        Computation c = Computation.prepare(spec, List.of(diag.node()), Map.of());
        assertThat(c.projectedMemBytes().get(diag.node().op())).isEqualTo(9 * 8 + 2 * 3 * 8 + 12 * 12 * 8);
        AtomicLong read = new AtomicLong();
        Callback bytes = new Callback() {
            @Override
            public void onTaskEnd(TaskEnd event) {
                read.addAndGet(event.result().bytesRead());
            }
        };
        assertThat(diag.compute(bytes).doubles()).containsExactly(0, 13, 26, 39, 52, 65, 78, 91, 104, 117, 130, 143);
        // The 4 chunks on the diagonal of the 16, 72 bytes each.
        assertThat(read.get()).isEqualTo(4 * 72);
    }

    @Test
    void diagonalAndTraceRefuseBadInputAndOverBudgetPlans() {
        Spec spec = spec();
        CubedArray v = Creation.ones(new long[] {4}, new int[] {2}, DType.FLOAT64, spec);
        assertThatThrownBy(() -> LinearAlgebra.diagonal(v))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("diagonal of " + v.name() + " of shape [4]: needs rank 2 or more");
        assertThatThrownBy(() -> LinearAlgebra.trace(v))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("trace of " + v.name() + " of shape [4]: needs rank 2 or more");
        CubedArray b = Creation.ones(new long[] {2, 2}, new int[] {2, 2}, DType.BOOL, spec);
        assertThatThrownBy(() -> LinearAlgebra.trace(b))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("data type bool is not supported");
        CubedArray f = Creation.ones(new long[] {2, 2}, new int[] {2, 2}, DType.FLOAT64, spec);
        assertThatThrownBy(() -> LinearAlgebra.trace(f, 0, DType.INT32)).isInstanceOf(InvalidArgumentException.class);
        Spec small = spec(1000);
        CubedArray big = Creation.ones(new long[] {40, 40}, new int[] {20, 20}, DType.FLOAT64, small);
        assertThatThrownBy(() -> LinearAlgebra.diagonal(big).compute())
                .isInstanceOf(MemoryBudgetExceededException.class)
                .hasMessageContaining("exceeds allowedMem")
                .hasMessageContaining("diagonal");
    }

    @Test
    void emptyMatricesAndEmptyBatches() {
        Spec spec = spec();
        CubedArray noRows = Creation.ones(new long[] {0, 5}, new int[] {1, 2}, DType.FLOAT64, spec);
        assertThat(LinearAlgebra.diagonal(noRows).shape()).containsExactly(0);
        assertThat(LinearAlgebra.diagonal(noRows).compute().size()).isZero();
        assertThat(LinearAlgebra.trace(noRows).compute().doubles()).containsExactly(0);
        CubedArray noBatch = Creation.ones(new long[] {2, 0, 3, 3}, new int[] {1, 1, 2, 2}, DType.INT32, spec);
        assertThat(LinearAlgebra.diagonal(noBatch, -1).shape()).containsExactly(2, 0, 2);
        assertThat(LinearAlgebra.trace(noBatch).compute().shape()).containsExactly(2, 0);
        CubedArray emptyMatrices = Creation.ones(new long[] {3, 0, 0}, new int[] {2, 1, 1}, DType.INT16, spec);
        Chunk t = LinearAlgebra.trace(emptyMatrices).compute();
        assertThat(t.dtype()).isEqualTo(DType.INT64);
        assertThat(t.longs()).containsExactly(0, 0, 0);
        assertThat(LinearAlgebra.matrixPower(emptyMatrices, 0).compute().shape())
                .containsExactly(3, 0, 0);
        assertThat(LinearAlgebra.matrixPower(emptyMatrices, 3).compute().shape())
                .containsExactly(3, 0, 0);
        CubedArray scalar = Cubed.asarray(Chunk.wrap(DType.FLOAT32, new int[0], new float[] {-2.5f}), spec);
        assertThat(LinearAlgebra.vectorNorm(scalar).compute().floats()).containsExactly(2.5f);
        assertThat(LinearAlgebra.vectorNorm(scalar, null, true, 0).compute().floats())
                .containsExactly(1f);
    }

    // ---- trace ----

    @Test
    void traceMatchesNumpyWithItsResultTypes() throws Exception {
        NumpyOracle.require();
        NumpyOracle np = new NumpyOracle(tmp);
        Spec spec = spec();
        int[][] shapes = {{7, 9}, {2, 3, 5, 4}, {3, 6, 6}, {5, 5}, {4, 4}, {8, 3}};
        int[][] chunkings = {{3, 4}, {1, 2, 2, 3}, {2, 4, 5}, {2, 2}, {4, 4}, {3, 2}};
        DType[] types = {DType.INT8, DType.UINT16, DType.FLOAT32, DType.COMPLEX64, DType.INT32, DType.FLOAT64};
        DType[] dtypes = {null, null, null, null, DType.FLOAT64, null};
        int count = 0;
        for (int s = 0; s < shapes.length; s++) {
            Chunk data = random(types[s], 200 + s, 0, shapes[s]);
            int in = np.input(data);
            CubedArray x = Cubed.asarray(data, spec, chunkings[s]);
            int m = shapes[s][shapes[s].length - 2];
            int n = shapes[s][shapes[s].length - 1];
            for (int offset = -m; offset <= n; offset++) {
                String dt = dtypes[s] == null ? "None" : "np." + dtypes[s].typeName();
                int e = np.add("np.linalg.trace(x[" + in + "], offset=" + offset + ", dtype=" + dt + ")");
                String label = "trace " + types[s] + " " + Arrays.toString(shapes[s]) + " offset " + offset + " dtype "
                        + dtypes[s];
                check(label, LinearAlgebra.trace(x, offset, dtypes[s]), e, types[s], false);
                count++;
            }
        }
        assertThat(verify(np)).isEqualTo(count);
        CubedArray u = Cubed.asarray(random(DType.UINT16, 1, 0, 3, 3), spec);
        assertThat(LinearAlgebra.trace(u).dtype()).isEqualTo(DType.UINT64);
    }

    // ---- cross ----

    @Test
    void crossMatchesNumpyWithBroadcastingPromotionAndChunkedVectorAxes() throws Exception {
        NumpyOracle.require();
        NumpyOracle np = new NumpyOracle(tmp);
        Spec spec = spec();
        Object[][] cases = {
            // shape1, chunks1, type1, shape2, chunks2, type2, axis
            {new int[] {3}, new int[] {3}, DType.FLOAT64, new int[] {3}, new int[] {3}, DType.FLOAT64, -1},
            {new int[] {4, 3}, new int[] {3, 2}, DType.FLOAT32, new int[] {3}, new int[] {2}, DType.FLOAT32, -1},
            {
                new int[] {2, 1, 3},
                new int[] {1, 1, 3},
                DType.COMPLEX128,
                new int[] {5, 3},
                new int[] {2, 3},
                DType.COMPLEX128,
                -1
            },
            {new int[] {3, 4}, new int[] {2, 3}, DType.INT8, new int[] {2, 3, 4}, new int[] {1, 3, 2}, DType.INT8, -2},
            {new int[] {6, 3}, new int[] {4, 3}, DType.INT32, new int[] {6, 3}, new int[] {4, 1}, DType.INT64, -1},
            {new int[] {5, 3}, new int[] {2, 3}, DType.FLOAT32, new int[] {5, 3}, new int[] {5, 3}, DType.COMPLEX64, 1},
            {new int[] {3, 5}, new int[] {2, 2}, DType.FLOAT64, new int[] {3, 5}, new int[] {3, 3}, DType.FLOAT64, 0},
            {new int[] {3}, new int[] {1}, DType.UINT8, new int[] {7, 3}, new int[] {3, 3}, DType.UINT8, -1},
        };
        long seed = 300;
        for (Object[] c : cases) {
            Chunk d1 = random((DType) c[2], seed++, 0, (int[]) c[0]);
            Chunk d2 = random((DType) c[5], seed++, 0, (int[]) c[3]);
            int i1 = np.input(d1);
            int i2 = np.input(d2);
            CubedArray x1 = Cubed.asarray(d1, spec, (int[]) c[1]);
            CubedArray x2 = Cubed.asarray(d2, spec, (int[]) c[4]);
            int axis = (Integer) c[6];
            int e = np.add("np.linalg.cross(x[" + i1 + "], x[" + i2 + "], axis=" + axis + ")");
            CubedArray r = LinearAlgebra.cross(x1, x2, axis);
            String label = "cross " + Layout.describe(x1) + " " + c[2] + " and " + Arrays.toString((int[]) c[3]) + " "
                    + c[5] + " axis " + axis;
            check(label, r, e, r.dtype(), true);
        }
        assertThat(verify(np)).isEqualTo(cases.length);
    }

    @Test
    void crossOfTheUnitVectors() {
        Spec spec = spec();
        CubedArray ex = Cubed.asarray(Chunk.wrap(DType.INT64, new int[] {3}, new long[] {1, 0, 0}), spec);
        CubedArray ey = Cubed.asarray(Chunk.wrap(DType.INT64, new int[] {3}, new long[] {0, 1, 0}), spec);
        assertThat(LinearAlgebra.cross(ex, ey).compute().longs()).containsExactly(0, 0, 1);
        assertThat(LinearAlgebra.cross(ey, ex).compute().longs()).containsExactly(0, 0, -1);
    }

    @Test
    void crossCountsItsWorkspaceAndIsRefusedOverBudget() {
        Spec spec = spec();
        CubedArray a = Creation.ones(new long[] {100, 3}, new int[] {50, 3}, DType.FLOAT64, spec);
        CubedArray c = LinearAlgebra.cross(a, a);
        Computation plan = Computation.prepare(spec, List.of(c.node()), Map.of());
        // reserved 0 + two virtual input chunks (no copies) + extra (both inputs' components, three output chunks'
        // worth of products, no conversion) + output chunk (1 + 1 write copy); 150 elements of 8 bytes per chunk.
        long chunk = 150 * 8;
        assertThat(plan.projectedMemBytes().get(c.node().op()))
                .isEqualTo(2 * chunk + (2 * chunk + 3 * chunk) + 2 * chunk);
        Spec small = spec(8 * chunk);
        CubedArray b = Creation.ones(new long[] {100, 3}, new int[] {50, 3}, DType.FLOAT64, small);
        assertThatThrownBy(() -> LinearAlgebra.cross(b, b).compute())
                .isInstanceOf(MemoryBudgetExceededException.class)
                .hasMessageContaining("exceeds allowedMem")
                .hasMessageContaining("cross");
    }

    @Test
    void crossRefusesBadArguments() {
        Spec spec = spec();
        CubedArray a = Creation.ones(new long[] {4, 3}, new int[] {2, 3}, DType.FLOAT64, spec);
        CubedArray two = Creation.ones(new long[] {4, 2}, new int[] {2, 2}, DType.FLOAT64, spec);
        CubedArray one = Creation.ones(new long[] {4, 1}, new int[] {2, 1}, DType.FLOAT64, spec);
        CubedArray v = Creation.ones(new long[] {3}, new int[] {3}, DType.FLOAT64, spec);
        CubedArray other = Creation.ones(new long[] {5, 3}, new int[] {5, 3}, DType.FLOAT64, spec);
        assertThatThrownBy(() -> LinearAlgebra.cross(a, two))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("cross of " + a.name() + " of shape [4, 3] and " + two.name())
                .hasMessageContaining("must have length 3 in both (it is not broadcast), got 3 and 2");
        assertThatThrownBy(() -> LinearAlgebra.cross(a, one))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("got 3 and 1");
        assertThatThrownBy(() -> LinearAlgebra.cross(a, v, -2))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("axis -2 is out of range; it must be in [-1, -1]");
        assertThatThrownBy(() -> LinearAlgebra.cross(a, v, 0))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("axis 0 is out of range");
        assertThatThrownBy(() -> LinearAlgebra.cross(a, other))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("cannot be broadcast together");
        CubedArray b = Creation.ones(new long[] {3}, new int[] {3}, DType.BOOL, spec);
        assertThatThrownBy(() -> LinearAlgebra.cross(b, b))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("data type bool is not supported");
        CubedArray u64 = Creation.ones(new long[] {3}, new int[] {3}, DType.UINT64, spec);
        CubedArray i64 = Creation.ones(new long[] {3}, new int[] {3}, DType.INT64, spec);
        assertThatThrownBy(() -> LinearAlgebra.cross(u64, i64))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("have no common type");
    }

    // ---- matrix_power ----

    @Test
    void matrixPowerMatchesNumpyByRepeatedSquaring() throws Exception {
        NumpyOracle.require();
        NumpyOracle np = new NumpyOracle(tmp);
        Spec spec = spec();
        Object[][] cases = {
            {new int[] {5, 5}, new int[] {2, 2}, DType.FLOAT64, new long[] {0, 1, 2, 3, 5, 8, 13}},
            {new int[] {3, 4, 4}, new int[] {2, 3, 3}, DType.COMPLEX128, new long[] {0, 2, 7}},
            {new int[] {6, 6}, new int[] {6, 6}, DType.FLOAT32, new long[] {0, 3, 4}},
            {new int[] {4, 4}, new int[] {3, 3}, DType.INT64, new long[] {0, 1, 2, 5, 6}},
            {new int[] {2, 3, 3}, new int[] {1, 2, 2}, DType.INT32, new long[] {3, 4}},
            {new int[] {5, 5}, new int[] {2, 3}, DType.FLOAT64, new long[] {2, 6}},
        };
        long seed = 400;
        int count = 0;
        for (Object[] c : cases) {
            int[] shape = (int[]) c[0];
            DType t = (DType) c[2];
            Chunk data = random(t, seed++, 0, shape);
            int m = shape[shape.length - 1];
            if (t.isFloating() || t.isComplex()) {
                // Entries of size about 1/sqrt(m): powers neither blow up nor vanish.
                Chunk scaled = io.cubed.chunk.Elementwise.binary(
                        io.cubed.chunk.BinaryFunction.MULTIPLY,
                        data,
                        io.cubed.dtype.Scalar.ofDouble(1.5 / Math.sqrt(m)));
                data = scaled;
            } else {
                long[] small = data.toLongArray();
                for (int i = 0; i < small.length; i++) {
                    small[i] = small[i] % 4;
                }
                data = io.cubed.chunk.Elementwise.astype(Chunk.wrap(DType.INT64, shape, small), t);
            }
            int in = np.input(data);
            CubedArray x = Cubed.asarray(data, spec, (int[]) c[1]);
            for (long n : (long[]) c[3]) {
                int e = np.add("np.linalg.matrix_power(x[" + in + "], " + n + ")");
                CubedArray r = LinearAlgebra.matrixPower(x, n);
                check(
                        "matrix_power " + t + " " + Arrays.toString(shape) + " chunks " + Arrays.toString((int[]) c[1])
                                + " n " + n,
                        r,
                        e,
                        t,
                        true);
                count++;
            }
        }
        assertThat(verify(np)).isEqualTo(count);
    }

    @Test
    void matmulOfAnArrayWithItself() {
        // matmul(x, x) passes the same array twice: the product's grid must take each axis from the right operand.
        Spec spec = spec();
        double[] d = new double[5 * 5];
        for (int i = 0; i < d.length; i++) {
            d[i] = i % 7 - 3;
        }
        CubedArray x = Cubed.asarray(Chunk.wrap(DType.FLOAT64, new int[] {5, 5}, d), spec, 2, 2);
        double[] got = LinearAlgebra.matmul(x, x).compute().doubles();
        for (int i = 0; i < 5; i++) {
            for (int j = 0; j < 5; j++) {
                double sum = 0;
                for (int k = 0; k < 5; k++) {
                    sum += d[i * 5 + k] * d[k * 5 + j];
                }
                assertThat(got[i * 5 + j]).isEqualTo(sum);
            }
        }
    }

    @Test
    void matmulOverAnEmptyContractedAxisIsZeros() {
        Spec spec = spec();
        CubedArray a = Creation.ones(new long[] {2, 0}, new int[] {1, 1}, DType.INT32, spec);
        CubedArray b = Creation.ones(new long[] {0, 3}, new int[] {1, 2}, DType.INT32, spec);
        Chunk c = LinearAlgebra.matmul(a, b).compute();
        assertThat(c.dtype()).isEqualTo(DType.INT32);
        assertThat(c.shape()).containsExactly(2, 3);
        assertThat(c.ints()).containsOnly(0);
    }

    @Test
    void matrixPowerZeroIsTheBatchedIdentityInTheChunksOfX() {
        Spec spec = spec();
        CubedArray x = Creation.ones(new long[] {2, 3, 3}, new int[] {1, 2, 2}, DType.COMPLEX64, spec);
        CubedArray id = LinearAlgebra.matrixPower(x, 0);
        assertThat(id.dtype()).isEqualTo(DType.COMPLEX64);
        assertThat(id.shape()).containsExactly(2, 3, 3);
        assertThat(id.chunkShape()).containsExactly(1, 2, 2);
        Chunk c = id.compute();
        for (int b = 0; b < 2; b++) {
            for (int i = 0; i < 3; i++) {
                for (int j = 0; j < 3; j++) {
                    assertThat(c.get(b, i, j).realPart()).isEqualTo(i == j ? 1.0 : 0.0);
                    assertThat(c.get(b, i, j).imagPart()).isZero();
                }
            }
        }
        assertThat(LinearAlgebra.matrixPower(x, 1)).isSameAs(x);
    }

    @Test
    void matrixPowerRefusesBadArguments() {
        Spec spec = spec();
        CubedArray rect = Creation.ones(new long[] {3, 4}, new int[] {3, 4}, DType.FLOAT64, spec);
        assertThatThrownBy(() -> LinearAlgebra.matrixPower(rect, 2))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("matrix_power of " + rect.name() + " of shape [3, 4]: needs square matrices");
        CubedArray v = Creation.ones(new long[] {3}, new int[] {3}, DType.FLOAT64, spec);
        assertThatThrownBy(() -> LinearAlgebra.matrixPower(v, 2))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("needs square matrices");
        CubedArray b = Creation.ones(new long[] {2, 2}, new int[] {2, 2}, DType.BOOL, spec);
        assertThatThrownBy(() -> LinearAlgebra.matrixPower(b, 2))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("data type bool is not supported");
        CubedArray sq = Creation.ones(new long[] {2, 2}, new int[] {2, 2}, DType.INT64, spec);
        assertThatThrownBy(() -> LinearAlgebra.matrixPower(sq, -2))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("n = -2 is an inverse power")
                .hasMessageContaining("integer matrices are not inverted");
    }

    @Test
    void matrixPowerOfANegativeNIsThePowerOfTheInverse() {
        // A = [[2, 1], [1, 1]] has inverse [[1, -1], [-1, 2]]; A^-2 = [[2, -3], [-3, 5]] (by hand).
        Spec spec = spec();
        io.cubed.chunk.Chunk a = io.cubed.chunk.Chunk.allocate(DType.FLOAT64, 2, 2);
        System.arraycopy(new double[] {2, 1, 1, 1}, 0, a.doubles(), 0, 4);
        CubedArray x = io.cubed.Cubed.asarray(a, spec, 1, 2);
        double[] got = LinearAlgebra.matrixPower(x, -2).compute().doubles();
        double[] expected = {2, -3, -3, 5};
        for (int i = 0; i < 4; i++) {
            assertThat(got[i]).isCloseTo(expected[i], org.assertj.core.data.Offset.offset(1e-12));
        }
        double[] inverse = LinearAlgebra.matrixPower(x, -1).compute().doubles();
        double[] expectedInverse = {1, -1, -1, 2};
        for (int i = 0; i < 4; i++) {
            assertThat(inverse[i]).isCloseTo(expectedInverse[i], org.assertj.core.data.Offset.offset(1e-12));
        }
    }
}
