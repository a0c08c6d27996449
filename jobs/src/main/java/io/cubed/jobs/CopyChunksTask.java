package io.cubed.jobs;

import io.cubed.chunk.Chunk;
import io.cubed.runtime.TaskFunction;
import io.cubed.runtime.TaskIo;
import io.cubed.storage.ChunkStore;
import io.cubed.storage.zarr.blosc.BloscThreads;

/**
 * The task of {@code cubed copy}: task {@code i} copies chunk {@code i} (C order) of the source to the same chunk of
 * the target when the source has it stored, and does nothing when it has not (a chunk never written stays unwritten);
 * with {@code skipWritten}, a chunk the target already has is not copied again (resuming). It carries both arrays
 * with their metadata, so tasks read no metadata, and names its chunk to read ahead ({@link #readAhead}).
 */
final class CopyChunksTask implements TaskFunction {
    private static final long serialVersionUID = 1L;

    private final ChunkStore source;
    private final ChunkStore target;
    private final boolean skipWritten;
    private final int blockThreads;

    /**
     * @param blockThreads threads that code each chunk's Blosc blocks (more than 1 when there are fewer chunks than
     *     threads in this JVM)
     */
    CopyChunksTask(ChunkStore source, ChunkStore target, boolean skipWritten, int blockThreads) {
        this.source = source;
        this.target = target;
        this.skipWritten = skipWritten;
        this.blockThreads = Math.max(1, blockThreads);
    }

    @Override
    public void readAhead(long taskIndex) {
        if (!skipWritten) {
            source.readAhead(source.grid().chunkCoordsOf(taskIndex));
        }
    }

    @Override
    public TaskIo run(long taskIndex) {
        long[] c = source.grid().chunkCoordsOf(taskIndex);
        if (skipWritten && target.chunkExists(c)) {
            return TaskIo.NONE;
        }
        return BloscThreads.with(blockThreads, () -> {
            Chunk read = source.readChunkIfStored(c);
            if (read == null) {
                return TaskIo.NONE;
            }
            target.writeChunk(read, c);
            long bytes = Math.max(1L, read.nbytes());
            return new TaskIo(bytes, bytes);
        });
    }
}
