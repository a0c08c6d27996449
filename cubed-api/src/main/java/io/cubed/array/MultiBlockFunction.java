package io.cubed.array;

import io.cubed.chunk.Chunk;
import java.io.Serializable;

/**
 * A user function of {@link Blockwise#mapBlocksMulti}: gets one chunk per input and the output chunks' coordinates,
 * returns one chunk per output, in the order of the output dtypes. Serializable: it runs in tasks.
 */
@FunctionalInterface
public interface MultiBlockFunction extends Serializable {
    Chunk[] apply(Chunk[] blocks, long[] blockId);
}
