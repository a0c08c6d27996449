package io.cubed.storage.zarr;

import io.cubed.chunk.ArrayRecycler;
import io.cubed.chunk.Chunk;
import io.cubed.dtype.Scalar;
import io.cubed.error.StorageException;
import io.cubed.grid.ChunkGrid;
import io.cubed.memory.HeapProbe;
import io.cubed.storage.ChunkIo;
import io.cubed.storage.Store;
import io.cubed.storage.zarr.codec.Codec;
import java.lang.ref.Reference;

/**
 * How a chunk becomes the stored bytes of a Zarr v2 array: checked against the grid, padded to full size at the
 * array's edge, encoded in the array's byte order and memory order, compressed (block-wise codecs straight from the
 * chunk's elements) and put atomically; a chunk all of the fill value is deleted instead when empty chunks are
 * skipped. The heap is checkpointed ({@link HeapProbe}) where a write holds the most, and its buffers handed back.
 */
final class V2ChunkWrites {
    private final String url;
    private final ZarrV2Metadata metadata;
    private final Store store;
    private final Codec codec;
    private final boolean writeEmptyChunks;

    /** Writes to the array at {@code url} in {@code store}; {@code codec} null when it is uncompressed. */
    V2ChunkWrites(String url, ZarrV2Metadata metadata, Store store, Codec codec, boolean writeEmptyChunks) {
        this.url = url;
        this.metadata = metadata;
        this.store = store;
        this.codec = codec;
        this.writeEmptyChunks = writeEmptyChunks;
    }

    /** Writes {@code chunk} at {@code chunkCoords}, or deletes what is there when it is skipped as empty. */
    void write(Chunk chunk, long[] chunkCoords) {
        ChunkGrid grid = metadata.grid();
        grid.checkCoords(chunkCoords);
        String key = metadata.chunkKey(chunkCoords);
        String where = MetadataDocuments.describe(url, key);
        EdgeChunks.checkWritten(chunk, metadata.dtype(), grid.chunkShapeAt(chunkCoords), where);
        Scalar declaredFill = metadata.fillValue();
        if (!writeEmptyChunks && declaredFill != null && chunk.isAll(declaredFill)) {
            store.delete(key);
            return;
        }
        // Edge chunks are stored at full size, the part outside the array holding the fill value.
        Chunk full = EdgeChunks.padded(chunk, grid.chunkShape(), declaredFill == null ? Scalar.zero() : declaredFill);
        boolean fortran = metadata.order() == ZarrV2Metadata.Order.F;
        // Compressed in C order straight from the chunk's elements, block by block: no array of the chunk's bytes.
        boolean inBlocks = codec != null && codec.worksInBlocks() && !fortran;
        byte[] raw =
                inBlocks ? null : ElementBytes.encode(full, metadata.dataType().order(), fortran);
        Codec.Encoded stored;
        try {
            if (codec == null) {
                stored = new Codec.Encoded(raw, raw.length);
            } else if (raw == null) {
                stored = codec.encode(ChunkBytes.view(full, metadata.dataType().order()));
            } else {
                stored = codec.encodeUntrimmed(raw);
            }
        } catch (RuntimeException e) {
            throw new StorageException("cannot encode chunk " + where + ": " + e.getMessage(), e);
        }
        // The chunk (and its full-size copy at edges), its bytes and the compressed bytes: the most a write holds.
        HeapProbe.checkpoint();
        Reference.reachabilityFence(full);
        Reference.reachabilityFence(raw);
        ChunkIo.put(store, key, stored.buffer(), stored.length());
        // Written: the bytes (and the edge chunk's full-size copy) serve the task's next chunk.
        ArrayRecycler.giveBack(stored.buffer());
        ArrayRecycler.giveBack(raw);
        if (full != chunk) {
            ArrayRecycler.giveBack(full.data());
        }
    }
}
