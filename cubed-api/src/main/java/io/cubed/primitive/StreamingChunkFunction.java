package io.cubed.primitive;

import io.cubed.chunk.Chunk;

/**
 * A chunk function whose tasks can take their input chunks pushed to them: a {@link Fold} per output chunk accepts the
 * chunks of the single input in the order the key function lists them, one at a time and without changing them, and
 * then gives the output chunks. A task that feeds the same chunks to several such functions reads each chunk once for
 * all of them ({@link SharedReadFunction}).
 */
public interface StreamingChunkFunction extends ChunkFunction {
    /** Whether this instance can run as a {@link Fold}: it reads one input, chunk by chunk, and never changes a chunk. */
    boolean streamsOneInput();

    /** A fold computing the output chunks at {@code outputCoords}; only when {@link #streamsOneInput()}. */
    Fold start(long[] outputCoords);

    /** The running state of one output chunk of a {@link StreamingChunkFunction}. */
    interface Fold {
        /** Takes the input chunk at chunk coordinates {@code inputKey}, the next one the key function lists. */
        void accept(long[] inputKey, Chunk chunk);

        /** The output chunks, in the order of the operation's outputs, after every listed input chunk was accepted. */
        Chunk[] finish();
    }
}
