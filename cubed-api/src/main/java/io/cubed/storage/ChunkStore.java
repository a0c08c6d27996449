package io.cubed.storage;

import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.dtype.Scalar;
import io.cubed.grid.ChunkGrid;
import io.cubed.memory.BufferCopies;
import java.io.Serializable;

/**
 * A stored N-dimensional array read and written one chunk at a time, whatever the format. Chunk coordinates count
 * chunks along each axis; element offsets count elements. Chunks passed in and out have the actual (edge-clipped)
 * shape given by {@link ChunkGrid#chunkShapeAt}.
 */
public interface ChunkStore extends Serializable {
    /** Where the array lives, for messages and for reopening it inside a task. */
    String url();

    /**
     * The URL of the stored array this store reads and writes, or empty for arrays that are computed or generated
     * (nothing to overwrite): used to refuse writing an array over, into or around one a computation reads.
     */
    default java.util.Optional<String> storedAt() {
        return java.util.Optional.empty();
    }

    DType dtype();

    ChunkGrid grid();

    /** The value of elements whose chunk was never written. */
    Scalar fillValue();

    /** Reads the chunk at {@code chunkCoords}; a chunk never written reads as the fill value. */
    Chunk readChunk(long... chunkCoords);

    /**
     * Copies the chunk at {@code chunkCoords} into each of {@code targets} it overlaps, target {@code k} holding the
     * elements of this array that start at element {@code targetOffsets[k]} (a target may take part of the chunk, and
     * the chunk may go to several targets). The default reads the chunk and copies from it; stores that can convert
     * their stored bytes straight into the targets override it, so that no chunk is allocated for the read. A chunk
     * never written gives the fill value.
     */
    default void readChunkInto(long[] chunkCoords, Chunk[] targets, long[][] targetOffsets) {
        ChunkStores.copyOverlaps(readChunk(chunkCoords), grid().chunkOffset(chunkCoords), targets, targetOffsets);
    }

    /** Receives a chunk box by box. */
    @FunctionalInterface
    interface BoxSink {
        /**
         * The box {@code box} of the chunk, starting at element {@code offset} within it; the box's array may be
         * reused for the next box once this returns.
         */
        void accept(int[] offset, Chunk box);
    }

    /**
     * Hands the chunk at {@code chunkCoords} (its clipped shape, as {@link #readChunk} gives it) to {@code sink} as
     * boxes that cover it once, in C order, on the calling thread. Stores that decode chunks block by block override
     * it to hand over each block as soon as it is decoded, while it is in the processor's cache, without allocating
     * the chunk; the default hands over the whole chunk as one box.
     */
    default void readChunkInBoxes(long[] chunkCoords, BoxSink sink) {
        Chunk whole = readChunk(chunkCoords);
        sink.accept(new int[whole.ndim()], whole);
    }

    /**
     * The elements of the chunk at {@code chunkCoords} in C order, decoded from the front as the caller takes them (a
     * block at a time), for computing an output chunk slice by slice from several inputs in step without holding any
     * input chunk whole; or null when this store reads the chunk whole anyway (the default): {@link #readChunk} it
     * then. A chunk that is not stored may come as null too (read whole: its fill value) or as a stream of its fill
     * value. Besides the chunk's stored bytes, the stream holds at most
     * {@code budgetBytes} of decoded data, or else the decoded chunk, as reading it whole would (a stored chunk whose
     * blocks are too large for the budget is decoded whole from the bytes already read, and streamed from memory).
     */
    default ChunkStream streamChunk(long[] chunkCoords, long budgetBytes) {
        return null;
    }

    /** The elements of one chunk, in C order, taken from the front. Not shared between threads. */
    interface ChunkStream {
        /**
         * Converts the next {@code n} elements into {@code dst} (an array of the chunk's element type, as {@link
         * Chunk#data} holds them) from element {@code dstOff}.
         *
         * @throws io.cubed.error.CorruptDataException when the chunk's bytes cannot be decoded, naming it
         */
        void next(Object dst, int dstOff, int n);

        /** Bytes the stream has read from storage: the chunk's decoded size, as {@link #readChunk} counts it. */
        long nbytes();

        /** The element type of the chunk. */
        DType dtype();

        /**
         * Whether the chunk is stored; false for the stream of the fill value of a chunk that is not ({@link
         * #notStored}), which a copy leaves unwritten.
         */
        default boolean stored() {
            return true;
        }

        /** The elements of {@code chunk}, held whole, in C order. */
        static ChunkStream of(Chunk chunk) {
            return of(chunk, true);
        }

        /**
         * Checks that {@code stream} can be written as the chunk at {@code chunkCoords} of {@code target}: the same
         * dtype and {@code chunkBytes}, the bytes of the chunk as {@code target} stores it.
         */
        static void checkWritable(ChunkStream stream, ChunkStore target, long chunkBytes, long[] chunkCoords) {
            if (stream.dtype() != target.dtype() || stream.nbytes() != chunkBytes) {
                throw new io.cubed.error.InvalidArgumentException("cannot write a stream of " + stream.nbytes()
                        + " bytes of " + stream.dtype() + " as chunk " + java.util.Arrays.toString(chunkCoords)
                        + " of " + target.url() + ", a " + target.dtype() + " array whose chunk there holds "
                        + chunkBytes + " bytes");
            }
        }

        /** The fill value {@code fill} (a chunk) of a chunk that is not stored, in C order. */
        static ChunkStream notStored(Chunk fill) {
            return of(fill, false);
        }

        private static ChunkStream of(Chunk chunk, boolean stored) {
            return new ChunkStream() {
                private int taken;

                @Override
                public void next(Object dst, int dstOff, int n) {
                    if (n < 0 || n > chunk.size() - taken) {
                        throw new IllegalArgumentException("asked for " + n + " more elements of a chunk of "
                                + chunk.size() + ", which has " + (chunk.size() - taken) + " left");
                    }
                    int slots = chunk.dtype().slotsPerElement();
                    System.arraycopy(chunk.data(), taken * slots, dst, dstOff * slots, n * slots);
                    taken += n;
                }

                @Override
                public long nbytes() {
                    return chunk.nbytes();
                }

                @Override
                public DType dtype() {
                    return chunk.dtype();
                }

                @Override
                public boolean stored() {
                    return stored;
                }
            };
        }
    }

    /**
     * Starts reading the stored bytes of the chunk at {@code chunkCoords} ahead of the task that will read it, through
     * the task slot's {@link ChunkIo} (bound to this thread by the executor); the chunk's next read takes them. Stores
     * of computed or generated chunks pass it on to the chunks they read, or do nothing (the default).
     */
    default void readAhead(long[] chunkCoords) {}

    /**
     * Starts reading ahead what {@link #readRegion(long[], int[], long[][])} of the box with {@code wanted} readable
     * chunks will read; by default what reading the whole box will.
     */
    default void readRegionAhead(long[] offset, int[] shape, long[][] wanted) {
        readRegionAhead(offset, shape);
    }

    /**
     * Starts reading ahead, through the task slot's {@link ChunkIo}, what {@link #readRegion} of the box of {@code
     * shape} at {@code offset} will read: by default the stored chunks the box overlaps ({@link #readAhead}); a sharded
     * Zarr v3 array its inner chunks' byte ranges.
     */
    default void readRegionAhead(long[] offset, int[] shape) {
        ChunkStores.forEachChunkIn(grid(), offset, shape, this::readAhead);
    }

    /**
     * Bytes a task slot may usefully hold in store requests in flight on this array ({@link io.cubed.storage.ChunkIo}):
     * its store's concurrency times the bound of a stored chunk and a request's own overhead ({@link
     * Store#requestOverheadBytes}), or 0 when its requests are made on the task's own
     * thread (a store of concurrency 1) or it is not stored (the default).
     */
    default long inFlightBytes() {
        return 0;
    }

    /**
     * {@link #inFlightBytes} for a reader that reads this array in regions of {@code regionShape} ({@link
     * #readRegionAhead}): by default the same; a sharded Zarr v3 array's region reads ask for runs of inner chunks of
     * at most a region's bytes (or an inner chunk's), not whole shards.
     */
    default long regionInFlightBytes(int[] regionShape) {
        return inFlightBytes();
    }

    /**
     * The chunk at {@code chunkCoords} when it is stored, or null when it was never written (so that a copy leaves it
     * unwritten too): one read on stores that tell a missing chunk from the read itself. The default asks {@link
     * #chunkExists} first.
     */
    default Chunk readChunkIfStored(long... chunkCoords) {
        return chunkExists(chunkCoords) ? readChunk(chunkCoords) : null;
    }

    /**
     * {@link #readChunkIfStored}, for a task that hands the chunk's array back ({@link
     * io.cubed.chunk.ArrayRecycler#giveBack}) once it is done with it, before its next read: inside a recycler scope
     * the chunk may be decoded into an array an earlier chunk of the task, or an earlier task of the operation, used
     * (a copy's source chunks, dead once re-encoded; in a fresh JVM a new chunk-sized array per chunk costs its
     * zeroing and the page faults of new heap). Outside a scope, and by default, the same as {@link
     * #readChunkIfStored}.
     */
    default Chunk readChunkIfStoredToGiveBack(long... chunkCoords) {
        return readChunkIfStored(chunkCoords);
    }

    /**
     * Writes {@code chunk}, whose shape must be the clipped shape of the chunk at {@code chunkCoords}, atomically
     * replacing what was there.
     */
    void writeChunk(Chunk chunk, long... chunkCoords);

    /**
     * What decides the bytes a chunk is stored as — the Zarr version, the data type with its byte order, the memory
     * order, the codecs and the chunk shape — as a value compared with {@code equals}: two arrays of equal encodings
     * store a chunk as the same bytes, so a copy between them moves the stored bytes without decoding them ({@link
     * #readStoredChunk}, {@link #writeStoredChunk}), as zarr-python's {@code copy_store} does. Null (the default) for
     * arrays whose chunks are not stored bytes (computed, virtual, decoded on the fly).
     */
    default Object chunkEncoding() {
        return null;
    }

    /**
     * The stored bytes of the chunk at {@code chunkCoords} as they are (compressed), possibly in the first bytes of a
     * longer array recycled from chunk to chunk, or null when the chunk is not stored; one read, taking a read started
     * ahead ({@link #readAhead}). What the codecs say of the bytes without decoding them (Blosc's header, the size in a
     * zstd frame) is checked: a chunk that cannot be whole is a {@link io.cubed.error.CorruptDataException} naming it.
     * Only for arrays with a {@link #chunkEncoding}.
     */
    default Store.Bytes readStoredChunk(long[] chunkCoords) {
        throw new UnsupportedOperationException(url() + " does not store its chunks as bytes");
    }

    /**
     * Stores {@code stored}, the bytes of a chunk of an array of the same {@link #chunkEncoding} ({@link
     * #readStoredChunk}), as the chunk at {@code chunkCoords}, atomically as {@link #writeChunk} does; the array then
     * serves the task's next read.
     */
    default void writeStoredChunk(long[] chunkCoords, Store.Bytes stored) {
        throw new UnsupportedOperationException(url() + " does not store its chunks as bytes");
    }

    /**
     * Whether {@link #writeChunk(ChunkStream, long...)} encodes a full-size chunk as it takes the stream's elements,
     * without holding the chunk or its raw bytes (a Zarr v2 array whose compressor encodes in order, such as zstd);
     * false when it gathers the chunk first (the default).
     */
    default boolean writesFromStreams() {
        return false;
    }

    /**
     * Writes the chunk at {@code chunkCoords} from {@code stream}, which must give the chunk's elements in C order, all
     * of them, of this store's dtype (a stored chunk copied to an array of the same grid, say). The default gathers the
     * elements into a chunk and writes it; stores that {@linkplain #writesFromStreams write from streams} encode them as
     * they come.
     */
    default void writeChunk(ChunkStream stream, long... chunkCoords) {
        Chunk chunk = Chunk.allocate(dtype(), grid().chunkShapeAt(chunkCoords));
        ChunkStream.checkWritable(stream, this, chunk.nbytes(), chunkCoords);
        stream.next(chunk.data(), 0, chunk.size());
        writeChunk(chunk, chunkCoords);
    }

    /** True when the chunk at {@code chunkCoords} has been written (and is not implied by the fill value). */
    boolean chunkExists(long... chunkCoords);

    /**
     * Deletes the stored chunk at {@code chunkCoords}, so that it reads as the fill value, if this store can delete
     * single chunks; returns whether it can (a missing chunk counts as deleted). The default cannot.
     */
    default boolean deleteChunk(long... chunkCoords) {
        return false;
    }

    /**
     * Reads the box of {@code shape} elements starting at element {@code offset}, which may span several chunks and must
     * lie inside the array.
     */
    Chunk readRegion(long[] offset, int[] shape);

    /**
     * {@link #readRegion} for a reader that needs only the elements of the box lying in the {@linkplain
     * #readableChunkShape readable chunks} whose index along each axis {@code a} (in the grid of readable chunks from
     * the array's origin) is in {@code wanted[a]} (sorted; null: every one): the other elements of the box may hold any
     * value. A sharded Zarr v3 array reads only those inner chunks (a stepped slice, a list of indices); by default
     * the whole box is read.
     */
    default Chunk readRegion(long[] offset, int[] shape, long[][] wanted) {
        return readRegion(offset, shape);
    }

    /**
     * The extra copies of a chunk held while reading or writing one: (1, 1) on file systems, (2, 2) on object stores,
     * (0, 0) for arrays generated in memory.
     */
    BufferCopies bufferCopies();

    /**
     * The shape of the smallest boxes this array reads on their own, which a view may regroup into its chunks ({@link
     * RegroupedChunkStore}): its chunk shape, or a sharded Zarr v3 array's inner chunk shape (read with ranged reads,
     * never the whole shard).
     */
    default int[] readableChunkShape() {
        return grid().chunkShape();
    }

    /**
     * The extra copies, in boxes of {@code regionShape} (a multiple of {@link #readableChunkShape} or the rest of an
     * axis), that {@link #readRegion} of such a box holds besides the box; {@link #bufferCopies()}'s read copies by
     * default.
     */
    default int regionReadCopies(int[] regionShape) {
        return bufferCopies().read();
    }

    /**
     * Bytes of data this array carries inside the task functions that read it ({@code asarray}'s data), which every
     * JVM running such a task holds whole while it runs; 0 for arrays whose chunks are read or generated from a few
     * numbers (the default). Plans count it in the projected memory of the operations that read the array.
     */
    default long carriedBytes() {
        return 0;
    }

    /** True for arrays generated inside the tasks that read them (never stored). */
    default boolean isVirtual() {
        return false;
    }
}
