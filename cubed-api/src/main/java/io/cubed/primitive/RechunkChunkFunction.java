package io.cubed.primitive;

import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.grid.ChunkGrid;
import io.cubed.storage.ChunkStores;

/**
 * The chunk function of a rechunk copy stage. A task covers a region of whole output chunks that also holds whole
 * input chunks (see {@link RechunkStage}), and reads the input chunks one at a time. With one output chunk it reads
 * each input chunk straight into it; with one input chunk it cuts every output chunk from it; otherwise it allocates
 * the region's output chunks, reads each input chunk into those it overlaps, and writes them one at a time. "Reads
 * into" is {@link ChunkArgs#readInto}: a Zarr chunk's bytes are converted straight into the output chunks, so each
 * element is written once, with no decoded input chunk in between. Serializable.
 */
public final class RechunkChunkFunction implements ChunkFunction {
    private static final long serialVersionUID = 1L;

    private final DType dtype;
    private final ChunkGrid input;
    private final ChunkGrid output;
    private final boolean readsInputsInto;

    /**
     * Copies {@code dtype} elements from chunks of {@code input} into chunks of {@code output} (same shape); {@code
     * readsInputsInto} is {@link RechunkStage#readsInputsInto} of the stage, what the plan counts of its input chunks
     * ({@link #readsInputInto}).
     */
    public RechunkChunkFunction(DType dtype, ChunkGrid input, ChunkGrid output, boolean readsInputsInto) {
        this.dtype = dtype;
        this.input = input;
        this.output = output;
        this.readsInputsInto = readsInputsInto;
    }

    /**
     * True where the stage's tasks read several input chunks or write one output chunk: every such task reads its
     * input chunks straight into its output chunks (a task at the array's edge left with one input chunk and several
     * output chunks cuts them from it, within the region buffer's bytes, which hold at least two input chunks).
     */
    @Override
    public boolean readsInputInto(int in) {
        return readsInputsInto;
    }

    @Override
    public Chunk[] apply(ChunkArgs args, long[] outputCoords) {
        long[] outOffset = output.chunkOffset(outputCoords);
        // The task's input chunks are every chunk overlapping the output chunk (a missing one reads as its fill
        // value): together they write every element.
        Chunk out = Chunk.allocateForTaskToOverwrite(dtype, output.chunkShapeAt(outputCoords));
        Chunk[] targets = {out};
        long[][] offsets = {outOffset};
        for (int k = 0; k < args.count(0); k++) {
            args.readInto(0, k, targets, offsets);
        }
        return targets;
    }

    @Override
    public void applyRegion(ChunkArgs args, TaskRegion region, ChunkSink sink) {
        if (region.isSingleChunk()) {
            sink.write(0, region.first(), apply(args, region.first())[0]);
            return;
        }
        int n = Math.toIntExact(region.numChunks());
        if (args.count(0) == 1) {
            // One input chunk holds the whole region: cut every output chunk from it.
            Chunk source = args.chunk(0);
            long[] sourceOffset = input.chunkOffset(args.key(0, 0));
            for (long k = 0; k < n; k++) {
                long[] coords = region.chunk(k);
                Chunk out = Chunk.allocate(dtype, output.chunkShapeAt(coords));
                ChunkStores.copyOverlap(source, sourceOffset, out, output.chunkOffset(coords));
                sink.write(0, coords, out);
            }
            return;
        }
        // Several input chunks: the region's output chunks are allocated together (as much memory as one region
        // buffer, which is what the plan projects) and every input chunk, read one at a time, goes straight into the
        // output chunks it overlaps. Each element is written once, not into a region buffer and out again.
        long[][] coords = new long[n][];
        long[][] offsets = new long[n][];
        Chunk[] outs = new Chunk[n];
        for (int k = 0; k < n; k++) {
            coords[k] = region.chunk(k);
            offsets[k] = output.chunkOffset(coords[k]);
            // Overwritten whole: the input chunks read below cover the region (see apply).
            outs[k] = Chunk.allocateForTaskToOverwrite(dtype, output.chunkShapeAt(coords[k]));
        }
        for (int i = 0; i < args.count(0); i++) {
            args.readInto(0, i, outs, offsets);
        }
        for (int k = 0; k < n; k++) {
            Chunk out = outs[k];
            outs[k] = null; // written chunks are released one by one
            sink.write(0, coords[k], out);
        }
    }

    /** Element offset of the first chunk of {@code region} in {@code grid}. */
    static long[] regionOffset(ChunkGrid grid, TaskRegion region) {
        return grid.chunkOffset(region.first());
    }

    /** Shape in elements of {@code region} in {@code grid}, clipped at the grid's edge. */
    static int[] regionShape(ChunkGrid grid, TaskRegion region) {
        long[] lo = grid.chunkOffset(region.first());
        int[] counts = region.counts();
        long[] lastCoords = region.first();
        for (int i = 0; i < lastCoords.length; i++) {
            lastCoords[i] += counts[i] - 1;
        }
        long[] lastOffset = grid.chunkOffset(lastCoords);
        int[] lastShape = grid.chunkShapeAt(lastCoords);
        int[] shape = new int[lo.length];
        for (int i = 0; i < shape.length; i++) {
            shape[i] = Math.toIntExact(lastOffset[i] + lastShape[i] - lo[i]);
        }
        return shape;
    }
}
