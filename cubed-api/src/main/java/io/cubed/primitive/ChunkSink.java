package io.cubed.primitive;

import io.cubed.chunk.Chunk;

/**
 * Where a chunk function puts the output chunks of a task: each chunk is checked and written at once, so a task
 * computing several output chunks holds one at a time.
 */
public interface ChunkSink {
    /** Number of output arrays of the operation. */
    int outputs();

    /** Writes {@code chunk} as the chunk at {@code coords} of output {@code output}; each exactly once per task. */
    void write(int output, long[] coords, Chunk chunk);
}
