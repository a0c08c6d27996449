package io.cubed.array;

import io.cubed.chunk.Chunk;
import io.cubed.chunk.ReduceFunction;
import io.cubed.chunk.Scans;
import io.cubed.dtype.DType;
import io.cubed.error.InvalidArgumentException;
import io.cubed.grid.ChunkGrid;
import io.cubed.plan.ArrayNode;
import io.cubed.plan.OpNode;
import io.cubed.primitive.ChunkArgs;
import io.cubed.primitive.ChunkFunction;
import io.cubed.primitive.IndexKeyFunction;
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
        return scan(op, x, axis, prod, rt);
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
