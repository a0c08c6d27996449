package io.cubed.jobs;

import io.cubed.chunk.ArrayRecycler;
import io.cubed.chunk.Chunk;
import io.cubed.runtime.TaskFunction;
import io.cubed.runtime.TaskIo;
import io.cubed.storage.ChunkStore;
import io.cubed.storage.Store;
import io.cubed.storage.zarr.blosc.BloscThreads;

/**
 * The task of {@code cubed copy}: task {@code i} copies chunk {@code i} (C order) of the source to the same chunk of
 * the target when the source has it stored, and does nothing when it has not (a chunk never written stays unwritten);
 * with {@code skipWritten}, a chunk the target already has is not copied again (resuming). It carries both arrays
 * with their metadata, so tasks read no metadata, and names its chunk to read ahead ({@link #readAhead}). When both
 * arrays store chunks alike ({@link ChunkStore#chunkEncoding}: a copy that keeps the codecs, to or from an object
 * store, say) the stored bytes are moved as they are, checked only as far as their codec's header tells. When the
 * source streams a chunk's elements and the target encodes them as they come ({@link ChunkStore#writesFromStreams}),
 * the chunk is never held whole.
 */
final class CopyChunksTask implements TaskFunction {
    private static final long serialVersionUID = 1L;

    private final ChunkStore source;
    private final ChunkStore target;
    private final boolean skipWritten;
    private final int blockThreads;
    private final long recycleBytes;
    /** Whether both arrays store a chunk as the same bytes ({@link ChunkStore#chunkEncoding}): they are moved as such. */
    private final boolean storedBytes;

    /**
     * @param storedBytes both arrays store chunks alike ({@link ChunkStore#chunkEncoding}): the stored bytes are moved
     * @param blockThreads threads that code each chunk's Blosc blocks (more than 1 when there are fewer chunks than
     *     threads in this JVM)
     * @param recycleBytes what a task may keep of its arrays for the next one (its projected memory without the
     *     reserve)
     */
    CopyChunksTask(
            ChunkStore source,
            ChunkStore target,
            boolean skipWritten,
            boolean storedBytes,
            int blockThreads,
            long recycleBytes) {
        this.source = source;
        this.target = target;
        this.storedBytes = storedBytes;
        this.skipWritten = skipWritten;
        this.blockThreads = Math.max(1, blockThreads);
        this.recycleBytes = Math.max(0, recycleBytes);
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
        // The chunk, its stored bytes and its encoded bytes serve the next task of the copy instead of being new
        // arrays each time (ArrayRecycler): a chunk's worth of fresh memory per array is what a cold JVM pays most for.
        try (ArrayRecycler.Scope scope = ArrayRecycler.open("copy " + target.url(), recycleBytes)) {
            if (storedBytes) {
                // The same encoding on both sides: the stored bytes move as they are, nothing decoded or encoded.
                Store.Bytes stored = source.readStoredChunk(c);
                if (stored == null) {
                    return TaskIo.NONE;
                }
                target.writeStoredChunk(c, stored);
                long bytes = Math.max(
                        1L,
                        (long) source.dtype().itemSizeBytes()
                                * Chunk.elementCount(source.grid().chunkShapeAt(c)));
                return new TaskIo(bytes, bytes);
            }
            if (blockThreads == 1 && target.writesFromStreams()) {
                // Decoded block by block as the target encodes in order (Blosc to zstd, say): the task holds the
                // stored bytes, a block and the encoded bytes, not the chunk nor its raw bytes.
                ChunkStore.ChunkStream stream = source.streamChunk(c, recycleBytes);
                if (stream != null) {
                    if (!stream.stored()) {
                        return TaskIo.NONE;
                    }
                    target.writeChunk(stream, c);
                    long bytes = Math.max(1L, stream.nbytes());
                    return new TaskIo(bytes, bytes);
                }
            }
            return BloscThreads.with(blockThreads, () -> {
                Chunk read = source.readChunkIfStoredToGiveBack(c);
                if (read == null) {
                    return TaskIo.NONE;
                }
                target.writeChunk(read, c);
                long bytes = Math.max(1L, read.nbytes());
                ArrayRecycler.giveBack(read.data());
                return new TaskIo(bytes, bytes);
            });
        }
    }
}
