package io.cubed.storage.zarr;

import io.cubed.chunk.ArrayRecycler;
import io.cubed.chunk.Chunk;
import io.cubed.storage.ChunkIo;
import io.cubed.storage.ChunkStore;
import io.cubed.storage.Store;
import io.cubed.storage.StoreSupplier;
import java.io.Serializable;
import java.util.List;
import java.util.Optional;

/**
 * What a Zarr array of either version does the same way, as zarr-java's core array does for its v2 and v3 arrays: it
 * is stored at a URL, carries the serializable supplier of its store and opens the store once per copy of itself (a
 * task's copy on its executor), reads a chunk that is not stored as the fill value, asks the store whether a chunk
 * is there, reads chunks ahead within a bound of a stored chunk, and counts its stored chunks by listing the store.
 * What a chunk's key is and how its bytes are decoded is each version's.
 */
abstract class ZarrArrayCore implements ChunkStore, Serializable {
    private static final long serialVersionUID = 1L;

    final String url;
    final StoreSupplier supplier;
    private transient Store store;

    ZarrArrayCore(String url, StoreSupplier supplier) {
        this.url = url;
        this.supplier = supplier;
    }

    /**
     * The documents of a new array that are not in the store yet ({@link #documentsPending}), shared by the copies
     * derived from it: {@link IncompleteMark#createMarked} has it set up and marked in memory, then writes each
     * document once ({@link #writeDocuments}). Null for an opened array and for one whose documents are written.
     */
    transient Unwritten unwritten;

    /** What {@link #unwritten} holds. */
    static final class Unwritten {
        /** Zarr v2: the attributes that go to {@code .zattrs} (v3 carries them in its metadata). */
        java.util.Map<String, Object> attributes = new java.util.LinkedHashMap<>();
        /** Whether {@link #writeDocuments} has begun writing them. */
        boolean begun;
        /** Whether {@link #writeDocuments} has written them. */
        boolean written;
    }

    /** Whether this is a new array none of whose documents has been written yet. */
    final boolean nothingWritten() {
        Unwritten u = unwritten;
        return u != null && !u.begun;
    }

    /** Whether this is a new array whose documents are still to be written. */
    final boolean documentsPending() {
        Unwritten u = unwritten;
        return u != null && !u.written;
    }

    /**
     * Writes the documents of a new array whose {@linkplain #documentsPending documents are pending}, in an order
     * that never shows a reader an array without the attributes it was set up with (its incomplete mark): returns the
     * array as written. An array whose documents are written is returned as it is.
     */
    abstract ZarrArrayCore writeDocuments();

    /** The store of this array, opened on first use by this copy of it. */
    final Store store() {
        Store s = store;
        if (s == null) {
            s = supplier.open();
            store = s;
        }
        return s;
    }

    /** The store key of the stored chunk at {@code chunkCoords}. */
    abstract String chunkKey(long[] chunkCoords);

    /** True for a key of one of this array's stored chunks (not a metadata document nor a key of a node below it). */
    abstract boolean isChunkKey(String key);

    /** An upper bound, in bytes, of one stored chunk as a read started ahead asks for it. */
    abstract int storedChunkBound();

    @Override
    public final String url() {
        return url;
    }

    /**
     * What decides a chunk's stored bytes ({@link ChunkStore#chunkEncoding}): the Zarr version, the data type (with its
     * byte order in v2), the codecs (v2: the compressor), the memory order and the chunk shape.
     */
    record ChunkEncoding(int version, Object dataType, Object codecs, Object order, List<Integer> chunks)
            implements Serializable {}

    /** Puts the bytes, as they are, at the chunk's key (behind the task through its {@link ChunkIo}, where it writes). */
    @Override
    public void writeStoredChunk(long[] chunkCoords, Store.Bytes stored) {
        grid().checkCoords(chunkCoords);
        ChunkIo.put(store(), chunkKey(chunkCoords), stored.array(), stored.length());
        // Put (or copied into the request behind the task): the array serves the task's next read.
        ArrayRecycler.giveBack(stored.array());
    }

    @Override
    public final Optional<String> storedAt() {
        return Optional.of(url);
    }

    @Override
    public Chunk readChunk(long... chunkCoords) {
        Chunk stored = readChunkIfStored(chunkCoords);
        return stored != null ? stored : Chunk.full(dtype(), fillValue(), grid().chunkShapeAt(chunkCoords));
    }

    @Override
    public boolean chunkExists(long... chunkCoords) {
        grid().checkCoords(chunkCoords);
        return store().exists(chunkKey(chunkCoords));
    }

    /** Starts reading the chunk's stored bytes ahead (one GET on an object store), within {@link #storedChunkBound}. */
    @Override
    public void readAhead(long[] chunkCoords) {
        grid().checkCoords(chunkCoords);
        ChunkIo.readAhead(store(), chunkKey(chunkCoords), storedChunkBound());
    }

    @Override
    public long inFlightBytes() {
        return ReadAhead.inFlightBytes(store(), storedChunkBound());
    }

    /** Number of stored chunks (shards, when sharded) written and not left out as empty, by listing the store. */
    public long writtenChunkCount() {
        long n = 0;
        for (String key : store().list("")) {
            if (isChunkKey(key)) {
                n++;
            }
        }
        return n;
    }
}
