package io.cubed.primitive;

import io.cubed.chunk.Chunk;
import io.cubed.error.InvalidArgumentException;
import io.cubed.grid.ChunkGrid;
import io.cubed.runtime.TaskFunction;
import io.cubed.runtime.TaskIo;
import io.cubed.storage.ChunkStore;
import java.util.Arrays;

/**
 * The task of a blockwise operation: task {@code i} computes output chunk {@code i} (C order over the output grid) —
 * reads the input chunks the key function names, applies the chunk function, and writes one chunk to each output.
 */
public final class BlockwiseTask implements TaskFunction {
    private static final long serialVersionUID = 1L;

    private final String opName;
    private final ChunkStore[] inputs;
    private final ChunkStore[] outputs;
    private final KeyFunction keyFunction;
    private final ChunkFunction function;

    public BlockwiseTask(
            String opName, ChunkStore[] inputs, ChunkStore[] outputs, KeyFunction keyFunction, ChunkFunction function) {
        if (outputs.length == 0) {
            throw new InvalidArgumentException(opName + " has no output");
        }
        for (ChunkStore o : outputs) {
            if (!Arrays.equals(o.grid().chunksPerAxis(), outputs[0].grid().chunksPerAxis())) {
                throw new InvalidArgumentException(opName + ": every output needs the same number of chunks per axis");
            }
        }
        this.opName = opName;
        this.inputs = inputs.clone();
        this.outputs = outputs.clone();
        this.keyFunction = keyFunction;
        this.function = function;
    }

    @Override
    public TaskIo run(long taskIndex) {
        ChunkGrid grid = outputs[0].grid();
        long[] coords = grid.chunkCoordsOf(taskIndex);
        ChunkArgs args = new ChunkArgs(inputs, keyFunction.inputKeys(coords));
        Chunk[] results = function.apply(args, coords);
        if (results == null || results.length != outputs.length) {
            throw new InvalidArgumentException(opName + ": the chunk function returned "
                    + (results == null ? "null" : results.length + " chunks") + " for chunk "
                    + Arrays.toString(coords) + ", expected " + outputs.length);
        }
        long written = 0;
        for (int i = 0; i < outputs.length; i++) {
            int[] expected = outputs[i].grid().chunkShapeAt(coords);
            Chunk r = results[i];
            if (r == null || r.dtype() != outputs[i].dtype() || !Arrays.equals(r.shape(), expected)) {
                throw new InvalidArgumentException(opName + ": the chunk function returned "
                        + (r == null ? "null" : "a " + r.dtype() + " chunk of shape " + Arrays.toString(r.shape()))
                        + " for chunk " + Arrays.toString(coords) + " of " + outputs[i].url() + ", expected a "
                        + outputs[i].dtype() + " chunk of shape " + Arrays.toString(expected));
            }
            outputs[i].writeChunk(r, coords);
            written += r.nbytes();
        }
        return new TaskIo(args.bytesRead(), written);
    }
}
