package io.cubed.array;

import io.cubed.chunk.BinaryFunction;
import io.cubed.chunk.ReduceFunction;
import io.cubed.dtype.DType;
import io.cubed.error.InvalidArgumentException;
import io.cubed.grid.ChunkGrid;
import io.cubed.plan.OpNode;
import java.util.Arrays;
import java.util.List;

/**
 * How the products of {@link LinearAlgebra} become a plan, given the operands' axes as letters: a single blockwise
 * operation whose task for an output chunk walks the pairs of operand chunks along the contracted axes and adds each
 * pair's product into one running sum. When an output chunk has more than {@code splitEvery} such pairs, each task
 * sums one group of them into a partial sum kept along extra trailing axes, and a tree reduction adds the partial
 * sums. With many output chunks, a task may compute a box of them ({@link ContractionBox}) so that it reads every
 * operand chunk once. The pairs a task reads are {@link ContractionKeys}; what it does with them is
 * {@link ContractionChunks}.
 */
final class ContractionPlan {
    private ContractionPlan() {}

    /**
     * The contraction of {@code a} (letters {@code ia}) and {@code b} (letters {@code ib}) into letters {@code out}:
     * one product per pair of chunks, then a tree reduction over the contracted chunk indexes when there are several;
     * {@code conjugateA} takes the complex conjugate of {@code a} ({@code vecdot}).
     */
    static CubedArray contract(
            String op, CubedArray a, String ia, CubedArray b, String ib, String out, boolean conjugateA) {
        int split = ReductionOptions.DEFAULT_SPLIT_EVERY;
        DType rt = LinalgChecks.numericType(op + " of " + a.name() + " and " + b.name(), "linear algebra", a, b);
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
        ContractionBox box = ContractionBox.choose(ua, ia, ub, ib, out, grid, extra, rt);
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
                new ContractionChunks(
                        keys, ia, ib, out, rt, outP.length() - out.length(), conjugateA, box.holdSecond()),
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

    private static String allLetters(String ia, String ib) {
        StringBuilder sb = new StringBuilder(ia);
        for (char c : ib.toCharArray()) {
            if (sb.indexOf(String.valueOf(c)) < 0) {
                sb.append(c);
            }
        }
        return sb.toString();
    }
}
