package io.cubed.array;

import io.cubed.chunk.Chunk;
import io.cubed.primitive.ChunkArgs;
import java.io.Serializable;

/**
 * A user function for {@link Blockwise#blockwise}: gets the input chunks of one output chunk (several per input along
 * contracted indices, in C order of those indices) and the output chunk's coordinates. Serializable.
 */
@FunctionalInterface
public interface BlockwiseFunction extends Serializable {
    Chunk apply(ChunkArgs args, long[] blockId);
}
