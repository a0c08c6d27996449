package io.cubed.array;

import io.cubed.chunk.Chunk;
import io.cubed.chunk.ReduceFunction;
import io.cubed.chunk.Scans;
import io.cubed.dtype.DType;
import io.cubed.dtype.Scalar;
import io.cubed.error.InvalidArgumentException;
import io.cubed.grid.ChunkGrid;
import io.cubed.plan.ArrayNode;
import io.cubed.plan.OpNode;
import io.cubed.primitive.ChunkArgs;
import io.cubed.primitive.ChunkFunction;
import io.cubed.primitive.IndexKeyFunction;
import io.cubed.primitive.NeighbourKeyFunction;
import io.cubed.primitive.ScanOffsetKeyFunction;
import java.util.List;

/**
 * Blocked scans (cumulative sum and product) with bounded memory, after Blelloch: scan within each chunk, keeping each
 * chunk's total; scan the totals (recursively, in chunks as long as the input's along the axis); add to each chunk
 * the total of the chunks before it.
 */
final class Scan {
    private Scan() {}

    static CubedArray cumulative(CubedArray x, boolean prod, ReductionOptions options) {
        String op = prod ? "cumulative_prod" : "cumulative_sum";
        int[] given = options.axes();
        int axis;
        if (given == null) {
            if (x.ndim() != 1) {
                throw new InvalidArgumentException(op + " of " + x.name() + ": axis is required for an array of rank "
                        + x.ndim() + " (only 1-d arrays may omit it)");
            }
            axis = 0;
        } else if (given.length == 1) {
            axis = Reduction.normalizeAxis(op, x, given[0]);
        } else {
            throw new InvalidArgumentException(
                    op + " of " + x.name() + ": axis must be one axis, got " + java.util.Arrays.toString(given));
        }
        ReduceFunction f = prod ? ReduceFunction.PROD : ReduceFunction.SUM;
        DType rt = f.resultType(x.dtype(), options.dtype(), x.name());
        CubedArray scanned = scan(op, x, axis, prod, rt);
        return options.includeInitial() ? withInitial(op, scanned, axis, prod) : scanned;
    }

    /**
     * {@code s} one element longer along {@code axis}, starting with the identity (0, or 1 for prod), in the same
     * chunks: output chunk {@code k} takes the last element of chunk {@code k - 1} and all but the last of chunk
     * {@code k}.
     */
    private static CubedArray withInitial(String op, CubedArray s, int axis, boolean prod) {
        ChunkGrid g = s.chunks();
        long[] shape = g.shape();
        shape[axis]++;
        if (shape[axis] == 1) {
            return Creation.full(shape, Scalar.ofLong(prod ? 1 : 0), g.chunkShape(), s.dtype(), s.spec());
        }
        ChunkGrid out = ChunkGrid.of(shape, g.chunkShape());
        OpNode node = OpNode.blockwise(
                op + " initial",
                List.of(s.node()),
                new NeighbourKeyFunction(axis, g.chunksPerAxis(axis), -1, 0),
                new ShiftChunks(axis, g.chunkShape(axis), shape[axis], prod),
                new int[] {2},
                s.node().chunkBytes(),
                List.of(s.dtype()),
                List.of(out),
                "include_initial: shifts the scan by one element along axis " + axis);
        return CubedArray.of(node.outputs().get(0), s.spec());
    }

    /** Output chunk k of the shifted scan: the identity or chunk k - 1's last slice, then chunk k less its last. */
    private record ShiftChunks(int axis, int chunk, long length, boolean prod) implements ChunkFunction {
        @Override
        public Chunk[] apply(ChunkArgs args, long[] outputCoords) {
            List<Chunk> in = args.chunks(0);
            long k = outputCoords[axis];
            int outLen = (int) Math.min(chunk, length - k * chunk);
            Chunk any = in.get(0);
            int[] shape = any.shape();
            shape[axis] = outLen;
            Chunk out = Chunk.allocate(any.dtype(), shape);
            int[] zero = new int[shape.length];
            int next = 0;
            if (k == 0) {
                int[] one = shape.clone();
                one[axis] = 1;
                Chunk id = Chunk.full(any.dtype(), Scalar.ofLong(prod ? 1 : 0), one);
                Chunk.copyRegion(id, zero, out, zero, one);
            } else {
                Chunk prev = in.get(0);
                int[] src = new int[shape.length];
                src[axis] = prev.shape(axis) - 1;
                int[] one = prev.shape();
                one[axis] = 1;
                Chunk.copyRegion(prev, src, out, zero, one);
                next = 1;
            }
            if (outLen > 1) {
                Chunk cur = in.get(next);
                int[] dst = new int[shape.length];
                dst[axis] = 1;
                int[] ext = cur.shape();
                ext[axis] = outLen - 1;
                Chunk.copyRegion(cur, zero, out, dst, ext);
            }
            return new Chunk[] {out};
        }
    }

    private static CubedArray scan(String op, CubedArray x, int axis, boolean prod, DType rt) {
        ArrayNode in = x.node();
        ChunkGrid grid = in.grid();
        long nb = grid.chunksPerAxis(axis);
        String ind = Blockwise.letters(x.ndim());
        IndexKeyFunction same = new IndexKeyFunction(ind, new String[] {ind}, new long[][] {grid.chunksPerAxis()});
        if (nb <= 1) {
            OpNode single = OpNode.blockwise(
                    op,
                    List.of(in),
                    same,
                    new ScanChunks(axis, prod, rt, false),
                    new int[] {1},
                    2 * in.chunkBytes() + 8 * grid.chunkSize() * 2,
                    List.of(rt),
                    List.of(grid));
            return CubedArray.of(single.outputs().get(0), x.spec());
        }
        long[] totalsShape = grid.shape();
        int[] totalsChunks = grid.chunkShape();
        totalsShape[axis] = nb;
        totalsChunks[axis] = 1;
        ChunkGrid totalsGrid = ChunkGrid.of(totalsShape, totalsChunks);
        OpNode scanned = OpNode.blockwise(
                op + " scan",
                List.of(in),
                same,
                new ScanChunks(axis, prod, rt, true),
                new int[] {1},
                2 * in.chunkBytes() + 8 * grid.chunkSize() * 2,
                List.of(rt, rt),
                List.of(grid, totalsGrid),
                "scan within each chunk, and each chunk's total");
        CubedArray totals = CubedArray.of(scanned.outputs().get(1), x.spec());
        int perChunk = Math.max(2, grid.chunkShape(axis));
        int[] merged = totalsChunks.clone();
        merged[axis] = perChunk;
        CubedArray running = scan(op, Manipulation.rechunk(totals, merged), axis, prod, rt);
        ArrayNode s = scanned.outputs().get(0);
        OpNode offsets = OpNode.blockwise(
                op + " offsets",
                List.of(s, running.node()),
                new ScanOffsetKeyFunction(axis, perChunk),
                new AddOffsets(axis, perChunk, prod),
                new int[] {1, 1},
                2 * s.chunkBytes() + 8 * grid.chunkSize() * 2,
                List.of(rt),
                List.of(grid),
                "adds to each chunk the running total of the chunks before it");
        return CubedArray.of(offsets.outputs().get(0), x.spec());
    }

    /** Scans a chunk along the axis; with {@code totals}, also outputs its last slice (the chunk's total). */
    private record ScanChunks(int axis, boolean prod, DType type, boolean totals) implements ChunkFunction {
        @Override
        public Chunk[] apply(ChunkArgs args, long[] outputCoords) {
            Chunk c = Scans.scan(args.chunk(0), axis, prod, type);
            if (!totals) {
                return new Chunk[] {c};
            }
            int len = c.shape(axis);
            return new Chunk[] {c, Scans.slice(c, axis, len - 1, len)};
        }
    }

    /** Adds (multiplies) the running total of the chunks before to a scanned chunk. */
    private record AddOffsets(int axis, int perChunk, boolean prod) implements ChunkFunction {
        @Override
        public Chunk[] apply(ChunkArgs args, long[] outputCoords) {
            Chunk s = args.chunk(0);
            if (args.count(1) == 0) {
                return new Chunk[] {s};
            }
            int at = (int) ((outputCoords[axis] - 1) % perChunk);
            Chunk offset = Scans.slice(args.chunk(1), axis, at, at + 1);
            return new Chunk[] {Scans.applyOffset(s, offset, axis, prod)};
        }
    }
}
