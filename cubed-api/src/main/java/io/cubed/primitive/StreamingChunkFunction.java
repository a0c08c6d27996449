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

        /**
         * Whether it takes the input chunks box by box ({@link #acceptBox}), in which case a reader may hand over each
         * decoded block while it is in cache instead of the whole chunk.
         */
        default boolean acceptsBoxes() {
            return false;
        }

        /**
         * Takes the box {@code box} of the input chunk at {@code inputKey} (whose shape is {@code chunkShape}),
         * starting at element {@code boxOffset} within it; the boxes of a chunk cover it once, and its array may be
         * reused once this returns. Only when {@link #acceptsBoxes}; the default fails.
         */
        default void acceptBox(long[] inputKey, int[] chunkShape, int[] boxOffset, Chunk box) {
            throw new UnsupportedOperationException("this fold takes whole chunks");
        }

        /** The output chunks, in the order of the operation's outputs, after every listed input chunk was accepted. */
        Chunk[] finish();
    }
}
