package io.cubed.primitive;

import io.cubed.chunk.Chunk;
import java.io.Serializable;

/**
 * The chunk function of a blockwise operation: computes the output chunks (one per output array) for output chunk
 * {@code outputCoords} from the input chunks its {@link KeyFunction} named. Serializable; tasks run it.
 */
@FunctionalInterface
public interface ChunkFunction extends Serializable {
    /** The output chunks, in the order of the operation's outputs, each of the output grid's shape at the coords. */
    Chunk[] apply(ChunkArgs args, long[] outputCoords);
}
