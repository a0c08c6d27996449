package io.cubed.primitive;

import io.cubed.chunk.Chunk;
import io.cubed.error.InvalidArgumentException;
import java.io.Serializable;

/**
 * The chunk function of a blockwise operation: computes the output chunks (one per output array) for output chunk
 * {@code outputCoords} from the input chunks its {@link KeyFunction} named. Serializable; tasks run it. A function
 * whose tasks compute several output chunks each (a {@link TaskRegion}) overrides {@link #applyRegion}.
 */
@FunctionalInterface
public interface ChunkFunction extends Serializable {
    /** The output chunks, in the order of the operation's outputs, each of the output grid's shape at the coords. */
    Chunk[] apply(ChunkArgs args, long[] outputCoords);

    /**
     * Whether every task takes the chunks of input {@code input} box by box ({@link ChunkArgs#readInBoxes}), never
     * holding one whole: a fused elementwise chain feeding that input then hands over its tiles and never assembles
     * its output chunk, which the plan counts ({@code io.cubed.plan.Fusion}). False unless a function says so.
     */
    default boolean readsInBoxes(int input) {
        return false;
    }

    /**
     * Whether a task may have input {@code input}'s chunks read ahead whole before it runs. False for a function that
     * reads only boxes of them, chosen from the values of another input ({@code take_along_axis}: the boxes of {@code
     * x} holding the elements its chunk of indices names), which cannot be known ahead: of an array that reads boxes
     * ({@link ChunkArgs#box}) its whole chunks would be read for nothing. True unless a function says so.
     */
    default boolean readsAheadWhole(int input) {
        return true;
    }

    /**
     * Whether every task reads the chunks of input {@code input} straight into chunks it holds anyway ({@link
     * ChunkArgs#readInto}, targets that do not overlap one another), never as chunks of their own: a stored input whose
     * reads into other chunks decode no chunk ({@link io.cubed.memory.BufferCopies#readsInto}) then costs only its read
     * copies per chunk, which the plan counts ({@code io.cubed.plan.Plan#projectedMemBytes}). False unless a function
     * says so.
     */
    default boolean readsInputInto(int input) {
        return false;
    }

    /**
     * How many chunks of input {@code input} the operation's extra memory counts beside the ones it holds (a reduction
     * round counts one more, read before and perhaps not yet freed). Where such chunks are never made, as when a
     * fused chain hands them over tile by tile ({@link #readsInBoxes}), the plan counts the chain's leaves instead.
     */
    default int inputChunksInExtra(int input) {
        return 0;
    }

    /**
     * Computes every output chunk of {@code region} and hands each to {@code sink} as soon as it is complete. The
     * default computes a single chunk with {@link #apply} and refuses larger regions.
     */
    default void applyRegion(ChunkArgs args, TaskRegion region, ChunkSink sink) {
        if (!region.isSingleChunk()) {
            throw new InvalidArgumentException(getClass().getName() + " computes one output chunk per task, but the "
                    + "task covers " + region.numChunks());
        }
        long[] coords = region.first();
        Chunk[] results = apply(args, coords);
        if (results == null || results.length != sink.outputs()) {
            throw new InvalidArgumentException("the chunk function returned "
                    + (results == null ? "null" : results.length + " chunks") + " for chunk "
                    + java.util.Arrays.toString(coords) + ", expected " + sink.outputs());
        }
        for (int i = 0; i < results.length; i++) {
            sink.write(i, coords, results[i]);
        }
    }
}
