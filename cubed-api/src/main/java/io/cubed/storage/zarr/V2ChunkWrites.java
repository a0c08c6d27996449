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
        if (inPieces() && !fortran) {
            // Compressed from the chunk's elements straight into the store as the compressed bytes are made.
            putInPieces(key, where, ChunkBytes.view(full, metadata.dataType().order()), null);
            if (full != chunk) {
                ArrayRecycler.giveBack(full.data());
            }
            return;
        }
        // Compressed in C order straight from the chunk's elements, block by block or in order: no array of the
        // chunk's bytes.
        boolean inBlocks = codec != null && (codec.worksInBlocks() || codec.encodesInOrder()) && !fortran;
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
     * Whether chunks are compressed straight into the store as the compressed bytes are made: a codec that encodes in
     * order (zstd) and a store that writes a value's pieces as they come (a local file).
     */
    private boolean inPieces() {
        return codec != null && codec.encodesInOrder() && store.putsInPieces();
    }

    /**
     * Compresses {@code raw} into the store at {@code key} as the compressed bytes are made ({@link #inPieces}): the
     * write holds a piece of the raw and of the compressed bytes, never the chunk's. A failure leaves no chunk written;
     * {@code streamed}, when the raw bytes come from a stream, is checked to have been taken whole.
     */
    private void putInPieces(String key, String where, RawBytes raw, StreamedRawBytes streamed) {
        store.put(key, out -> {
            try {
                codec.encode(raw, out);
            } catch (io.cubed.error.CorruptDataException e) {
                // A stream's own chunk (a copy's source) is corrupt: its message names it.
                throw e;
            } catch (RuntimeException e) {
                throw new StorageException("cannot encode chunk " + where + ": " + e.getMessage(), e);
            }
            if (streamed != null) {
                streamed.allFill();
            }
            // A piece of the raw bytes and of the compressed ones: the most this write holds.
            HeapProbe.checkpoint();
        });
    }

    /**
     * Whether {@link #write(ChunkStore.ChunkStream, long[])} encodes the chunk at {@code chunkCoords} as it takes the
     * stream's elements: a full-size chunk (an edge chunk is padded from the chunk held whole) of a C-order array whose
     * codec {@linkplain Codec#encodesInOrder encodes in order}.
     */
    boolean writesFromStream(long[] chunkCoords) {
        ChunkGrid grid = metadata.grid();
        grid.checkCoords(chunkCoords);
        return codec != null
                && codec.encodesInOrder()
                && metadata.order() == ZarrV2Metadata.Order.C
                && grid.ndim() > 0
                && java.util.Arrays.equals(grid.chunkShapeAt(chunkCoords), grid.chunkShape());
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
        if (inPieces() && (writeEmptyChunks || declaredFill == null)) {
            StreamedRawBytes raw =
                    new StreamedRawBytes(stream, metadata.dataType().order(), null, "chunk " + where);
            putInPieces(key, where, raw, raw);
            return;
        }
        StreamedRawBytes raw = new StreamedRawBytes(
                stream, metadata.dataType().order(), writeEmptyChunks ? null : declaredFill, "chunk " + where);
        Codec.Encoded stored;
        try {
            stored = codec.encode(raw);
        } catch (io.cubed.error.CorruptDataException e) {
            // The stream's own chunk (a copy's source) is corrupt: its message names it.
            throw e;
        } catch (RuntimeException e) {
            throw new StorageException("cannot encode chunk " + where + ": " + e.getMessage(), e);
        }
        if (raw.allFill()) {
            ArrayRecycler.giveBack(stored.buffer());
            store.delete(key);
            return;
        }
        // A piece of the elements and the compressed bytes (besides the stream's own): the most this write holds.
        HeapProbe.checkpoint();
        ChunkIo.put(store, key, stored.buffer(), stored.length());
        ArrayRecycler.giveBack(stored.buffer());
    }
}
