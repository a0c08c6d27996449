package io.cubed.primitive;

import io.cubed.grid.ChunkGrid;

/**
 * The key function of a rechunk copy stage: for an output chunk or a task's region of output chunks, the input chunks
 * its element box overlaps, in C order. Serializable.
 */
public final class RechunkKeyFunction implements KeyFunction {
    private static final long serialVersionUID = 1L;

    private final ChunkGrid input;
    private final ChunkGrid output;

    /** Lists chunks of {@code input} for chunks of {@code output}; both grids must have the same shape. */
    public RechunkKeyFunction(ChunkGrid input, ChunkGrid output) {
        this.input = input;
        this.output = output;
    }

    @Override
    public long[][][] inputKeys(long[] outputCoords) {
        return inputKeys(TaskRegion.ofChunk(outputCoords));
    }

    @Override
    public long[][][] inputKeys(TaskRegion region) {
        TaskKeys box = taskKeys(region);
        long[][] keys = new long[box.count(0)][];
        for (int k = 0; k < keys.length; k++) {
            keys[k] = box.keyAt(0, k);
        }
        return new long[][][] {keys};
    }

    /**
     * The input chunks of a task as a box ({@link TaskKeys#box}): from the chunk holding the region's first element to
     * the chunk holding its last, per axis. A task holds them in {@link TaskKeys#boxBytes} bytes, whatever its fan-in.
     */
    @Override
    public TaskKeys taskKeys(TaskRegion region) {
        long[] lo = RechunkChunkFunction.regionOffset(output, region);
        int[] extent = RechunkChunkFunction.regionShape(output, region);
        int nd = lo.length;
        long[] first = new long[nd];
        long[] last = new long[nd];
        for (int i = 0; i < nd; i++) {
            first[i] = lo[i] / input.chunkShape(i);
            last[i] = (lo[i] + extent[i] - 1) / input.chunkShape(i);
        }
        return TaskKeys.box(first, last);
    }
}
