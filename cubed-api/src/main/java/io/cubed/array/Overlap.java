package io.cubed.array;

import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.dtype.Scalar;
import io.cubed.error.InvalidArgumentException;
import io.cubed.grid.ChunkGrid;
import io.cubed.plan.OpNode;
import io.cubed.primitive.ChunkArgs;
import io.cubed.primitive.ChunkFunction;
import io.cubed.primitive.KeyFunction;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;

/**
 * {@link #mapOverlap}: a function of each chunk together with a halo of its neighbours' elements, as Dask's and
 * Cubed's {@code map_overlap} — stencils, filters, finite differences. One blockwise operation: each task reads the
 * input chunks that its extended region touches one at a time into one buffer, fills what lies outside the array with
 * the boundary value, applies the function and trims the halo from the result.
 */
public final class Overlap {
    private Overlap() {}

    /**
     * {@code fn} applied to every chunk of {@code x} extended by {@code depth[a]} elements on both sides of each axis
     * (elements outside the array take {@code boundary}, which must fit the type of {@code x} as a scalar of
     * {@code add} must); {@code fn} returns a chunk of the extended shape and type
     * {@code dtype}, from which the halo is trimmed, so the result has the shape and chunks of {@code x}.
     *
     * @throws InvalidArgumentException for a depth of the wrong rank or negative
     */
    public static CubedArray mapOverlap(BlockFunction fn, int[] depth, Scalar boundary, DType dtype, CubedArray x) {
        if (depth.length != x.ndim()) {
            throw new InvalidArgumentException("map_overlap: depth " + Arrays.toString(depth) + " has " + depth.length
                    + " entries, but array '" + x.name() + "' has " + x.ndim() + " axes");
        }
        long extended = x.dtype().itemSizeBytes();
        for (int a = 0; a < depth.length; a++) {
            if (depth[a] < 0) {
                throw new InvalidArgumentException("map_overlap: depth " + Arrays.toString(depth) + " for array '"
                        + x.name() + "' is negative on axis " + a);
            }
            extended = Math.multiplyExact(extended, (long) x.chunkShape()[a] + 2L * depth[a]);
        }
        // Checked now, not in a task: the boundary must convert to the input's type (an integer must fit it).
        ElementwiseOps.checkScalarFits("map_overlap", x, boundary, x.dtype());
        Chunk.full(x.dtype(), boundary);
        ChunkGrid grid = x.chunks();
        // Held at once: the extended input buffer, the function's extended result, one input chunk (counted by the
        // plan) and the trimmed output (counted by the plan).
        long extra = extended + extended / x.dtype().itemSizeBytes() * dtype.itemSizeBytes();
        OpNode op = OpNode.blockwise(
                "map_overlap",
                List.of(x.node()),
                new HaloKeys(grid, depth.clone()),
                new HaloFunction(fn, grid, depth.clone(), boundary, dtype),
                new int[] {1},
                extra,
                List.of(dtype),
                List.of(grid),
                null,
                "depth " + Arrays.toString(depth) + ", boundary " + boundary);
        return CubedArray.of(op.outputs().get(0), x.spec());
    }

    /** The element range {@code [lo, hi)} of output chunk {@code coords} extended by the depth, on axis {@code a}. */
    private static long[] extendedRange(ChunkGrid grid, int[] depth, long[] coords, int a) {
        long start = grid.chunkOffset(coords)[a];
        return new long[] {start - depth[a], start + grid.chunkShapeAt(coords)[a] + depth[a]};
    }

    /** The input chunks an extended region touches. */
    private record HaloKeys(ChunkGrid grid, int[] depth) implements KeyFunction {
        @Override
        public long[][][] inputKeys(long[] outputCoords) {
            int nd = grid.ndim();
            long[] first = new long[nd];
            long[] count = new long[nd];
            long total = 1;
            for (int a = 0; a < nd; a++) {
                long[] r = extendedRange(grid, depth, outputCoords, a);
                long lo = Math.max(0, r[0]) / grid.chunkShape(a);
                long hi = (Math.min(grid.shape(a), r[1]) - 1) / grid.chunkShape(a);
                first[a] = lo;
                count[a] = hi - lo + 1;
                total *= count[a];
            }
            long[][] keys = new long[(int) total][nd];
            for (int t = 0; t < total; t++) {
                long rest = t;
                for (int a = nd - 1; a >= 0; a--) {
                    keys[t][a] = first[a] + rest % count[a];
                    rest /= count[a];
                }
            }
            return new long[][][] {keys};
        }
    }

    /** Builds the extended chunk, applies the function, trims the halo. */
    private record HaloFunction(BlockFunction fn, ChunkGrid grid, int[] depth, Scalar boundary, DType dtype)
            implements ChunkFunction {
        @Override
        public Chunk[] apply(ChunkArgs args, long[] outputCoords) {
            int nd = grid.ndim();
            int[] core = grid.chunkShapeAt(outputCoords);
            int[] extShape = new int[nd];
            long[] extStart = new long[nd];
            for (int a = 0; a < nd; a++) {
                extShape[a] = core[a] + 2 * depth[a];
                extStart[a] = extendedRange(grid, depth, outputCoords, a)[0];
            }
            Chunk ext = null;
            Iterator<Chunk> chunks = args.iterator(0);
            for (int k = 0; chunks.hasNext(); k++) {
                Chunk in = chunks.next();
                if (ext == null) {
                    ext = Chunk.full(in.dtype(), boundary, extShape);
                }
                long[] inStart = grid.chunkOffset(args.key(0, k));
                int[] src = new int[nd];
                int[] dst = new int[nd];
                int[] extent = new int[nd];
                for (int a = 0; a < nd; a++) {
                    long lo = Math.max(extStart[a], inStart[a]);
                    long hi = Math.min(extStart[a] + extShape[a], inStart[a] + in.shape(a));
                    src[a] = (int) (lo - inStart[a]);
                    dst[a] = (int) (lo - extStart[a]);
                    extent[a] = (int) (hi - lo);
                }
                Chunk.copyRegion(in, src, ext, dst, extent);
            }
            long[] blockId = outputCoords.clone();
            Chunk result = fn.apply(new Chunk[] {ext}, blockId);
            if (result == null || !Arrays.equals(result.shape(), extShape) || result.dtype() != dtype) {
                throw new InvalidArgumentException("map_overlap: the function returned "
                        + (result == null ? "null" : result.dtype() + " " + Arrays.toString(result.shape()))
                        + " for chunk " + Arrays.toString(outputCoords) + ", expected " + dtype + " of the extended "
                        + "shape " + Arrays.toString(extShape));
            }
            Chunk out = Chunk.allocate(dtype, core);
            Chunk.copyRegion(result, depth.clone(), out, new int[nd], core);
            return new Chunk[] {out};
        }
    }
}
