package io.cubed.plan;

import io.cubed.dtype.DType;
import io.cubed.grid.ChunkGrid;
import io.cubed.storage.ChunkStore;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An array of the plan: its name ({@code array-007}), dtype and chunk grid, and where its chunks come from — a
 * source (a stored or virtual {@link ChunkStore}) or output {@code outputIndex} of an {@link OpNode}. Immutable.
 */
public final class ArrayNode {
    private static final AtomicLong COUNTER = new AtomicLong();

    private final String name;
    private final DType dtype;
    private final ChunkGrid grid;
    private final ChunkStore source;
    private final OpNode op;
    private final int outputIndex;

    private ArrayNode(DType dtype, ChunkGrid grid, ChunkStore source, OpNode op, int outputIndex) {
        this.name = String.format("array-%03d", COUNTER.incrementAndGet());
        this.dtype = Objects.requireNonNull(dtype, "dtype");
        this.grid = Objects.requireNonNull(grid, "grid");
        this.source = source;
        this.op = op;
        this.outputIndex = outputIndex;
    }

    /** An array read from {@code source} (stored, virtual, or a view). */
    public static ArrayNode source(ChunkStore source) {
        return new ArrayNode(source.dtype(), source.grid(), source, null, -1);
    }

    static ArrayNode output(OpNode op, int index, DType dtype, ChunkGrid grid) {
        return new ArrayNode(dtype, grid, null, op, index);
    }

    public String name() {
        return name;
    }

    public DType dtype() {
        return dtype;
    }

    public ChunkGrid grid() {
        return grid;
    }

    /** The store this array is read from, or {@code null} when an operation computes it. */
    public ChunkStore source() {
        return source;
    }

    /** The operation computing this array, or {@code null} for a source. */
    public OpNode op() {
        return op;
    }

    public int outputIndex() {
        return outputIndex;
    }

    /** Size of one full chunk in bytes. */
    public long chunkBytes() {
        return grid.chunkSize() * dtype.itemSizeBytes();
    }

    /** Size of the whole array in bytes. */
    public long nbytes() {
        return grid.size() * dtype.itemSizeBytes();
    }

    @Override
    public String toString() {
        return name + " " + dtype + " " + grid;
    }
}
