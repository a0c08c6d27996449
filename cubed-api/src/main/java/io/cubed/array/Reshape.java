package io.cubed.array;

import io.cubed.error.InvalidArgumentException;
import io.cubed.grid.ChunkGrid;
import io.cubed.plan.OpNode;
import io.cubed.primitive.ChunkwiseReshape;
import java.util.Arrays;
import java.util.List;

/**
 * Reshape in global C order, as Cubed and Dask do it: rechunk the input so that every chunk is a contiguous run of
 * whole "rows" of the axes being merged or split, then reshape chunk by chunk (chunk {@code f} in C order becomes
 * output chunk {@code f}). See {@link #chunks} for how the chunks are chosen.
 */
final class Reshape {
    private Reshape() {}

    /** {@code shape} with one {@code -1} resolved, checked against {@code x}'s size. */
    static long[] resolve(CubedArray x, long[] given) {
        long known = 1;
        int unknown = -1;
        for (int a = 0; a < given.length; a++) {
            if (given[a] == -1) {
                if (unknown >= 0) {
                    throw new InvalidArgumentException("reshape: shape " + Arrays.toString(given) + " for "
                            + Layout.describe(x) + " has more than one -1");
                }
                unknown = a;
            } else if (given[a] < 0) {
                throw new InvalidArgumentException("reshape: shape " + Arrays.toString(given) + " for "
                        + Layout.describe(x) + " has a negative length");
            } else {
                known = Math.multiplyExact(known, given[a]);
            }
        }
        long[] shape = given.clone();
        if (unknown >= 0) {
            if (known == 0 || x.size() % known != 0) {
                throw new InvalidArgumentException("reshape: cannot reshape " + Layout.describe(x) + " (" + x.size()
                        + " elements) to " + Arrays.toString(given));
            }
            shape[unknown] = x.size() / known;
        }
        if (Axes.product(shape) != x.size()) {
            throw new InvalidArgumentException("reshape: cannot reshape " + Layout.describe(x) + " (" + x.size()
                    + " elements) to " + Arrays.toString(given) + " (" + Axes.product(shape) + " elements)");
        }
        return shape;
    }

    static CubedArray reshape(CubedArray x, long[] given) {
        long[] shape = resolve(x, given);
        if (Arrays.equals(shape, x.shape())) {
            return x;
        }
        if (x.size() == 0) {
            return Creation.empty(shape, whole(shape), x.dtype(), x.spec());
        }
        int[][] plan = x.numChunks() == 1
                ? new int[][] {x.chunkShape(), whole(shape)}
                : chunks(x.name(), x.shape(), x.chunkShape(), shape);
        CubedArray in = Manipulation.rechunk(x, plan[0]);
        ChunkGrid out = ChunkGrid.of(shape, plan[1]);
        ChunkwiseReshape f = new ChunkwiseReshape(in.chunks(), out);
        OpNode op = OpNode.blockwise(
                "reshape", List.of(in.node()), f, f, new int[] {1}, 0, List.of(x.dtype()), List.of(out));
        return CubedArray.of(op.outputs().get(0), x.spec());
    }

    private static int[] whole(long[] shape) {
        int[] c = new int[shape.length];
        for (int a = 0; a < c.length; a++) {
            c[a] = (int) Math.max(1, Math.min(shape[a], Integer.MAX_VALUE - 8));
        }
        return c;
    }

    /**
     * The input chunks to rechunk to and the output chunks, for reshaping {@code in} (chunks {@code inChunks}) to
     * {@code out} (same size, no zero length). Axes are grouped from the right into the smallest runs whose lengths
     * multiply to the same number on both sides. A group of one input and one output axis of equal length keeps its
     * chunks. In any other group all input axes but the first are made whole, and the first gets a chunk {@code c}
     * divided by the number of chunks the other axes had (so chunks keep about their size, as Dask's
     * {@code expand_tuple}) and rounded to a multiple of {@code cs / gcd(cs, P)}, where {@code P} is the product of the
     * other input lengths and {@code cs} of the other output lengths; the first output axis then gets chunks of
     * {@code c·P/cs} and the others are whole. A pure merge whose leading input axes have chunks of 1 and whose last
     * axis's chunk divides its length keeps its chunks (Dask's special case). Every grid is regular.
     */
    static int[][] chunks(String name, long[] in, int[] inChunks, long[] out) {
        int[] rin = new int[in.length];
        int[] rout = new int[out.length];
        int ii = in.length - 1;
        int oi = out.length - 1;
        while (ii >= 0 || oi >= 0) {
            if (ii >= 0 && in[ii] == 1 && (oi < 0 || out[oi] != 1)) {
                rin[ii--] = 1;
                continue;
            }
            if (oi >= 0 && out[oi] == 1 && (ii < 0 || in[ii] != 1)) {
                rout[oi--] = 1;
                continue;
            }
            int iEnd = ii;
            int oEnd = oi;
            long pi = in[ii--];
            long po = out[oi--];
            while (pi != po) {
                if (pi < po) {
                    pi *= in[ii--];
                } else {
                    po *= out[oi--];
                }
            }
            int l = ii + 1;
            int ol = oi + 1;
            if (l == iEnd && ol == oEnd) {
                rin[l] = inChunks[l];
                rout[ol] = inChunks[l];
                continue;
            }
            boolean leadingOnes = true;
            for (int a = l; a < iEnd; a++) {
                leadingOnes &= inChunks[a] == 1;
            }
            if (ol == oEnd && leadingOnes && in[iEnd] % inChunks[iEnd] == 0) {
                for (int a = l; a <= iEnd; a++) {
                    rin[a] = inChunks[a];
                }
                rout[ol] = inChunks[iEnd];
                continue;
            }
            long p = 1;
            long reduction = 1;
            for (int a = l + 1; a <= iEnd; a++) {
                p *= in[a];
                reduction *= (in[a] + inChunks[a] - 1) / inChunks[a];
                rin[a] = checked(name, in[a]);
            }
            long cs = 1;
            for (int a = ol + 1; a <= oEnd; a++) {
                cs *= out[a];
                rout[a] = checked(name, out[a]);
            }
            long m = cs / gcd(cs, p);
            long c = Math.max(1, inChunks[l] / reduction);
            c = Math.max(m, c / m * m);
            c = Math.min(c, in[l]);
            rin[l] = checked(name, c);
            rout[ol] = checked(name, c * p / cs);
        }
        return new int[][] {rin, rout};
    }

    private static int checked(String name, long chunk) {
        if (chunk > Integer.MAX_VALUE - 8) {
            throw new InvalidArgumentException("reshape of " + name + " would need chunks of " + chunk
                    + " elements along one axis, more than one Java array holds");
        }
        return (int) chunk;
    }

    private static long gcd(long a, long b) {
        return b == 0 ? a : gcd(b, a % b);
    }
}
