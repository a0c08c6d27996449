package io.cubed.array;

import io.cubed.chunk.Chunk;
import io.cubed.primitive.ChunkArgs;
import java.io.Serializable;

/**
 * A user function of {@link Direct#mapDirect}: computes the output chunk at {@code blockId} (elements from
 * {@code offset}, of {@code shape}) reading any regions of the side inputs through {@code inputs.region(j, offset,
 * shape)}. Serializable: it runs in tasks.
 */
@FunctionalInterface
public interface DirectFunction extends Serializable {
    Chunk apply(ChunkArgs inputs, long[] blockId, long[] offset, int[] shape);
}
