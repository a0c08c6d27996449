package io.cubed.array;

import io.cubed.chunk.BinaryFunction;
import io.cubed.chunk.Chunk;
import io.cubed.chunk.Contraction;
import io.cubed.chunk.ReduceFunction;
import io.cubed.dtype.DType;
import io.cubed.dtype.DTypes;
import io.cubed.dtype.Scalar;
import io.cubed.error.InvalidArgumentException;
import io.cubed.grid.ChunkGrid;
import io.cubed.memory.BufferCopies;
import io.cubed.plan.OpNode;
import io.cubed.plan.Spec;
import io.cubed.primitive.ChunkArgs;
import io.cubed.primitive.ChunkFunction;
import io.cubed.primitive.ChunkSink;
import io.cubed.primitive.Diagonal;
import io.cubed.primitive.KeyFunction;
import io.cubed.primitive.TaskRegion;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Linear algebra functions of the Array API standard: {@code matmul} (with its batch and 1-d rules),
 * {@code tensordot}, {@code vecdot}, {@code outer} and {@code matrix_transpose}, for integer, real floating-point and
 * complex arrays (types promoted by the standard's table: complex64 with float64 gives complex128). A contraction is
 * one blockwise operation whose task for an output chunk adds the products of the pairs of operand chunks along the
 * contracted axes into a running sum, one pair at a time; beyond {@code splitEvery} pairs, tasks sum groups of pairs
 * into partial sums (extra trailing axes) that a tree reduction sums. Where there are many output chunks, a task
 * computes a box of them and reads each operand chunk once ({@code taskBox}). Chunk products run on BLAS ({@link
 * io.cubed.chunk.MatMul}; complex as four real products on planar parts). Building these
 * runs nothing.
 */
public final class LinearAlgebra {
    private LinearAlgebra() {}

    /**
     * The matrix product ({@code matmul}): {@code (..., m, k) @ (..., k, n) -> (..., m, n)} with the batch axes
     * broadcast; a 1-d first operand acts as a row, a 1-d second one as a column, and their axis is removed from the
     * result (two 1-d operands give their dot product, 0-d).
     */
    public static CubedArray matmul(CubedArray x1, CubedArray x2) {
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
        return contract("matmul", x1, i1, x2, i2, out, ReductionOptions.DEFAULT_SPLIT_EVERY, false);
    }

    /**
     * The tensor contraction of the last {@code axes} axes of {@code x1} with the first {@code axes} axes of
     * {@code x2} ({@code tensordot(x1, x2, axes=N)}).
     */
    public static CubedArray tensordot(CubedArray x1, CubedArray x2, int axes) {
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

    /**
     * The tensor contraction of axes {@code axes1} of {@code x1} with axes {@code axes2} of {@code x2}, pairwise
     * ({@code tensordot(x1, x2, axes=(axes1, axes2))}); the result has the remaining axes of {@code x1}, then of
     * {@code x2}.
     */
    public static CubedArray tensordot(CubedArray x1, CubedArray x2, int[] axes1, int[] axes2) {
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
        return contract(
                op,
                x1,
                new String(l1),
                x2,
                new String(l2),
                out.toString(),
                ReductionOptions.DEFAULT_SPLIT_EVERY,
                false);
    }

    /**
     * The dot product along the last axis, the other axes broadcast, conjugating {@code x1} when it is complex
     * ({@code vecdot}).
     */
    public static CubedArray vecdot(CubedArray x1, CubedArray x2) {
        return vecdot(x1, x2, -1);
    }

    /**
     * The dot product of {@code x1} and {@code x2} along {@code axis} (of the broadcast shape, negative counting from
     * the end), the other axes broadcast ({@code vecdot}): {@code Σ conj(x1)·x2}, so {@code vecdot(x, x)} of a complex
     * {@code x} is {@code Σ |x|²} with a zero imaginary part (conjugating a real {@code x1} changes nothing).
     */
    public static CubedArray vecdot(CubedArray x1, CubedArray x2, int axis) {
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
        return contract(
                "vecdot",
                x1,
                i1,
                x2,
                i2,
                letters.replace(String.valueOf(c), ""),
                ReductionOptions.DEFAULT_SPLIT_EVERY,
                true);
    }

    /** The outer product of two 1-d arrays ({@code outer}): {@code out[i, j] = x1[i] · x2[j]}. */
    public static CubedArray outer(CubedArray x1, CubedArray x2) {
        if (x1.ndim() != 1 || x2.ndim() != 1) {
            throw new InvalidArgumentException("outer of " + x1.name() + " and " + x2.name() + ": both must be 1-d, "
                    + "got shapes " + Arrays.toString(x1.shape()) + " and " + Arrays.toString(x2.shape()));
        }
        return contract("outer", x1, "i", x2, "j", "ij", ReductionOptions.DEFAULT_SPLIT_EVERY, false);
    }

    /** {@code x} with its last two axes swapped ({@code matrix_transpose}); chunk (…, i, j) becomes (…, j, i). */
    public static CubedArray matrixTranspose(CubedArray x) {
        int nd = x.ndim();
        if (nd < 2) {
            throw new InvalidArgumentException("matrix_transpose of " + x.name() + ": needs rank 2 or more, got shape "
                    + Arrays.toString(x.shape()));
        }
        String in = Blockwise.letters(nd);
        String out = in.substring(0, nd - 2) + in.charAt(nd - 1) + in.charAt(nd - 2);
        return Blockwise.blockwise(new TransposeChunks(), out, x.dtype(), x, in);
    }

    /**
     * The contraction of {@code a} (letters {@code ia}) and {@code b} (letters {@code ib}) into letters {@code out}:
     * one product per pair of chunks, then a tree reduction over the contracted chunk indexes when there are several;
     * {@code conjugateA} takes the complex conjugate of {@code a} ({@code vecdot}).
     */
    private static CubedArray contract(
            String op, CubedArray a, String ia, CubedArray b, String ib, String out, int split, boolean conjugateA) {
        DType rt;
        try {
            rt = DTypes.resultType(a.dtype(), b.dtype());
        } catch (InvalidArgumentException e) {
            throw new InvalidArgumentException(
                    op + " of " + a.name() + " and " + b.name() + ": data types " + a.dtype() + " and " + b.dtype()
                            + " have no common type; cast one with astype",
                    e);
        }
        if (rt == DType.BOOL) {
            throw new InvalidArgumentException(op + " of " + a.name() + " and " + b.name() + ": data type " + rt
                    + " is not supported; linear algebra takes numeric (integer, real or complex floating-point) "
                    + "arrays");
        }
        String all = allLetters(ia, ib);
        List<CubedArray> arrays = Blockwise.unifyChunks(List.of(a, b), new String[] {ia, ib}, all);
        CubedArray ua = arrays.get(0);
        CubedArray ub = arrays.get(1);
        StringBuilder con = new StringBuilder();
        for (char c : ia.toCharArray()) {
            if (out.indexOf(c) < 0) {
                con.append(c);
            }
        }
        for (char c : all.toCharArray()) {
            int pa = ia.indexOf(c);
            int pb = ib.indexOf(c);
            if (pa >= 0 && pb >= 0) {
                long la = ua.shape()[pa];
                long lb = ub.shape()[pb];
                if (la != lb && (out.indexOf(c) < 0 || (la != 1 && lb != 1))) {
                    throw new InvalidArgumentException(op + " of " + a.name() + " and " + b.name() + ": shapes "
                            + Arrays.toString(a.shape()) + " and " + Arrays.toString(b.shape())
                            + " cannot be broadcast together");
                }
            }
        }
        // The products of the pairs of chunks along the contracted axes are summed in the task that computes them,
        // one pair at a time, in groups of up to split pairs (all of them when there are no more than split); several
        // groups leave one partial sum each along extra trailing axes (one per contracted letter), summed next by a
        // tree reduction.
        String conLetters = con.toString();
        long[] conChunks = new long[conLetters.length()];
        long nbK = 1;
        for (int l = 0; l < conChunks.length; l++) {
            conChunks[l] = ua.chunks().chunksPerAxis(ia.indexOf(conLetters.charAt(l)));
            nbK *= conChunks[l];
        }
        int[] group = new int[conLetters.length()];
        long groups = 1;
        int perAxis = Reduction.splitPerAxis(split, Math.max(1, conLetters.length()));
        for (int l = 0; l < conChunks.length; l++) {
            group[l] = (int) (nbK <= split ? conChunks[l] : Math.min(conChunks[l], perAxis));
            groups *= nbK == 0 ? 1 : ceilDiv(conChunks[l], group[l]);
        }
        String outP = groups > 1 ? out + con : out;
        long[] shape = new long[outP.length()];
        int[] chunks = new int[outP.length()];
        for (int x = 0; x < outP.length(); x++) {
            char c = outP.charAt(x);
            int l = conLetters.indexOf(c);
            int pa = ia.indexOf(c);
            // Chosen by position, not by identity: a and b may be the same array (matmul(x, x)).
            boolean fromA = pa >= 0 && (ib.indexOf(c) < 0 || ua.shape()[pa] != 1);
            CubedArray src = fromA ? ua : ub;
            int p = fromA ? pa : ib.indexOf(c);
            shape[x] = l >= 0 ? ceilDiv(conChunks[l], group[l]) : src.shape()[p];
            chunks[x] = l >= 0 ? 1 : src.chunkShape()[p];
        }
        if (nbK == 0) {
            // A contracted axis is empty: every sum has no terms, so the result is zeros ((m, 0) @ (0, n) in NumPy).
            return Creation.zeros(shape, chunks, rt, a.spec());
        }
        ChunkGrid grid = ChunkGrid.of(shape, chunks);
        long ae = ua.chunks().chunkSize();
        long be = ub.chunks().chunkSize();
        long oe = grid.chunkSize();
        // Converted and rearranged copies: 16 bytes per element of each chunk (two longs or doubles; for complex the
        // planar real and imaginary parts); a complex64 product is also held as interleaved doubles before rounding.
        // Summing several pairs holds the running sum and, where BLAS does not add into it, the pair's product and
        // what adding them takes.
        long extra = 16 * (ae + be + oe)
                + (rt == DType.COMPLEX64 ? 16 * oe : 0)
                + 8 * Math.min(128L * 256 + 256L * 1024, ae + be)
                + (nbK > 1
                        ? 2 * oe * rt.itemSizeBytes()
                                + io.cubed.chunk.Elementwise.binaryScratchBytes(BinaryFunction.ADD, rt, rt, oe, oe, oe)
                        : 0);
        long pairs = 1;
        for (int g : group) {
            pairs *= g;
        }
        ContractionKeys keys = new ContractionKeys(
                out,
                ia,
                ib,
                conLetters,
                group,
                ua.chunks().chunksPerAxis(),
                ub.chunks().chunksPerAxis(),
                groups > 1);
        TaskBox box = taskBox(ua, ia, ub, ib, out, grid, extra, rt);
        String detail = nbK == 1
                ? null
                : groups > 1
                        ? "the products of up to " + pairs + " pairs of chunks along the contracted axes summed per "
                                + "task, one pair at a time (" + nbK + " pairs per output chunk), the partial sums "
                                + "summed next"
                        : "the products of the " + nbK + " pairs of chunks along the contracted axes summed in the "
                                + "task, one pair at a time";
        if (box.chunksPerTask() != null) {
            String boxed = "tasks of " + box.rows() + " x " + box.cols()
                    + " output chunks, each reading every chunk it " + "needs once";
            detail = detail == null ? boxed : detail + "; " + boxed;
        }
        OpNode product = OpNode.blockwise(
                groups > 1 ? op + " partial sums" : op,
                List.of(ua.node(), ub.node()),
                keys,
                new ContractChunks(keys, ia, ib, out, rt, outP.length() - out.length(), conjugateA, box.holdSecond()),
                box.held(),
                extra + box.extraBytes(),
                List.of(rt),
                List.of(grid),
                box.chunksPerTask(),
                detail);
        CubedArray p = CubedArray.of(product.outputs().get(0), a.spec());
        if (groups == 1) {
            return p;
        }
        int[] trailing = new int[con.length()];
        for (int i = 0; i < trailing.length; i++) {
            trailing[i] = out.length() + i;
        }
        return Reduction.reduce(
                p, ReduceFunction.SUM, ReductionOptions.axis(trailing).dtype(rt).splitEvery(split), op + " sum");
    }

    private static long ceilDiv(long a, long b) {
        return (a + b - 1) / b;
    }

    /** Largest number of output chunks per task along either axis of a contraction's task box. */
    private static final int MAX_BOX_SIDE = 16;

    /**
     * The output chunks each task of a contraction computes: {@code rows} chunks along the last output letter only
     * {@code a} has and {@code cols} along the last only {@code b} has ({@code chunksPerTask} null: one chunk per
     * task); the task holds {@code held} chunks of each operand (the chunks of the held operand one contracted chunk
     * needs, and one of the other at a time) and {@code extraBytes} more for its running sums.
     */
    private record TaskBox(int[] chunksPerTask, int rows, int cols, boolean holdSecond, int[] held, long extraBytes) {
        static final TaskBox ONE = new TaskBox(null, 1, 1, true, new int[] {1, 1}, 0);
    }

    /**
     * Chooses the task box of a contraction with output grid {@code grid}: each task of a box of r × c output chunks
     * reads each operand chunk it needs once, so the operands are read (1/r + 1/c) times per output chunk instead of
     * twice. Boxes tile the grid exactly, so every task does the same work; one is taken where it leaves at least two
     * tasks per task slot of the executor ({@link
     * io.cubed.runtime.Executor#parallelism}, so no slot idles for want of tasks and one slow task can be made up for)
     * and fits allowedMem with the output counted as if written to an object store through a codec that buffers
     * whole chunks (the most copies any target takes, so where it is stored cannot break the bound); among those, the
     * box with the fewest reads, then the most tasks.
     */
    private static TaskBox taskBox(
            CubedArray ua, String ia, CubedArray ub, String ib, String out, ChunkGrid grid, long extra, DType rt) {
        int row = -1;
        int col = -1;
        for (int x = 0; x < out.length(); x++) {
            char c = out.charAt(x);
            boolean inA = ia.indexOf(c) >= 0;
            boolean inB = ib.indexOf(c) >= 0;
            if (inA && !inB) {
                row = x;
            } else if (inB && !inA) {
                col = x;
            }
        }
        if (row < 0 || col < 0 || grid.numChunks() == 0) {
            return TaskBox.ONE;
        }
        Spec spec = ua.spec();
        long rowsOfChunks = grid.chunksPerAxis(row);
        long colsOfChunks = grid.chunksPerAxis(col);
        long others = grid.numChunks() / (rowsOfChunks * colsOfChunks);
        long slots = Math.max(1, spec.executor().parallelism());
        long aBytes = ua.chunks().chunkSize()
                * ua.dtype().itemSizeBytes()
                * (1 + Manipulation.readCopies(ua).read());
        long bBytes = ub.chunks().chunkSize()
                * ub.dtype().itemSizeBytes()
                * (1 + Manipulation.readCopies(ub).read());
        long oBytes = grid.chunkSize() * rt.itemSizeBytes();
        long fixed = spec.reservedMem().bytes()
                + extra
                + oBytes * (1 + BufferCopies.OBJECT_STORE.plus(1).write());
        TaskBox best = TaskBox.ONE;
        double bestReads = 2;
        long bestTasks = grid.numChunks();
        for (int r = 1; r <= Math.min(rowsOfChunks, MAX_BOX_SIDE); r++) {
            for (int c = 1; c <= Math.min(colsOfChunks, MAX_BOX_SIDE); c++) {
                long tasks = others * (rowsOfChunks / r) * (colsOfChunks / c);
                if (r * c == 1 || rowsOfChunks % r != 0 || colsOfChunks % c != 0 || tasks < 2 * slots) {
                    continue;
                }
                // Hold the operand with fewer chunks per contracted chunk: b's c chunks (one of a's r at a time), or
                // a's r chunks.
                boolean holdSecond = c <= r;
                long runningSums = (long) (r * c - 1) * oBytes;
                long mem = fixed + runningSums + (holdSecond ? aBytes + c * bBytes : r * aBytes + bBytes);
                double reads = 1.0 / r + 1.0 / c;
                if (mem > spec.allowedMem().bytes() || reads > bestReads + 1e-12) {
                    continue;
                }
                if (reads < bestReads - 1e-12 || tasks > bestTasks) {
                    int[] perTask = new int[grid.ndim()];
                    Arrays.fill(perTask, 1);
                    perTask[row] = r;
                    perTask[col] = c;
                    best = new TaskBox(
                            perTask, r, c, holdSecond, holdSecond ? new int[] {1, c} : new int[] {r, 1}, runningSums);
                    bestReads = reads;
                    bestTasks = tasks;
                }
            }
        }
        return best;
    }

    private static String allLetters(String ia, String ib) {
        StringBuilder sb = new StringBuilder(ia);
        for (char c : ib.toCharArray()) {
            if (sb.indexOf(String.valueOf(c)) < 0) {
                sb.append(c);
            }
        }
        return sb.toString();
    }

    /**
     * The chunks of the two operands of a contraction one output chunk reads, as pairs: the {@code k}-th chunk of
     * each operand meets the other's {@code k}-th in one product. Output letters pick the operands' chunk by the
     * output's coordinate (chunk 0 where an operand has one chunk along the letter: broadcast); the contracted letters
     * run over a group of {@code group[l]} chunks (C order over {@code con}), the group given by the output's trailing
     * coordinates when {@code partials}, else the only one.
     */
    private record ContractionKeys(
            String out, String ia, String ib, String con, int[] group, long[] chunksA, long[] chunksB, boolean partials)
            implements KeyFunction {
        @Override
        public long[][][] inputKeys(long[] outputCoords) {
            long[] start = new long[con.length()];
            int[] extent = new int[con.length()];
            int pairs = 1;
            for (int l = 0; l < con.length(); l++) {
                start[l] = partials ? outputCoords[out.length() + l] * group[l] : 0;
                long along = chunksA[ia.indexOf(con.charAt(l))];
                extent[l] = (int) Math.min(group[l], along - start[l]);
                pairs *= extent[l];
            }
            long[][] keysA = new long[pairs][];
            long[][] keysB = new long[pairs][];
            long[] at = new long[con.length()];
            for (int k = 0; k < pairs; k++) {
                int rest = k;
                for (int l = con.length() - 1; l >= 0; l--) {
                    at[l] = start[l] + rest % extent[l];
                    rest /= extent[l];
                }
                keysA[k] = key(ia, chunksA, outputCoords, at);
                keysB[k] = key(ib, chunksB, outputCoords, at);
            }
            return new long[][][] {keysA, keysB};
        }

        private long[] key(String letters, long[] chunks, long[] outputCoords, long[] at) {
            long[] key = new long[letters.length()];
            for (int x = 0; x < key.length; x++) {
                char c = letters.charAt(x);
                int l = con.indexOf(c);
                if (l >= 0) {
                    key[x] = at[l];
                } else {
                    key[x] = chunks[x] == 1 ? 0 : outputCoords[out.indexOf(c)];
                }
            }
            return key;
        }
    }

    /**
     * The contraction of the listed pairs of operand chunks (the first conjugated when {@code conjugateA}), summed one
     * pair at a time, with {@code ones} trailing length-1 axes (the group of contracted chunks). A task computing a box
     * of output chunks reads each operand chunk once: for each contracted chunk in turn it holds the chunks of the
     * held operand ({@code holdSecond}: b's) the box needs, reads those of the other one at a time, and adds each
     * product to the running sum of its output chunk.
     */
    private record ContractChunks(
            ContractionKeys keys,
            String ia,
            String ib,
            String out,
            DType type,
            int ones,
            boolean conjugateA,
            boolean holdSecond)
            implements ChunkFunction {
        @Override
        public Chunk[] apply(ChunkArgs args, long[] outputCoords) {
            Chunk r = null;
            for (int k = 0; k < args.count(0); k++) {
                r = Contraction.contractAdd(r, args.chunk(0, k), ia, args.chunk(1, k), ib, out, type, conjugateA);
            }
            return new Chunk[] {withOnes(r)};
        }

        @Override
        public void applyRegion(ChunkArgs args, TaskRegion region, ChunkSink sink) {
            if (region.isSingleChunk()) {
                ChunkFunction.super.applyRegion(args, region, sink);
                return;
            }
            int outputs = (int) region.numChunks();
            int held = holdSecond ? 1 : 0;
            Map<List<Long>, Integer> heldIndex = listed(args, held);
            Map<List<Long>, Integer> streamedIndex = listed(args, 1 - held);
            // pairs[o][k]: the task's indexes of the held and the streamed chunk of output o's k-th product.
            int[][][] pairs = new int[outputs][][];
            for (int o = 0; o < outputs; o++) {
                long[][][] k = keys.inputKeys(region.chunk(o));
                pairs[o] = new int[k[0].length][];
                for (int p = 0; p < k[0].length; p++) {
                    pairs[o][p] =
                            new int[] {heldIndex.get(boxed(k[held][p])), streamedIndex.get(boxed(k[1 - held][p]))};
                }
            }
            Chunk[] sums = new Chunk[outputs];
            // The operand chunks of the contracted chunk done last, read over by the next one's (same shapes, but for
            // edge chunks): the task allocates its operand chunks once instead of once per contracted chunk, and
            // they come from the thread's last task of this operation (they live the whole task, as its outputs do).
            List<Chunk> spare = new ArrayList<>();
            for (int p = 0; p < pairs[0].length; p++) {
                Map<Integer, Chunk> heldChunks = new LinkedHashMap<>();
                Map<Integer, List<Integer>> byStreamed = new LinkedHashMap<>();
                for (int o = 0; o < outputs; o++) {
                    int h = pairs[o][p][0];
                    if (!heldChunks.containsKey(h)) {
                        heldChunks.put(h, readOver(args, held, h, spare));
                    }
                    byStreamed
                            .computeIfAbsent(pairs[o][p][1], i -> new ArrayList<>())
                            .add(o);
                }
                for (Map.Entry<Integer, List<Integer>> e : byStreamed.entrySet()) {
                    Chunk streamed = readOver(args, 1 - held, e.getKey(), spare);
                    for (int o : e.getValue()) {
                        Chunk h = heldChunks.get(pairs[o][p][0]);
                        sums[o] = holdSecond
                                ? Contraction.contractAdd(sums[o], streamed, ia, h, ib, out, type, conjugateA)
                                : Contraction.contractAdd(sums[o], h, ia, streamed, ib, out, type, conjugateA);
                    }
                    spare.add(streamed);
                }
                spare.addAll(heldChunks.values());
            }
            for (int o = 0; o < outputs; o++) {
                sink.write(0, region.chunk(o), withOnes(sums[o]));
                sums[o] = null;
            }
        }

        /**
         * Chunk {@code k} of input {@code input}, read into a spare chunk of its shape (taken off {@code spare}) or
         * into one for the task to overwrite; then one spare of another shape (an edge chunk's) is dropped, so the task
         * never holds more operand chunks than it did without spares.
         */
        private static Chunk readOver(ChunkArgs args, int input, int k, List<Chunk> spare) {
            int[] shape = args.chunkShape(input, k);
            DType t = args.dtype(input);
            for (int i = 0; i < spare.size(); i++) {
                Chunk c = spare.get(i);
                if (c.dtype() == t && Arrays.equals(c.shape(), shape)) {
                    spare.remove(i);
                    return args.chunk(input, k, c);
                }
            }
            if (!spare.isEmpty()) {
                spare.remove(spare.size() - 1);
            }
            return args.chunk(input, k, Chunk.allocateForTaskToOverwrite(t, shape));
        }

        private static Map<List<Long>, Integer> listed(ChunkArgs args, int input) {
            Map<List<Long>, Integer> index = new HashMap<>();
            for (int i = 0; i < args.count(input); i++) {
                index.put(boxed(args.key(input, i)), i);
            }
            return index;
        }

        private static List<Long> boxed(long[] key) {
            return Arrays.stream(key).boxed().toList();
        }

        private Chunk withOnes(Chunk r) {
            if (ones == 0) {
                return r;
            }
            int[] s = Arrays.copyOf(r.shape(), r.ndim() + ones);
            Arrays.fill(s, r.ndim(), s.length, 1);
            return Chunk.wrap(r.dtype(), s, r.data());
        }
    }

    /** Transposes the last two axes of a chunk. */
    private record TransposeChunks() implements BlockwiseFunction {
        @Override
        public Chunk apply(ChunkArgs args, long[] blockId) {
            return Contraction.matrixTranspose(args.chunk(0));
        }
    }

    // ---- Composable linalg functions: vector_norm, diagonal, trace, cross, matrix_power ----

    /** The Euclidean norm of all elements of {@code x} ({@code vector_norm(x)}), 0-d, of the real type of {@code x}. */
    public static CubedArray vectorNorm(CubedArray x) {
        return vectorNorm(x, null, false, 2);
    }

    /**
     * The vector norm of order {@code ord} over {@code axis} ({@code vector_norm(x, axis=axis, keepdims=keepdims,
     * ord=ord)}; {@code axis} null: every axis, negative axes count from the end): {@code (Σ|x|^ord)^(1/ord)} for any
     * real {@code ord}, {@code max|x|} for {@code +∞}, {@code min|x|} for {@code −∞}, and for {@code ord = 0} the number
     * of nonzero elements. {@code |x|} is the modulus for complex {@code x}; the result has the real type of {@code x}
     * (complex128 gives float64). Built as NumPy computes it, from elementwise functions and one tree reduction:
     * {@code ord = 2} is {@code sqrt(Σ(re² + im²))} without rescaling (it overflows where NumPy's does), {@code ord = 1}
     * {@code Σ|x|}, any other finite order {@code Σ(|x|^ord)} raised to {@code 1/ord} (rounded to the result type).
     *
     * @throws InvalidArgumentException when {@code x} is not floating-point (the standard asks for a floating-point
     *     array; cast integers with {@code astype}), {@code ord} is NaN, an axis is out of range or repeated, or
     *     {@code ord = ±∞} reduces an empty axis (a maximum of nothing)
     */
    public static CubedArray vectorNorm(CubedArray x, int[] axis, boolean keepdims, double ord) {
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

    /** The main diagonal of each matrix of {@code x} ({@code diagonal(x)}); see {@link #diagonal(CubedArray, long)}. */
    public static CubedArray diagonal(CubedArray x) {
        return diagonal(x, 0);
    }

    /**
     * Diagonal {@code offset} (0 the main one, positive above it, negative below) of each matrix formed by the last two
     * axes of {@code x} ({@code diagonal(x, offset=offset)}): shape {@code (..., L)} with {@code L} the diagonal's
     * length (0 when {@code offset} lies outside the matrix), any data type, the batch axes chunked as in {@code x} and
     * the diagonal in chunks of the smaller chunk length of the two matrix axes. Each task reads only the (at most
     * three) chunks of {@code x} its run of the diagonal passes through, one at a time.
     *
     * @throws InvalidArgumentException when {@code x} has fewer than two axes
     */
    public static CubedArray diagonal(CubedArray x, long offset) {
        int nd = x.ndim();
        if (nd < 2) {
            throw new InvalidArgumentException("diagonal of " + Layout.describe(x) + ": needs rank 2 or more (a "
                    + "matrix or a stack of matrices)");
        }
        long m = x.shape()[nd - 2];
        long n = x.shape()[nd - 1];
        long rowStart = offset < 0 ? -offset : 0;
        long colStart = offset > 0 ? offset : 0;
        long len = rowStart >= m || colStart >= n ? 0 : Math.min(m - rowStart, n - colStart);
        int[] chunks = x.chunkShape();
        long[] shape = Arrays.copyOf(x.shape(), nd - 1);
        shape[nd - 2] = len;
        int[] outChunks = Arrays.copyOf(chunks, nd - 1);
        outChunks[nd - 2] = Math.min(chunks[nd - 2], chunks[nd - 1]);
        ChunkGrid grid = Chunking.grid(shape, outChunks, "diagonal of " + x.name());
        Diagonal f = new Diagonal(x.dtype(), x.chunks(), grid, rowStart, colStart);
        OpNode op = OpNode.blockwise(
                "diagonal",
                List.of(x.node()),
                f,
                f,
                new int[] {1},
                0,
                List.of(x.dtype()),
                List.of(grid),
                "diagonal " + offset
                        + ": each task reads the chunks its run of the diagonal passes through (at most 3)");
        return CubedArray.of(op.outputs().get(0), x.spec());
    }

    /** The sum of the main diagonal of each matrix of {@code x} ({@code trace(x)}); see {@link #trace(CubedArray, long, DType)}. */
    public static CubedArray trace(CubedArray x) {
        return trace(x, 0, null);
    }

    /**
     * The sum of diagonal {@code offset} of each matrix formed by the last two axes of {@code x}
     * ({@code trace(x, offset=offset, dtype=dtype)}): shape {@code x.shape[:-2]}, 0 where the diagonal is empty. The
     * result type is the standard's (that of {@code sum}): {@code dtype} when given, else {@code x}'s, with signed
     * integers widened to int64 and unsigned ones to uint64. Built as {@link #diagonal(CubedArray, long)} then a tree
     * sum over the diagonal.
     *
     * @throws InvalidArgumentException when {@code x} has fewer than two axes, is bool (the standard asks for a numeric
     *     array), or {@code dtype} is not one {@code x} may be summed in
     */
    public static CubedArray trace(CubedArray x, long offset, DType dtype) {
        if (x.dtype() == DType.BOOL) {
            throw new InvalidArgumentException("trace of " + Layout.describe(x) + ": data type bool is not supported; "
                    + "trace takes a numeric (integer, real or complex floating-point) array");
        }
        if (x.ndim() < 2) {
            throw new InvalidArgumentException(
                    "trace of " + Layout.describe(x) + ": needs rank 2 or more (a matrix or a stack of matrices)");
        }
        return Reduction.reduce(
                diagonal(x, offset),
                ReduceFunction.SUM,
                ReductionOptions.axis(-1).dtype(dtype),
                "trace sum");
    }

    /** The cross product along the last axis ({@code cross(x1, x2)}); see {@link #cross(CubedArray, CubedArray, int)}. */
    public static CubedArray cross(CubedArray x1, CubedArray x2) {
        return cross(x1, x2, -1);
    }

    /**
     * The cross product of the 3-element vectors along {@code axis} of {@code x1} and {@code x2}
     * ({@code cross(x1, x2, axis=axis)}): {@code axis} counts from the end ({@code [-N, -1]}, {@code N} the smaller
     * rank; a non-negative axis is accepted when both ranks are equal), that axis must have length 3 in both (it is
     * not broadcast) and the other axes broadcast. The result has the promoted type and the broadcast shape; each
     * component is {@code a_j·b_k − a_k·b_j} computed by the elementwise kernels (integers wrap as NumPy's do). The
     * vector axis is brought to one chunk (a rechunk where it has several), then one task per output chunk.
     *
     * @throws InvalidArgumentException for an axis out of range, a vector axis not of length 3, shapes that do not
     *     broadcast, bool inputs (the standard asks for numeric ones), or types without a common type
     */
    public static CubedArray cross(CubedArray x1, CubedArray x2, int axis) {
        String what = "cross of " + Layout.describe(x1) + " and " + Layout.describe(x2);
        int n = Math.min(x1.ndim(), x2.ndim());
        int fromEnd;
        if (axis < 0 && axis >= -n) {
            fromEnd = -axis;
        } else if (axis >= 0 && axis < n && x1.ndim() == x2.ndim()) {
            fromEnd = n - axis;
        } else {
            throw new InvalidArgumentException(what + ": axis " + axis + " is out of range; it must be in [-" + n
                    + ", -1] (counted from the last axis" + (x1.ndim() == x2.ndim() ? ", or in [0, " + n + ")" : "")
                    + ")");
        }
        DType rt;
        try {
            rt = DTypes.resultType(x1.dtype(), x2.dtype());
        } catch (InvalidArgumentException e) {
            throw new InvalidArgumentException(
                    what + ": data types " + x1.dtype() + " and " + x2.dtype() + " have no common type; cast one "
                            + "with astype",
                    e);
        }
        if (rt == DType.BOOL) {
            throw new InvalidArgumentException(what + ": data type bool is not supported; cross takes numeric "
                    + "(integer, real or complex floating-point) arrays");
        }
        int a1 = x1.ndim() - fromEnd;
        int a2 = x2.ndim() - fromEnd;
        if (x1.shape()[a1] != 3 || x2.shape()[a2] != 3) {
            throw new InvalidArgumentException(what + ": the vector axis " + axis + " must have length 3 in both "
                    + "(it is not broadcast), got " + x1.shape()[a1] + " and " + x2.shape()[a2]);
        }
        Layout.broadcastShape("cross", List.of(x1, x2));
        CubedArray u1 = x1.chunks().chunksPerAxis(a1) > 1 ? Manipulation.rechunk(x1, Map.of(a1, 3)) : x1;
        CubedArray u2 = x2.chunks().chunksPerAxis(a2) > 1 ? Manipulation.rechunk(x2, Map.of(a2, 3)) : x2;
        long e1 = u1.chunks().chunkSize();
        long e2 = u2.chunks().chunkSize();
        long out = Searching.broadcastChunkElements(List.of(u1, u2));
        // The components of both chunks (one chunk's worth each), the six products and three differences (three output
        // chunks' worth at most), and the kernels' conversions to the promoted type.
        long extra = e1 * x1.dtype().itemSizeBytes()
                + e2 * x2.dtype().itemSizeBytes()
                + 3 * out * rt.itemSizeBytes()
                + io.cubed.chunk.Elementwise.binaryScratchBytes(
                        BinaryFunction.MULTIPLY, x1.dtype(), x2.dtype(), e1, e2, out);
        return Blockwise.mapBlocks(
                "cross",
                new CrossBlocks(fromEnd),
                MapBlocksOptions.builder(rt).extraMemBytes(extra).build(),
                List.of(u1, u2));
    }

    /**
     * {@code x} multiplied by itself {@code n} times ({@code matrix_power(x, n)}) for the square matrices of its last
     * two axes: {@code n = 0} gives the identity of {@code x}'s type and chunks for each matrix, {@code n = 1} gives
     * {@code x}, larger {@code n} repeated squaring with {@link #matmul} (about {@code 2·log2(n)} products, in NumPy's
     * order). Integer matrices are accepted for {@code n ≥ 0}, as NumPy does (products wrap). {@code n < 0} is the
     * power {@code -n} of {@link #inv}{@code (x)}, for floating-point matrices (a singular one fails the computation).
     *
     * @throws InvalidArgumentException when {@code x} is not a (stack of) square matrices, is bool, or is an integer
     *     matrix with {@code n < 0} (NumPy refuses to invert integer matrices)
     */
    public static CubedArray matrixPower(CubedArray x, long n) {
        int nd = x.ndim();
        if (nd < 2 || x.shape()[nd - 2] != x.shape()[nd - 1]) {
            throw new InvalidArgumentException("matrix_power of " + Layout.describe(x) + ": needs square matrices "
                    + "in the last two axes (shape (..., M, M))");
        }
        if (x.dtype() == DType.BOOL) {
            throw new InvalidArgumentException("matrix_power of " + Layout.describe(x) + ": data type bool is not "
                    + "supported; matrix_power takes a numeric (integer, real or complex floating-point) array");
        }
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
            return matrixPower(inv(x), -n);
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

    /** The cross product of one chunk of each operand along the axis {@code fromEnd} places from their last axes. */
    private record CrossBlocks(int fromEnd) implements BlockFunction {
        @Override
        public Chunk apply(Chunk[] blocks, long[] blockId) {
            Chunk[] a = components(blocks[0]);
            Chunk[] b = components(blocks[1]);
            Chunk[] c = new Chunk[3];
            for (int i = 0; i < 3; i++) {
                int j = (i + 1) % 3;
                int k = (i + 2) % 3;
                c[i] = io.cubed.chunk.Elementwise.binary(
                        BinaryFunction.SUBTRACT,
                        io.cubed.chunk.Elementwise.binary(BinaryFunction.MULTIPLY, a[j], b[k]),
                        io.cubed.chunk.Elementwise.binary(BinaryFunction.MULTIPLY, a[k], b[j]));
            }
            int[] shape = c[0].shape().clone();
            int axis = shape.length - fromEnd;
            shape[axis] = 3;
            Chunk out = Chunk.allocate(c[0].dtype(), shape);
            int[] at = new int[shape.length];
            for (int i = 0; i < 3; i++) {
                at[axis] = i;
                Chunk.copyRegion(c[i], new int[shape.length], out, at, c[i].shape());
            }
            return out;
        }

        /** The three slices of {@code x} along the vector axis, each keeping that axis with length 1. */
        private Chunk[] components(Chunk x) {
            int axis = x.ndim() - fromEnd;
            int[] shape = x.shape().clone();
            shape[axis] = 1;
            Chunk[] parts = new Chunk[3];
            int[] at = new int[shape.length];
            for (int i = 0; i < 3; i++) {
                parts[i] = Chunk.allocate(x.dtype(), shape);
                at[axis] = i;
                Chunk.copyRegion(x, at, parts[i], new int[shape.length], shape);
            }
            return parts;
        }
    }

    // ---- Factorizations (linalg): per matrix in one chunk, or TSQR for tall-and-skinny matrices ----

    /**
     * The Cholesky factor of each Hermitian positive-definite matrix ({@code cholesky(x, upper)}): lower-triangular L
     * with {@code x = L·Lᴴ} from the lower triangle, or upper-triangular U with {@code x = Uᴴ·U} from the upper when
     * {@code upper}. A matrix that is not positive definite fails the computation, naming it (NumPy raises
     * LinAlgError).
     */
    public static CubedArray cholesky(CubedArray x, boolean upper) {
        DType t = factorType("cholesky", x, true);
        long n = x.shape()[x.ndim() - 1];
        return MatrixOps.perMatrix(
                        "cholesky",
                        upper ? MatrixOps.Kind.CHOLESKY_UPPER : MatrixOps.Kind.CHOLESKY,
                        Double.NaN,
                        t,
                        List.of(x),
                        List.of(new MatrixOps.Out(t, new long[] {n, n})))
                .get(0);
    }

    /** {@link #cholesky(CubedArray, boolean)} with the lower factor ({@code upper=False}). */
    public static CubedArray cholesky(CubedArray x) {
        return cholesky(x, false);
    }

    /** The determinant of each square matrix ({@code det}), shape the batch axes; 0 for a singular matrix. */
    public static CubedArray det(CubedArray x) {
        DType t = factorType("det", x, true);
        return MatrixOps.perMatrix(
                        "det",
                        MatrixOps.Kind.DET,
                        Double.NaN,
                        t,
                        List.of(x),
                        List.of(new MatrixOps.Out(t, new long[0])))
                .get(0);
    }

    /**
     * The sign and the natural log of the absolute value of each determinant ({@code slogdet}), as the list {sign,
     * logabsdet}: sign is ±1 (for complex {@code det/|det|}) in x's type, logabsdet real; a singular matrix gives sign 0
     * and logabsdet −∞. One operation computes both.
     */
    public static List<CubedArray> slogdet(CubedArray x) {
        DType t = factorType("slogdet", x, true);
        return MatrixOps.perMatrix(
                "slogdet",
                MatrixOps.Kind.SLOGDET,
                Double.NaN,
                t,
                List.of(x),
                List.of(new MatrixOps.Out(t, new long[0]), new MatrixOps.Out(MatrixOps.realOf(t), new long[0])));
    }

    /** The inverse of each square matrix ({@code inv}); a singular matrix fails the computation, naming it. */
    public static CubedArray inv(CubedArray x) {
        DType t = factorType("inv", x, true);
        long n = x.shape()[x.ndim() - 1];
        return MatrixOps.perMatrix(
                        "inv", MatrixOps.Kind.INV, Double.NaN, t, List.of(x), List.of(new MatrixOps.Out(t, new long[] {
                            n, n
                        })))
                .get(0);
    }

    /**
     * X with {@code x1·X = x2} for each square matrix of {@code x1} ({@code solve}): {@code x2} of shape {@code (M,)}
     * is one right-hand side for every matrix (result {@code (..., M)}); otherwise {@code x2} is {@code (..., M, K)}
     * with batch axes broadcast against x1's (result {@code (..., M, K)}), as NumPy 2. Types promote (integers to
     * float64). A singular matrix fails the computation, naming it.
     */
    public static CubedArray solve(CubedArray x1, CubedArray x2) {
        String op = "solve";
        DType t1 = factorType(op, x1, true);
        DType t2 = x2.ndim() == 0 ? t1 : MatrixOps.floating(op, x2);
        DType t;
        try {
            t = DTypes.resultType(t1, t2);
        } catch (InvalidArgumentException e) {
            throw new InvalidArgumentException(
                    op + " of " + x1.name() + " and " + x2.name() + ": types " + x1.dtype() + " and " + x2.dtype()
                            + " have no common type",
                    e);
        }
        long m = x1.shape()[x1.ndim() - 1];
        boolean vector = x2.ndim() == 1;
        if (x2.ndim() == 0 || x2.shape()[vector ? 0 : x2.ndim() - 2] != m) {
            throw new InvalidArgumentException(op + " of " + x1.name() + " and " + x2.name() + ": x2 of shape "
                    + Arrays.toString(x2.shape()) + " must be (" + m + ",) or (..., " + m + ", K) for x1 of shape "
                    + Arrays.toString(x1.shape()));
        }
        CubedArray b = vector ? Manipulation.expandDims(x2, 1) : x2;
        int nb = Math.max(x1.ndim(), b.ndim()) - 2;
        long[] batch = new long[nb];
        for (int a = 0; a < nb; a++) {
            long l1 = batchLength(x1, a, nb);
            long l2 = batchLength(b, a, nb);
            if (l1 != l2 && l1 != 1 && l2 != 1) {
                throw new InvalidArgumentException(op + " of " + x1.name() + " and " + x2.name() + ": batch shapes of "
                        + Arrays.toString(x1.shape()) + " and " + Arrays.toString(x2.shape())
                        + " cannot be broadcast together");
            }
            batch[a] = Math.max(l1, l2);
        }
        CubedArray a1 = Manipulation.broadcastTo(x1, withCore(batch, x1));
        CubedArray a2 = Manipulation.broadcastTo(b, withCore(batch, b));
        long k = b.shape()[b.ndim() - 1];
        CubedArray r = MatrixOps.perMatrix(
                        op,
                        MatrixOps.Kind.SOLVE,
                        Double.NaN,
                        t,
                        List.of(a1, a2),
                        List.of(new MatrixOps.Out(t, new long[] {m, k})))
                .get(0);
        return vector ? Manipulation.squeeze(r, r.ndim() - 1) : r;
    }

    private static long batchLength(CubedArray x, int axis, int nb) {
        int own = x.ndim() - 2;
        int a = axis - (nb - own);
        return a < 0 ? 1 : x.shape()[a];
    }

    private static long[] withCore(long[] batch, CubedArray x) {
        long[] s = Arrays.copyOf(batch, batch.length + 2);
        s[batch.length] = x.shape()[x.ndim() - 2];
        s[batch.length + 1] = x.shape()[x.ndim() - 1];
        return s;
    }

    /**
     * The eigenvalues (ascending, real) and eigenvectors (columns, orthonormal) of each Hermitian or real symmetric
     * matrix, read from its lower triangle ({@code eigh}), as the list {eigenvalues, eigenvectors}; eigenvectors are
     * unique only up to sign (real) or phase (complex). One operation computes both (the eigenvalues are then squeezed
     * from a trailing axis of length 1).
     */
    public static List<CubedArray> eigh(CubedArray x) {
        DType t = factorType("eigh", x, true);
        long n = x.shape()[x.ndim() - 1];
        List<CubedArray> r = MatrixOps.perMatrix(
                "eigh",
                MatrixOps.Kind.EIGH,
                Double.NaN,
                t,
                List.of(x),
                List.of(new MatrixOps.Out(MatrixOps.realOf(t), new long[] {n, 1}), new MatrixOps.Out(t, new long[] {n, n
                })));
        CubedArray w = r.get(0);
        return List.of(Manipulation.squeeze(w, w.ndim() - 1), r.get(1));
    }

    /** The eigenvalues of each Hermitian or real symmetric matrix, ascending ({@code eigvalsh}). */
    public static CubedArray eigvalsh(CubedArray x) {
        DType t = factorType("eigvalsh", x, true);
        long n = x.shape()[x.ndim() - 1];
        return MatrixOps.perMatrix(
                        "eigvalsh",
                        MatrixOps.Kind.EIGVALSH,
                        Double.NaN,
                        t,
                        List.of(x),
                        List.of(new MatrixOps.Out(MatrixOps.realOf(t), new long[] {n})))
                .get(0);
    }

    /**
     * The QR factorization of each matrix ({@code qr(x, mode)}), as the list {Q, R}: {@code mode} "reduced" gives Q
     * {@code (..., M, K)} with orthonormal columns and R {@code (..., K, N)} upper triangular, {@code K = min(M, N)};
     * "complete" gives Q {@code (..., M, M)} and R {@code (..., M, N)}. A tall 2-d matrix chunked along its rows takes
     * TSQR (reduced mode): the rows are never gathered in one task.
     */
    public static List<CubedArray> qr(CubedArray x, String mode) {
        boolean complete = "complete".equals(mode);
        if (!complete && !"reduced".equals(mode)) {
            throw new InvalidArgumentException(
                    "qr of " + x.name() + ": mode '" + mode + "' is not 'reduced' or 'complete'");
        }
        DType t = factorType("qr", x, false);
        if (!complete && Tsqr.applies(x)) {
            return Tsqr.qr(x, t);
        }
        long m = x.shape()[x.ndim() - 2];
        long n = x.shape()[x.ndim() - 1];
        long k = Math.min(m, n);
        return MatrixOps.perMatrix(
                "qr",
                complete ? MatrixOps.Kind.QR_COMPLETE : MatrixOps.Kind.QR,
                Double.NaN,
                t,
                List.of(x),
                List.of(
                        new MatrixOps.Out(t, new long[] {m, complete ? m : k}),
                        new MatrixOps.Out(t, new long[] {complete ? m : k, n})));
    }

    /** {@link #qr(CubedArray, String)} in mode "reduced". */
    public static List<CubedArray> qr(CubedArray x) {
        return qr(x, "reduced");
    }

    /**
     * The singular value decomposition of each matrix ({@code svd(x, full_matrices)}), as the list {U, S, Vh} with
     * {@code x = U·diag(S)·Vh}, S descending and real: U {@code (..., M, K)} and Vh {@code (..., K, N)}, or {@code (...,
     * M, M)} and {@code (..., N, N)} when {@code fullMatrices}. Singular vectors are unique only up to sign or phase.
     * A tall 2-d matrix chunked along its rows ({@code fullMatrices} false) takes TSQR and factors only its small R.
     */
    public static List<CubedArray> svd(CubedArray x, boolean fullMatrices) {
        DType t = factorType("svd", x, false);
        if (!fullMatrices && Tsqr.applies(x)) {
            return Tsqr.svd(x, t);
        }
        long m = x.shape()[x.ndim() - 2];
        long n = x.shape()[x.ndim() - 1];
        long k = Math.min(m, n);
        List<CubedArray> r = MatrixOps.perMatrix(
                "svd",
                fullMatrices ? MatrixOps.Kind.SVD_FULL : MatrixOps.Kind.SVD,
                Double.NaN,
                t,
                List.of(x),
                List.of(
                        new MatrixOps.Out(t, new long[] {m, fullMatrices ? m : k}),
                        new MatrixOps.Out(MatrixOps.realOf(t), new long[] {k, 1}),
                        new MatrixOps.Out(t, new long[] {fullMatrices ? n : k, n})));
        CubedArray s = r.get(1);
        return List.of(r.get(0), Manipulation.squeeze(s, s.ndim() - 1), r.get(2));
    }

    /** {@link #svd(CubedArray, boolean)} with {@code full_matrices=True}, the standard's default. */
    public static List<CubedArray> svd(CubedArray x) {
        return svd(x, true);
    }

    /** The singular values of each matrix, descending and real ({@code svdvals}); TSQR for tall row-chunked matrices. */
    public static CubedArray svdvals(CubedArray x) {
        DType t = factorType("svdvals", x, false);
        if (Tsqr.applies(x)) {
            return Tsqr.svdvals(x, t);
        }
        long k = Math.min(x.shape()[x.ndim() - 2], x.shape()[x.ndim() - 1]);
        return MatrixOps.perMatrix(
                        "svdvals",
                        MatrixOps.Kind.SVDVALS,
                        Double.NaN,
                        t,
                        List.of(x),
                        List.of(new MatrixOps.Out(MatrixOps.realOf(t), new long[] {k})))
                .get(0);
    }

    /**
     * The rank of each matrix ({@code matrix_rank(x, rtol)}): the number of singular values above {@code rtol} times
     * the largest, int64; {@code rtol} NaN gives the standard's default {@code max(M, N)·eps} of x's precision.
     */
    public static CubedArray matrixRank(CubedArray x, double rtol) {
        DType t = factorType("matrix_rank", x, false);
        checkRtol("matrix_rank", x, rtol);
        return MatrixOps.perMatrix(
                        "matrix_rank",
                        MatrixOps.Kind.MATRIX_RANK,
                        rtol,
                        t,
                        List.of(x),
                        List.of(new MatrixOps.Out(DType.INT64, new long[0])))
                .get(0);
    }

    /** {@link #matrixRank(CubedArray, double)} with the default tolerance. */
    public static CubedArray matrixRank(CubedArray x) {
        return matrixRank(x, Double.NaN);
    }

    /**
     * The Moore–Penrose pseudo-inverse of each matrix ({@code pinv(x, rtol)}), {@code (..., N, M)}: singular values at
     * or below {@code rtol} times the largest count as zero; {@code rtol} NaN gives {@code max(M, N)·eps}.
     */
    public static CubedArray pinv(CubedArray x, double rtol) {
        DType t = factorType("pinv", x, false);
        checkRtol("pinv", x, rtol);
        long m = x.shape()[x.ndim() - 2];
        long n = x.shape()[x.ndim() - 1];
        return MatrixOps.perMatrix(
                        "pinv", MatrixOps.Kind.PINV, rtol, t, List.of(x), List.of(new MatrixOps.Out(t, new long[] {n, m
                        })))
                .get(0);
    }

    /** {@link #pinv(CubedArray, double)} with the default tolerance. */
    public static CubedArray pinv(CubedArray x) {
        return pinv(x, Double.NaN);
    }

    private static void checkRtol(String op, CubedArray x, double rtol) {
        if (!Double.isNaN(rtol) && (rtol < 0 || Double.isInfinite(rtol))) {
            throw new InvalidArgumentException(
                    op + " of " + x.name() + ": rtol " + rtol + " must be a finite number >= 0");
        }
    }

    /**
     * The matrix norm of each matrix ({@code matrix_norm(x, keepdims, ord)}), real: {@code "fro"} (Frobenius),
     * {@code "nuc"} (sum of singular values), {@code "1"}/{@code "-1"} (largest/smallest column sum of |x|),
     * {@code "inf"}/{@code "-inf"} (largest/smallest row sum of |x|), {@code "2"}/{@code "-2"} (largest/smallest
     * singular value). With {@code keepdims} the last two axes stay with length 1. Fro and the sums are reductions
     * over any chunking; the singular-value norms need {@link #svdvals}.
     */
    public static CubedArray matrixNorm(CubedArray x, boolean keepdims, String ord) {
        String op = "matrix_norm";
        DType t = factorType(op, x, false);
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
                CubedArray s = svdvals(xf);
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

    /** {@link #matrixNorm(CubedArray, boolean, String)} with the standard's defaults: Frobenius, no keepdims. */
    public static CubedArray matrixNorm(CubedArray x) {
        return matrixNorm(x, false, "fro");
    }

    /** The computing type of a factorization of {@code x}, after checking it is a stack of (square) matrices. */
    private static DType factorType(String op, CubedArray x, boolean square) {
        MatrixOps.checkMatrices(op, x, square);
        return MatrixOps.floating(op, x);
    }
}
