package io.cubed.array;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cubed.Cubed;
import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.error.InvalidArgumentException;
import io.cubed.error.MemoryBudgetExceededException;
import io.cubed.error.TaskFailedException;
import io.cubed.plan.Computation;
import io.cubed.plan.OpNode;
import io.cubed.plan.Spec;
import io.cubed.runtime.LocalExecutor;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The linalg factorizations' plans and errors: bad arguments refused when the array is built (rank, squareness, bool,
 * mode, ord, rtol, solve's shapes), a matrix too large for allowedMem refused with the sizes, the batch chunk shrunk
 * until a task fits (and the projection covering the kernel's workspace), singular and non-positive-definite matrices
 * failing the computation with the operation, the array and the matrix's batch index, det of a singular matrix 0, and
 * the TSQR plan for a tall row-chunked matrix (one task per row block, never the whole matrix in a task).
 */
class FactorizationTest {
    @TempDir
    Path tmp;

    private final Map<Long, Spec> specs = new java.util.HashMap<>();

    /** One spec per budget, so that arrays of one computation share it. */
    private Spec spec(long allowed) {
        return specs.computeIfAbsent(allowed, this::newSpec);
    }

    private Spec newSpec(long allowed) {
        return Spec.builder()
                .workDir(tmp.resolve("work").toString())
                .allowedMem(allowed)
                .reservedMem(0)
                .executor(new LocalExecutor(2, 1, 0))
                .build();
    }

    private CubedArray array(long allowed, double[] values, int[] shape, int... chunks) {
        return Cubed.asarray(Chunk.wrap(DType.FLOAT64, shape, values), spec(allowed), chunks);
    }

    @Test
    void badArgumentsAreRefusedWhenBuilt() {
        CubedArray v = array(10_000_000, new double[] {1, 2, 3}, new int[] {3}, 3);
        CubedArray rect = array(10_000_000, new double[6], new int[] {2, 3}, 2, 3);
        assertThatThrownBy(() -> LinearAlgebra.det(v))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining(
                        "det of " + v.name() + ": needs a matrix or a stack of matrices (rank 2 or more)");
        assertThatThrownBy(() -> LinearAlgebra.inv(rect))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("inv of " + rect.name() + ": needs square matrices, got shape [2, 3] (2×3)");
        for (Runnable r : List.<Runnable>of(
                () -> LinearAlgebra.cholesky(rect),
                () -> LinearAlgebra.eigh(rect),
                () -> LinearAlgebra.eigvalsh(rect),
                () -> LinearAlgebra.slogdet(rect))) {
            assertThatThrownBy(r::run).hasMessageContaining("needs square matrices");
        }
        CubedArray b = Cubed.asarray(Chunk.wrap(DType.BOOL, new int[] {2, 2}, new boolean[4]), spec(10_000_000), 2, 2);
        assertThatThrownBy(() -> LinearAlgebra.svdvals(b))
                .hasMessageContaining("svdvals of " + b.name() + ": data type bool is not supported");
        assertThatThrownBy(() -> LinearAlgebra.qr(rect, "r"))
                .hasMessageContaining("qr of " + rect.name() + ": mode 'r' is not 'reduced' or 'complete'");
        assertThatThrownBy(() -> LinearAlgebra.matrixNorm(rect, false, "3"))
                .hasMessageContaining("matrix_norm of " + rect.name() + ": ord '3' is not one of");
        assertThatThrownBy(() -> LinearAlgebra.pinv(rect, -1))
                .hasMessageContaining("pinv of " + rect.name() + ": rtol -1.0 must be a finite number >= 0");
        CubedArray sq = array(10_000_000, new double[] {1, 2, 3, 4}, new int[] {2, 2}, 2, 2);
        assertThatThrownBy(() -> LinearAlgebra.solve(sq, v))
                .hasMessageContaining("solve of " + sq.name() + " and " + v.name() + ": x2 of shape [3] must be (2,)");
        CubedArray b3 = array(10_000_000, new double[12], new int[] {3, 2, 2}, 1, 2, 2);
        CubedArray a2 = array(10_000_000, new double[16], new int[] {2, 2, 2, 2}, 1, 1, 2, 2);
        assertThatThrownBy(() -> LinearAlgebra.solve(a2, b3)).hasMessageContaining("cannot be broadcast together");
    }

    @Test
    void aMatrixTooLargeForAllowedMemIsRefusedWithTheSizes() {
        CubedArray x = array(200_000, new double[4 * 50 * 50], new int[] {4, 50, 50}, 1, 50, 50);
        assertThatThrownBy(() -> LinearAlgebra.inv(x))
                .isInstanceOf(MemoryBudgetExceededException.class)
                .hasMessageContaining("inv of " + x.name() + ": one 50×50 float64 matrix needs")
                .hasMessageContaining("inputs with their buffers 40000 bytes, outputs with theirs 40000 bytes")
                .hasMessageContaining("kernel workspace 226912 bytes")
                .hasMessageContaining("over allowedMem 200.0 kB");
    }

    @Test
    void theBatchChunkShrinksUntilATaskFitsAndTheProjectionCoversTheWorkspace() {
        // 8 matrices of 20×20 in one chunk: 3200 bytes each, workspace 8·(1200 + 1200 + 2000 + 320 + 64) = 38272.
        int n = 20;
        double[] d = new double[8 * n * n];
        for (int b = 0; b < 8; b++) {
            for (int i = 0; i < n; i++) {
                d[b * n * n + i * n + i] = b + 1;
                d[b * n * n + i * n + (i + 1) % n] = 0.5;
            }
        }
        // Per matrix in a task: input 3200·2 + output 3200·2 = 12800; 38272 + 3·12800 = 76672 fits 80000, 4 do not.
        CubedArray x = array(80_000, d, new int[] {8, n, n}, 8, n, n);
        CubedArray inv = LinearAlgebra.inv(x);
        assertThat(inv.chunkShape()).containsExactly(3, n, n);
        Computation c = Computation.prepare(
                x.spec(), List.of(inv.node()), Map.of(), io.cubed.plan.FusionOptions.defaults(), null);
        for (Map.Entry<OpNode, Long> e : c.projectedMemBytes().entrySet()) {
            if (e.getKey().name().equals("inv")) {
                assertThat(e.getValue()).isEqualTo(38272 + 3 * 12800);
            }
        }
        double[] out = inv.compute().doubles();
        // inv(A)·A = I for matrix 5 (diagonal 6, 0.5 to the right, cyclic), by a plain loop.
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                double s = 0;
                for (int k = 0; k < n; k++) {
                    s += out[5 * n * n + i * n + k] * d[5 * n * n + k * n + j];
                }
                assertThat(s).isCloseTo(i == j ? 1 : 0, org.assertj.core.data.Offset.offset(1e-12));
            }
        }
    }

    @Test
    void singularAndNonDefiniteMatricesFailNamingTheMatrix() {
        // Matrix 0 is regular, matrix 1 singular (second row twice the first).
        double[] d = {2, 1, 1, 3, 1, 2, 2, 4};
        CubedArray x = array(10_000_000, d, new int[] {2, 2, 2}, 1, 2, 2);
        assertThatThrownBy(() -> LinearAlgebra.inv(x).compute())
                .isInstanceOf(TaskFailedException.class)
                .hasMessageContaining("inv of " + x.name() + ": the matrix at batch index [1] is singular");
        CubedArray rhs = array(10_000_000, new double[] {1, 1}, new int[] {2}, 2);
        assertThatThrownBy(() -> LinearAlgebra.solve(x, rhs).compute())
                .hasMessageContaining("solve of " + x.name() + ": the matrix at batch index [1] is singular");
        double[] det = LinearAlgebra.det(x).compute().doubles();
        assertThat(det[0]).isCloseTo(5, org.assertj.core.data.Offset.offset(1e-14));
        assertThat(det[1] == 0)
                .as("det of the singular matrix, %s, is zero", det[1])
                .isTrue();
        List<Chunk> sl = Cubed.compute(LinearAlgebra.slogdet(x));
        assertThat(sl.get(0).doubles()).containsExactly(1, 0);
        assertThat(sl.get(1).doubles()[0]).isCloseTo(Math.log(5), org.assertj.core.data.Offset.offset(1e-14));
        assertThat(sl.get(1).doubles()[1]).isEqualTo(Double.NEGATIVE_INFINITY);
        assertThat(LinearAlgebra.matrixRank(x).compute().longs()).containsExactly(2, 1);
        assertThatThrownBy(() -> LinearAlgebra.cholesky(x).compute())
                .hasMessageContaining(
                        "cholesky of " + x.name() + ": the matrix at batch index [1] is not positive " + "definite");
    }

    @Test
    void aTallRowChunkedMatrixTakesTsqrWithOneTaskPerRowBlock() {
        int m = 40;
        double[] d = new double[m * 3];
        for (int i = 0; i < d.length; i++) {
            d[i] = Math.sin(i * 0.7) + (i % 3 == i / 3 % 3 ? 2 : 0);
        }
        CubedArray x = array(10_000_000, d, new int[] {m, 3}, 5, 3);
        List<CubedArray> qr = LinearAlgebra.qr(x);
        String plan = qr.get(0).explain();
        assertThat(plan).contains("qr (tsqr blocks)", "one QR per row block of 5 rows", "combined 8 at a time: 8 -> 1");
        assertThat(qr.get(0).chunkShape()).containsExactly(5, 3);
        List<Chunk> f = Cubed.compute(qr);
        double[] q = f.get(0).doubles();
        double[] r = f.get(1).doubles();
        for (int i = 0; i < m; i++) {
            for (int j = 0; j < 3; j++) {
                double s = 0;
                for (int k = 0; k < 3; k++) {
                    s += q[i * 3 + k] * r[k * 3 + j];
                }
                assertThat(s).isCloseTo(d[i * 3 + j], org.assertj.core.data.Offset.offset(1e-12));
            }
        }
        // svdvals reads no Q: its plan has no Q output.
        assertThat(LinearAlgebra.svdvals(x).explain()).doesNotContain("tsqr Q", "tsqr multipliers");
    }

    @Test
    void tsqrRefusesARowBlockThatCannotFitAndCompleteModeTakesTheWholeMatrix() {
        // 40 columns: a block of at least 40 rows needs 8·(3·1600 + 3·3200 + 5·1600 + 16·40 + 64) + 16·1600 bytes of
        // workspace (210432) besides its chunks, over a 200 kB budget.
        CubedArray x = array(200_000, new double[200 * 40], new int[] {200, 40}, 50, 40);
        assertThatThrownBy(() -> LinearAlgebra.qr(x))
                .isInstanceOf(MemoryBudgetExceededException.class)
                .hasMessageContaining("qr (tsqr) of " + x.name() + " [200, 40]: a task factoring one block of 40×40 "
                        + "float64 needs");
        assertThatThrownBy(() -> LinearAlgebra.qr(x, "complete"))
                .isInstanceOf(MemoryBudgetExceededException.class)
                .hasMessageContaining("qr of " + x.name() + ": one 200×40 float64 matrix needs");
    }

    @Test
    void everyOperationsFunctionsRoundTripSerialization() throws Exception {
        Spec spec = spec(10_000_000);
        double[] d = new double[40 * 3];
        for (int i = 0; i < d.length; i++) {
            d[i] = Math.cos(i);
        }
        CubedArray tall = Cubed.asarray(Chunk.wrap(DType.FLOAT64, new int[] {40, 3}, d), spec, 5, 3);
        CubedArray sq = Cubed.asarray(
                Chunk.wrap(DType.FLOAT64, new int[] {4, 3, 3}, java.util.Arrays.copyOf(d, 36)), spec, 2, 3, 3);
        List<CubedArray> arrays = new java.util.ArrayList<>();
        arrays.addAll(LinearAlgebra.qr(tall));
        arrays.addAll(LinearAlgebra.svd(tall, false));
        arrays.add(LinearAlgebra.svdvals(tall));
        arrays.addAll(LinearAlgebra.eigh(sq));
        arrays.addAll(LinearAlgebra.slogdet(sq));
        arrays.add(LinearAlgebra.solve(sq, sq));
        arrays.add(LinearAlgebra.pinv(sq));
        arrays.add(LinearAlgebra.matrixNorm(sq, true, "nuc"));
        int ops = 0;
        for (CubedArray a : arrays) {
            for (OpNode op : io.cubed.plan.Plan.of(List.of(a.node())).ops()) {
                assertThat(roundTrip(op.keyFunction())).as(op.toString()).isNotNull();
                assertThat(roundTrip(op.function())).as(op.toString()).isNotNull();
                ops++;
            }
        }
        assertThat(ops).isGreaterThan(20);
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
}
