package io.cubed.array;

import io.cubed.chunk.Chunk;
import io.cubed.chunk.Contraction;
import io.cubed.chunk.Factorizations;
import io.cubed.dtype.DType;
import io.cubed.error.MemoryBudgetExceededException;
import io.cubed.grid.ChunkGrid;
import io.cubed.memory.BufferCopies;
import io.cubed.memory.MemorySize;
import io.cubed.plan.ArrayNode;
import io.cubed.plan.OpNode;
import io.cubed.plan.Spec;
import io.cubed.primitive.ChunkArgs;
import io.cubed.primitive.ChunkFunction;
import io.cubed.primitive.KeyFunction;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * TSQR: the QR factorization of a tall-and-skinny {@code m×n} matrix whose rows span several chunks, without ever
 * holding more than a row block (or a group of small {@code n×n} factors) in a task, as Cubed and Dask do.
 *
 * <ol>
 *   <li>Each row block {@code A_i} ({@code r_i×n}, at least n rows except perhaps the last) is factored, {@code A_i =
 *       Q_i·R_i}; R_i is written as an {@code n×n} chunk of a stack, padded with zero rows when {@code r_i < n}, Q_i as
 *       {@code r_i×n} padded with zero columns. Only the first {@code min(r_i, n)} rows of R_i count ("valid").
 *   <li>The stacked R's are combined in groups of {@code g} (as many as fit a task): the valid rows of a group are
 *       factored, {@code [R_a; R_b; …] = Q'·R'}, Q' scattered back to the padded positions (zero rows elsewhere) so that
 *       its columns stay orthonormal, R' padded to {@code n×n}. Repeated (a tree) until one R is left: R of A.
 *   <li>Q is rebuilt top-down: each group's multiplier is its slice of Q' times its parent's multiplier, and {@code Q
 *       block i = Q_i · multiplier_i} — one small product per row block.
 * </ol>
 *
 * The SVD follows from R: {@code R = U_R·S·Vh}, so {@code A = (Q·U_R)·S·Vh}; the singular values need no Q at all.
 */
final class Tsqr {
    private Tsqr() {}

    /** True for a 2-d matrix with more rows than columns whose rows span several chunks. */
    static boolean applies(CubedArray x) {
        return x.ndim() == 2
                && x.shape()[0] > x.shape()[1]
                && x.shape()[1] > 0
                && x.chunks().chunksPerAxis(0) > 1;
    }

    private static long taskBytes(long reserved, long inBytes, long outBytes, long work, BufferCopies c) {
        return reserved + inBytes * (1 + c.read()) + outBytes * (1 + c.write()) + work;
    }

    /** {Q, R} of {@code x}. */
    static List<CubedArray> qr(CubedArray x, DType t) {
        Result r = factor(x, t, true);
        return List.of(rebuildQ(r, t), r.rFinal);
    }

    /** {U, S, Vh} of {@code x} through the SVD of its R. */
    static List<CubedArray> svd(CubedArray x, DType t) {
        Result r = factor(x, t, true);
        CubedArray q = rebuildQ(r, t);
        List<CubedArray> small = LinearAlgebra.svd(r.rFinal, false);
        CubedArray u = LinearAlgebra.matmul(q, Elementwise.astype(small.get(0), t));
        return List.of(u, small.get(1), small.get(2));
    }

    /** The singular values of {@code x}: those of its R. */
    static CubedArray svdvals(CubedArray x, DType t) {
        return LinearAlgebra.svdvals(factor(x, t, false).rFinal);
    }

    /** The pieces of a factorization: the first level's Q blocks, each level's Q' and the final R. */
    private record Result(CubedArray q1, List<CubedArray> levels, List<Integer> groups, CubedArray rFinal, int n) {}

    private static Result factor(CubedArray x0, DType t, boolean withQ) {
        String op = "qr (tsqr)";
        Spec spec = x0.spec();
        long m = x0.shape()[0];
        int n = (int) x0.shape()[1];
        BufferCopies copies = MatrixOps.copies(spec, List.of(x0));
        long reserved = spec.reservedMem().bytes();
        long allowed = spec.allowedMem().bytes();
        long isz = t.itemSizeBytes();
        // Row blocks of at least n rows (so that the stacked R's are no taller than x), as many as fit a task.
        long rows = Math.max(x0.chunkShape()[0], n);
        while (rows > n && blockTask(rows, n, isz, reserved, copies, withQ, t) > allowed) {
            rows = Math.max(n, rows / 2);
        }
        long need = blockTask(rows, n, isz, reserved, copies, withQ, t);
        if (need > allowed) {
            throw new MemoryBudgetExceededException(op + " of " + x0.name() + " " + Arrays.toString(x0.shape())
                    + ": a task factoring one block of " + rows + "×" + n + " " + t + " needs "
                    + MemorySize.format(need) + " (" + need + " bytes with reservedMem), over allowedMem "
                    + spec.allowedMem() + ": the columns are factored whole; raise allowedMem");
        }
        CubedArray x = Manipulation.rechunk(x0, (int) Math.min(rows, m), n);
        int c = x.chunkShape()[0];
        int nb = (int) x.chunks().chunksPerAxis(0);
        int[] valid = new int[nb];
        for (int i = 0; i < nb; i++) {
            valid[i] = (int) Math.min(n, Math.min(c, m - (long) i * c));
        }
        long work = MatrixOps.workspaceBytes(c, n, (long) c * n + (long) n * n, t.isComplex()) + 16L * c * n;
        ChunkGrid rGrid = ChunkGrid.of(new long[] {(long) nb * n, n}, new int[] {n, n});
        List<DType> types = withQ ? List.of(t, t) : List.of(t);
        List<ChunkGrid> grids = withQ ? List.of(x.chunks(), rGrid) : List.of(rGrid);
        OpNode first = OpNode.blockwise(
                "qr (tsqr blocks)",
                List.of(x.node()),
                new GroupKeys(1, nb),
                new BlockQr(t, n, withQ),
                new int[] {1},
                work,
                types,
                withQ ? List.of(ChunkGrid.of(x.shape(), new int[] {c, n}), rGrid) : grids,
                "one QR per row block of " + c + " rows; R's padded to " + n + "×" + n);
        CubedArray q1 = withQ ? CubedArray.of(first.outputs().get(0), spec) : null;
        ArrayNode stack = first.outputs().get(withQ ? 1 : 0);
        List<CubedArray> levels = new ArrayList<>();
        List<Integer> groups = new ArrayList<>();
        int count = nb;
        while (count > 1) {
            int g = groupSize(count, n, isz, reserved, copies, withQ, t, allowed);
            if (g < 2) {
                long two = combineTask(2, n, isz, reserved, copies, withQ, t);
                throw new MemoryBudgetExceededException(op + " of " + x0.name() + ": combining two " + n + "×" + n
                        + " R factors in a task needs " + MemorySize.format(two) + " (" + two + " bytes with "
                        + "reservedMem), over allowedMem " + spec.allowedMem() + "; raise allowedMem");
            }
            int ng = (count + g - 1) / g;
            int[] next = new int[ng];
            for (int j = 0; j < ng; j++) {
                int sum = 0;
                for (int i = j * g; i < Math.min(count, (j + 1) * g); i++) {
                    sum += valid[i];
                }
                next[j] = Math.min(n, sum);
            }
            ChunkGrid qGrid = ChunkGrid.of(new long[] {(long) count * n, n}, new int[] {g * n, n});
            ChunkGrid rNext = ChunkGrid.of(new long[] {(long) ng * n, n}, new int[] {n, n});
            long cw = MatrixOps.workspaceBytes((long) g * n, n, (long) g * n * n + (long) n * n, t.isComplex())
                    + 16L * g * n * n;
            OpNode combine = OpNode.blockwise(
                    "qr (tsqr combine)",
                    List.of(stack),
                    new GroupKeys(g, count),
                    new CombineQr(t, n, valid, g, withQ),
                    new int[] {Math.min(g, count)},
                    cw,
                    withQ ? List.of(t, t) : List.of(t),
                    withQ ? List.of(qGrid, rNext) : List.of(rNext),
                    "R factors combined " + g + " at a time: " + count + " -> " + ng);
            if (withQ) {
                levels.add(CubedArray.of(combine.outputs().get(0), spec));
                groups.add(g);
            }
            stack = combine.outputs().get(withQ ? 1 : 0);
            valid = next;
            count = ng;
        }
        return new Result(q1, levels, groups, CubedArray.of(stack, spec), n);
    }

    /** Memory of a first-level task: a block of {@code rows×n}, its Q and R, and the kernel's workspace. */
    private static long blockTask(
            long rows, int n, long isz, long reserved, BufferCopies copies, boolean withQ, DType t) {
        long in = rows * n * isz;
        long out = ((withQ ? rows * n : 0) + (long) n * n) * isz;
        long work = MatrixOps.workspaceBytes(rows, n, rows * n + (long) n * n, t.isComplex()) + 16L * rows * n;
        return taskBytes(reserved, in, out, work, copies);
    }

    /** Memory of a task combining {@code g} R factors. */
    private static long combineTask(
            int g, int n, long isz, long reserved, BufferCopies copies, boolean withQ, DType t) {
        long in = (long) g * n * n * isz;
        long out = ((withQ ? (long) g * n * n : 0) + (long) n * n) * isz;
        long work = MatrixOps.workspaceBytes((long) g * n, n, (long) g * n * n + (long) n * n, t.isComplex())
                + 16L * g * n * n;
        return taskBytes(reserved, in, out, work, copies);
    }

    /** The largest group (at most {@code count}, at most 64) whose combine task fits {@code allowed}; 1 if none. */
    private static int groupSize(
            int count, int n, long isz, long reserved, BufferCopies copies, boolean withQ, DType t, long allowed) {
        int g = Math.min(count, 64);
        while (g >= 2 && combineTask(g, n, isz, reserved, copies, withQ, t) > allowed) {
            g--;
        }
        return Math.max(g, 1);
    }

    /** Q from the pieces: multipliers top-down, then each first-level block times its multiplier. */
    private static CubedArray rebuildQ(Result r, DType t) {
        int n = r.n;
        Spec spec = r.q1.spec();
        CubedArray mult = null;
        for (int l = r.levels.size() - 1; l >= 0; l--) {
            CubedArray q = r.levels.get(l);
            int g = r.groups.get(l);
            long count = q.shape()[0] / n;
            ChunkGrid grid = ChunkGrid.of(new long[] {count * n, n}, new int[] {n, n});
            List<ArrayNode> ins = mult == null ? List.of(q.node()) : List.of(q.node(), mult.node());
            OpNode node = OpNode.blockwise(
                    "qr (tsqr multipliers)",
                    ins,
                    new ParentKeys(g, mult != null),
                    new SliceTimes(t, n, g),
                    mult == null ? new int[] {1} : new int[] {1, 1},
                    64L * n * n,
                    List.of(t),
                    List.of(grid));
            mult = CubedArray.of(node.outputs().get(0), spec);
        }
        CubedArray q1 = r.q1;
        if (mult == null) {
            return q1;
        }
        long e = (long) q1.chunkShape()[0] * n;
        OpNode node = OpNode.blockwise(
                "qr (tsqr Q)",
                List.of(q1.node(), mult.node()),
                new ParentKeys(1, true),
                new SliceTimes(t, n, 1),
                new int[] {1, 1},
                32L * (e + 2L * n * n) + 16L * e,
                List.of(t),
                List.of(q1.chunks()));
        return CubedArray.of(node.outputs().get(0), spec);
    }

    /** Output chunk j reads input chunks {@code j·g … min(count, (j+1)·g) − 1} along the rows. */
    private record GroupKeys(int g, long count) implements KeyFunction {
        @Override
        public long[][][] inputKeys(long[] out) {
            long lo = out[0] * g;
            long hi = Math.min(count, lo + g);
            long[][] keys = new long[(int) (hi - lo)][];
            for (long i = lo; i < hi; i++) {
                keys[(int) (i - lo)] = new long[] {i, 0};
            }
            return new long[][][] {keys};
        }
    }

    /** Output chunk j reads chunk {@code j/g} of the first input and, when there is one, chunk {@code j/g} of the second. */
    private record ParentKeys(int g, boolean two) implements KeyFunction {
        @Override
        public long[][][] inputKeys(long[] out) {
            long[][] a = {{out[0] / g, 0}};
            if (!two) {
                return new long[][][] {a};
            }
            return new long[][][] {a, {{out[0] / g, 0}}};
        }
    }

    /** A {@code rows×cols} chunk with {@code src}'s top-left corner copied in, zeros elsewhere. */
    private static Chunk padded(Chunk src, int rows, int cols) {
        Chunk out = Chunk.allocate(src.dtype(), rows, cols);
        Chunk.copyRegion(
                src, new int[2], out, new int[2], new int[] {Math.min(rows, src.shape(0)), Math.min(cols, src.shape(1))
                });
        return out;
    }

    /** First level: the QR of one row block, Q padded to n columns and R to {@code n×n}. */
    private record BlockQr(DType t, int n, boolean withQ) implements ChunkFunction {
        @Override
        public Chunk[] apply(ChunkArgs args, long[] out) {
            Chunk a = args.chunk(0);
            Chunk[] f = Factorizations.get().qr(a, false, t);
            Chunk r = padded(f[1], n, n);
            return withQ ? new Chunk[] {padded(f[0], a.shape(0), n), r} : new Chunk[] {r};
        }
    }

    /**
     * A combine task: the valid rows of a group of R factors stacked and factored; Q' scattered back to the padded
     * layout (zero rows where the R's were padded), R' padded to {@code n×n}.
     */
    private record CombineQr(DType t, int n, int[] valid, int g, boolean withQ) implements ChunkFunction {
        @Override
        public Chunk[] apply(ChunkArgs args, long[] out) {
            int lo = (int) out[0] * g;
            int members = args.count(0);
            int total = 0;
            for (int i = 0; i < members; i++) {
                total += valid[lo + i];
            }
            Chunk stacked = Chunk.allocate(t, total, n);
            int row = 0;
            for (int i = 0; i < members; i++) {
                Chunk r = args.chunk(0, i);
                int v = valid[lo + i];
                Chunk.copyRegion(r, new int[2], stacked, new int[] {row, 0}, new int[] {v, n});
                row += v;
            }
            Chunk[] f = Factorizations.get().qr(stacked, false, t);
            Chunk r = padded(f[1], n, n);
            if (!withQ) {
                return new Chunk[] {r};
            }
            Chunk q = Chunk.allocate(t, members * n, n);
            row = 0;
            int k = f[0].shape(1);
            for (int i = 0; i < members; i++) {
                int v = valid[lo + i];
                Chunk.copyRegion(f[0], new int[] {row, 0}, q, new int[] {i * n, 0}, new int[] {v, k});
                row += v;
            }
            return new Chunk[] {q, r};
        }
    }

    /**
     * A multiplier (or a Q block): the {@code n}-row slice {@code j mod g} of the first input's chunk, times the second
     * input's chunk when there is one ({@code g = 1}: the whole first chunk).
     */
    private record SliceTimes(DType t, int n, int g) implements ChunkFunction {
        @Override
        public Chunk[] apply(ChunkArgs args, long[] out) {
            Chunk a = args.chunk(0);
            if (g > 1) {
                Chunk s = Chunk.allocate(t, n, n);
                Chunk.copyRegion(a, new int[] {(int) (out[0] % g) * n, 0}, s, new int[2], new int[] {n, n});
                a = s;
            }
            if (args.size() == 1) {
                return new Chunk[] {a};
            }
            return new Chunk[] {Contraction.contract(a, "ik", args.chunk(1), "kj", "ij", t)};
        }
    }
}
