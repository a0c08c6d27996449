package io.cubed.primitive;

import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.dtype.Scalar;
import io.cubed.error.InvalidArgumentException;
import io.cubed.grid.ChunkGrid;
import io.cubed.memory.BufferCopies;
import io.cubed.storage.ChunkStore;
import io.cubed.storage.ChunkStores;
import java.util.Arrays;

/**
 * The output of a fused blockwise operation: never stored, each chunk computed when a task reads it, by evaluating the
 * operation's key function and chunk function on its own inputs (stored arrays, virtual arrays, or further computed
 * ones). This is how a fused chain runs inside the task of its last operation. Read-only and serializable.
 */
public final class ComputedChunkStore implements ChunkStore {
    private static final long serialVersionUID = 1L;

    private final String name;
    private final ChunkStore[] inputs;
    private final KeyFunction keyFunction;
    private final ChunkFunction function;
    private final int outputIndex;
    private final DType dtype;
    private final ChunkGrid grid;

    /**
     * Output {@code outputIndex} (of type {@code dtype} on {@code grid}) of the operation named {@code name} with
     * these inputs and functions.
     */
    public ComputedChunkStore(
            String name,
            ChunkStore[] inputs,
            KeyFunction keyFunction,
            ChunkFunction function,
            int outputIndex,
            DType dtype,
            ChunkGrid grid) {
        this.name = name;
        this.inputs = inputs.clone();
        this.keyFunction = keyFunction;
        this.function = function;
        this.outputIndex = outputIndex;
        this.dtype = dtype;
        this.grid = grid;
    }

    String name() {
        return name;
    }

    /** The stores this operation reads (not copied: callers only read them). */
    ChunkStore[] inputs() {
        return inputs;
    }

    KeyFunction keyFunction() {
        return keyFunction;
    }

    ChunkFunction function() {
        return function;
    }

    int outputIndex() {
        return outputIndex;
    }

    @Override
    public String url() {
        return "fused:" + name;
    }

    @Override
    public DType dtype() {
        return dtype;
    }

    @Override
    public ChunkGrid grid() {
        return grid;
    }

    @Override
    public Scalar fillValue() {
        return Scalar.zero();
    }

    @Override
    public Chunk readChunk(long... chunkCoords) {
        return readChunk(chunkCoords, new long[1]);
    }

    /** The most any of its inputs may hold in requests in flight. */
    @Override
    public long inFlightBytes() {
        long most = 0;
        for (ChunkStore in : inputs) {
            most = Math.max(most, in.inFlightBytes());
        }
        return most;
    }

    /** Starts reading ahead the input chunks that computing the chunk at {@code chunkCoords} reads. */
    @Override
    public void readAhead(long[] chunkCoords) {
        grid.checkCoords(chunkCoords);
        BlockwiseTask.readAhead(inputs, keyFunction, function, TaskRegion.ofChunk(chunkCoords));
    }

    /** Computes the chunk at {@code chunkCoords}, adding the bytes its inputs' chunks took to {@code bytesRead[0]}. */
    Chunk readChunk(long[] chunkCoords, long[] bytesRead) {
        grid.checkCoords(chunkCoords);
        ChunkArgs args = new ChunkArgs(inputs, keyFunction.inputKeys(chunkCoords));
        Chunk[] results = function.apply(args, chunkCoords);
        bytesRead[0] += args.bytesRead();
        Chunk r = results == null || results.length <= outputIndex ? null : results[outputIndex];
        int[] expected = grid.chunkShapeAt(chunkCoords);
        if (r == null || r.dtype() != dtype || !Arrays.equals(r.shape(), expected)) {
            throw new InvalidArgumentException(name + " (fused) returned "
                    + (r == null ? "no chunk" : r.dtype() + " " + Arrays.toString(r.shape())) + " for chunk "
                    + Arrays.toString(chunkCoords) + ", expected a " + dtype + " chunk of shape "
                    + Arrays.toString(expected));
        }
        return r;
    }

    @Override
    public void readChunkInBoxes(long[] chunkCoords, BoxSink sink) {
        readChunkInBoxes(chunkCoords, new long[1], sink);
    }

    /**
     * Hands the chunk at {@code chunkCoords} to {@code sink} box by box, adding the bytes its inputs' chunks took to
     * {@code bytesRead[0]}: an elementwise operation (with the elementwise operations fused into it) tile by tile, as it
     * computes them, so that the chunk is never held whole ({@link ElementwiseTiles#applyInBoxes}); any other
     * operation, or a chunk not computed in tiles, whole.
     */
    void readChunkInBoxes(long[] chunkCoords, long[] bytesRead, BoxSink sink) {
        grid.checkCoords(chunkCoords);
        if (function instanceof ElementwiseChunkFunction f && outputIndex == 0) {
            ChunkArgs args = new ChunkArgs(inputs, keyFunction.inputKeys(chunkCoords));
            if (ElementwiseTiles.applyInBoxes(f, args, grid.chunkShapeAt(chunkCoords), name, dtype, sink)) {
                bytesRead[0] += args.bytesRead();
                return;
            }
        }
        Chunk whole = readChunk(chunkCoords, bytesRead);
        sink.accept(new int[whole.ndim()], whole);
    }

    @Override
    public void writeChunk(Chunk chunk, long... chunkCoords) {
        throw new UnsupportedOperationException(url() + " is computed inside tasks and cannot be written");
    }

    @Override
    public boolean chunkExists(long... chunkCoords) {
        return true;
    }

    @Override
    public Chunk readRegion(long[] offset, int[] shape) {
        return ChunkStores.readRegion(this, offset, shape);
    }

    @Override
    public BufferCopies bufferCopies() {
        return new BufferCopies(0, 0);
    }

    @Override
    public boolean isVirtual() {
        return true;
    }
}
