package io.cubed.array;

import io.cubed.chunk.Chunk;
import java.io.Serializable;

/**
 * A user function of {@link Gufunc#applyGufunc}: gets one chunk per input, each whole along its core dimensions (last
 * axes), and returns the output chunk: the broadcast loop dimensions followed by the output core dimensions.
 * Serializable: it runs in tasks.
 */
@FunctionalInterface
public interface GufuncFunction extends Serializable {
    Chunk apply(Chunk[] blocks);
}
