package io.cubed.array;

import io.cubed.chunk.Chunk;
import java.io.Serializable;

/**
 * A user function applied to corresponding chunks of arrays by {@link Blockwise#mapBlocks}: gets one chunk per input
 * and the output chunk's coordinates (its block id), returns the output chunk. Serializable: it runs in tasks.
 */
@FunctionalInterface
public interface BlockFunction extends Serializable {
    Chunk apply(Chunk[] blocks, long[] blockId);
}
