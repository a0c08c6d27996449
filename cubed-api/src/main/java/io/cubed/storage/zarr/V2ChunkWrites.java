package io.cubed.storage.zarr;

import io.cubed.chunk.ArrayRecycler;
import io.cubed.chunk.Chunk;
import io.cubed.dtype.Scalar;
import io.cubed.error.StorageException;
import io.cubed.grid.ChunkGrid;
import io.cubed.memory.HeapProbe;
import io.cubed.storage.ChunkIo;
import io.cubed.storage.ChunkStore;
import io.cubed.storage.Store;
import io.cubed.storage.zarr.codec.Codec;
import io.cubed.storage.zarr.codec.RawBytes;
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
        if (codec != null && codec.encodesInOrder() && !fortran) {
            // Compressed from the chunk's elements a piece at a time (into the store as it comes, where it takes
            // pieces): no array of the chunk's bytes.
            OrderedPuts.put(
                    store,
                    key,
                    where,
                    codec,
                    ChunkBytes.view(full, metadata.dataType().order()),
                    null);
            if (full != chunk) {
                ArrayRecycler.giveBack(full.data());
            }
            return;
        }
        if (codec == null && !fortran && store.putsInPieces() && !ChunkIo.servesCurrent(store)) {
            // Uncompressed (intermediates) to a local file: the elements are converted a slice at a time into a direct
            // buffer the file is written from, so no array holds the chunk's bytes and each byte crosses memory once
            // on our side (ChunkBytes.writeInSlices).
            RawBytes raw = ChunkBytes.view(full, metadata.dataType().order());
            store.put(key, out -> ChunkBytes.writeInSlices(raw, out));
            // The chunk (and its full-size copy at an edge): the most this write holds.
            HeapProbe.checkpoint();
            if (full != chunk) {
                ArrayRecycler.giveBack(full.data());
            }
            return;
        }
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

    /**
     * Whether {@link #write(ChunkStore.ChunkStream, long[])} encodes the chunk at {@code chunkCoords} as it takes the
     * stream's elements: a full-size chunk (an edge chunk is padded from the chunk held whole) of a C-order array whose
     * codec {@linkplain Codec#encodesInOrder encodes in order}.
     */
    boolean writesFromStream(long[] chunkCoords) {
        ChunkGrid grid = metadata.grid();
        grid.checkCoords(chunkCoords);
        return encodesInOrder() && java.util.Arrays.equals(grid.chunkShapeAt(chunkCoords), grid.chunkShape());
    }

    /** Whether full-size chunks are encoded in order ({@link Codec#encodesInOrder}): a C-order array of rank 1 or more. */
    boolean encodesInOrder() {
        return codec != null
                && codec.encodesInOrder()
                && metadata.order() == ZarrV2Metadata.Order.C
                && metadata.grid().ndim() > 0;
    }

    /**
     * Writes the chunk at {@code chunkCoords}, for which {@link #writesFromStream} holds, from {@code stream}: its
     * elements are encoded as they are taken ({@link StreamedRawBytes}), so the write holds a piece of them and the
     * compressed bytes, never the chunk. A chunk all of the fill value is deleted instead when empty chunks are
     * skipped, as {@link #write(Chunk, long[])} does.
     */
    void write(ChunkStore.ChunkStream stream, long[] chunkCoords) {
        String key = metadata.chunkKey(chunkCoords);
        String where = MetadataDocuments.describe(url, key);
        Scalar declaredFill = metadata.fillValue();
        StreamedRawBytes raw = new StreamedRawBytes(
                stream, metadata.dataType().order(), writeEmptyChunks ? null : declaredFill, "chunk " + where);
        if (!OrderedPuts.put(store, key, where, codec, raw, raw)) {
            store.delete(key);
        }
    }
}
