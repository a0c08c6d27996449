package io.cubed.storage.zarr;

import io.cubed.chunk.ArrayRecycler;
import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.dtype.Scalar;
import io.cubed.error.CorruptDataException;
import io.cubed.error.InvalidArgumentException;
import io.cubed.error.StorageException;
import io.cubed.grid.ChunkGrid;
import io.cubed.memory.HeapProbe;
import io.cubed.storage.ChunkIo;
import io.cubed.storage.ChunkStore;
import io.cubed.storage.ChunkStores;
import io.cubed.storage.Store;
import io.cubed.storage.zarr.codec.Codec;
import io.cubed.storage.zarr.codec.RawBytesSink;
import java.util.Arrays;

/**
 * How a stored chunk of a Zarr v2 array becomes elements: its bytes read (from a read started ahead, in a recycled
 * array, or found missing), decompressed and checked, then decoded whole, block by block into the chunk, into boxes
 * ({@link ChunkBoxes}), as a stream ({@link BlockStream}) or straight into the caller's chunks. The heap is
 * checkpointed ({@link HeapProbe}) where a read holds the most, and the bytes read are handed back for reuse.
 */
final class V2ChunkReads {
    private final String url;
    private final ZarrV2Metadata metadata;
    private final Store store;
    private final Codec codec;
    private final boolean everyChunkStored;

    /** Reads of the array at {@code url} in {@code store}; {@code codec} null when it is uncompressed. */
    V2ChunkReads(String url, ZarrV2Metadata metadata, Store store, Codec codec, boolean everyChunkStored) {
        this.url = url;
        this.metadata = metadata;
        this.store = store;
        this.codec = codec;
        this.everyChunkStored = everyChunkStored;
    }

    private DType dtype() {
        return metadata.dtype();
    }

    /** The fill value; zero of the dtype when the array has none ({@code fill_value: null}). */
    private Scalar fillValue() {
        Scalar f = metadata.fillValue();
        return f == null ? Scalar.zero() : f;
    }

    /** The chunk or null; {@code recycled}: its array may come from {@link ArrayRecycler} (see the interface). */
    Chunk readIfStored(long[] chunkCoords, boolean recycled) {
        ChunkGrid grid = metadata.grid();
        grid.checkCoords(chunkCoords);
        String key = metadata.chunkKey(chunkCoords);
        int[] shape = grid.chunkShapeAt(chunkCoords);
        if (readsInSlices()) {
            // Every element of the full-size chunk is read into it, so a recycled array needs no clearing.
            int[] full = metadata.chunks();
            int[] zeros = new int[full.length];
            Chunk[] chunk = new Chunk[1];
            boolean found = readSliced(
                    key,
                    () -> {
                        chunk[0] = recycled
                                ? Chunk.allocateForTaskToOverwrite(dtype(), full)
                                : Chunk.allocate(dtype(), full);
                        return chunk;
                    },
                    new int[][][] {{zeros, zeros, full}});
            return found ? EdgeChunks.clipped(chunk[0], shape) : null;
        }
        Store.Bytes stored = readStored(key);
        if (stored == null) {
            return null;
        }
        return EdgeChunks.clipped(decodeChunk(stored, key, recycled), shape);
    }

    /**
     * A stored chunk's bytes, in an array recycled from chunk to chunk and task to task ({@link Store#getTransient}).
     * Uncompressed, they always have the same length. Compressed, their length varies from chunk to chunk: a codec
     * that reads its input from the front of a longer array (Blosc) gets them in an array of up to a chunk's raw size
     * (the one copy of the chunk the memory model counts for them), which the next chunks fit in; other codecs get an
     * array of their exact length, new each time.
     */
    private Store.Bytes readStored(String key) {
        Store.Bytes stored = readStoredOrNull(key);
        if (stored == null && everyChunkStored) {
            throw missing(key);
        }
        return stored;
    }

    private StorageException missing(String key) {
        return new StorageException("chunk " + describe(key) + " is missing, but every chunk of this array was"
                + " written before it was read: it was deleted (an intermediate's chunk goes once every task"
                + " reading it has succeeded, so a task ran again or a copy of it ran late), or the work directory"
                + " changed while the computation ran");
    }

    private Store.Bytes readStoredOrNull(String key) {
        ChunkIo.Fetched ahead = ChunkIo.takeAhead(store, key);
        if (ahead != null) {
            return ahead.bytes();
        }
        if (codec == null) {
            byte[] raw = store.getTransient(key);
            return raw == null ? null : new Store.Bytes(raw, raw.length);
        }
        if (codec.decodesFromLongerArrays()) {
            return store.getTransient(key, metadata.chunkSizeBytes());
        }
        byte[] stored = store.get(key);
        return stored == null ? null : new Store.Bytes(stored, stored.length);
    }

    private Chunk decodeChunk(Store.Bytes stored, String key, boolean recycled) {
        if (codec != null
                && (codec.worksInBlocks() || codec.decodesInOrder())
                && metadata.order() == ZarrV2Metadata.Order.C) {
            // Decompressed block by block, or piece by piece, straight into the chunk's elements (every one of them: a
            // stored chunk is whole): no array of the chunk's bytes.
            Chunk chunk = recycled
                    ? Chunk.allocateForTaskToOverwrite(dtype(), metadata.chunks())
                    : Chunk.allocate(dtype(), metadata.chunks());
            decodeInto(stored, key, chunk);
            return chunk;
        }
        byte[] raw = decodeBytes(stored, key);
        Chunk chunk = ElementBytes.decode(
                raw,
                dtype(),
                metadata.dataType().order(),
                metadata.chunks(),
                metadata.order() == ZarrV2Metadata.Order.F);
        // The stored bytes, the decompressed bytes and the chunk: the most a read holds at once.
        HeapProbe.checkpoint();
        ArrayRecycler.giveBack(stored.array());
        ArrayRecycler.giveBack(raw);
        return chunk;
    }

    /**
     * Decodes the stored bytes of a chunk of a block-wise codec (C order) block by block straight into {@code chunk}, of
     * the full chunk shape, then hands the stored bytes back.
     */
    private void decodeInto(Store.Bytes stored, String key, Chunk chunk) {
        decodeInto(stored, key, ChunkBytes.sinkInto(chunk, metadata.dataType().order()));
    }

    /** Decodes the stored bytes of a chunk into {@code sink}, then hands the stored bytes back. */
    private void decodeInto(Store.Bytes stored, String key, RawBytesSink sink) {
        try {
            codec.decode(stored.array(), stored.length(), metadata.chunkSizeBytes(), sink);
        } catch (StorageException | IllegalArgumentException | IndexOutOfBoundsException e) {
            throw corrupt(key, e);
        }
        // The stored bytes and the chunk: the most a read holds at once.
        HeapProbe.checkpoint();
        ArrayRecycler.giveBack(stored.array());
    }

    /**
     * Whether the chunk at {@code chunkCoords} (checked) is one a block-wise codec decodes block by block in element
     * order: a full-size chunk (not an edge chunk, which is stored full but read clipped) of a C-order array of rank 1
     * or more whose codec works in blocks (Blosc).
     */
    boolean decodesInBlocks(long[] chunkCoords) {
        return fullSizeInCOrder(chunkCoords) && codec.worksInBlocks();
    }

    /** Whether the chunk at {@code chunkCoords} (checked) is compressed, in C order, of rank 1 or more and full-size. */
    private boolean fullSizeInCOrder(long[] chunkCoords) {
        ChunkGrid grid = metadata.grid();
        grid.checkCoords(chunkCoords);
        int[] shape = grid.chunkShapeAt(chunkCoords);
        return codec != null
                && metadata.order() == ZarrV2Metadata.Order.C
                && shape.length > 0
                && Arrays.equals(shape, grid.chunkShape());
    }

    /**
     * Whether the chunk at {@code chunkCoords} (checked) can be {@linkplain #stream streamed}: a full-size chunk of a
     * C-order array of rank 1 or more whose codec decodes block by block (Blosc) or in order (zstd).
     */
    boolean streams(long[] chunkCoords) {
        return fullSizeInCOrder(chunkCoords) && streamsInto();
    }

    /**
     * Whether {@link #readInto} decodes the chunks of this array straight into targets that do not overlap one another,
     * edge chunks included, with no array of a chunk's decompressed bytes: a C-order array of rank 1 or more whose
     * codec decodes block by block (Blosc) or in order (zstd). Uncompressed arrays need no such array either.
     */
    private boolean streamsInto() {
        return codec != null
                && metadata.order() == ZarrV2Metadata.Order.C
                && metadata.chunks().length > 0
                && (codec.worksInBlocks() || codec.decodesInOrder());
    }

    /**
     * Decodes a chunk for which {@link #decodesInBlocks} holds block by block into boxes ({@link ChunkBoxes}), each
     * handed over while in cache, with no chunk-sized array; a chunk not stored goes over whole, as its fill value.
     */
    void readInBoxes(long[] chunkCoords, ChunkStore.BoxSink sink) {
        int[] shape = metadata.grid().chunkShapeAt(chunkCoords);
        String key = metadata.chunkKey(chunkCoords);
        Store.Bytes stored = readStored(key);
        if (stored == null) {
            sink.accept(new int[shape.length], Chunk.full(dtype(), fillValue(), shape));
            return;
        }
        ChunkBoxes boxes = new ChunkBoxes(dtype(), metadata.dataType().order(), shape, sink);
        try {
            codec.decode(stored.array(), stored.length(), metadata.chunkSizeBytes(), boxes);
            boxes.checkComplete();
            boxes.release();
        } catch (ChunkBoxes.SinkFailure f) {
            throw f.failure();
        } catch (StorageException | IllegalArgumentException | IndexOutOfBoundsException e) {
            throw corrupt(key, e);
        }
        // The stored bytes and one block's box: the most a read holds at once.
        HeapProbe.checkpoint();
        ArrayRecycler.giveBack(stored.array());
    }

    /**
     * A chunk for which {@link #streams} holds, decoded block by block (or piece by piece) as the caller takes its elements ({@link
     * BlockStream}: one block and the codec's scratch block, which must fit {@code budgetBytes}; larger blocks are
     * decoded whole from the bytes read, and streamed from memory); a chunk that is not stored streams its fill value
     * (found by the one read made; {@link ChunkStore.ChunkStream#stored} false).
     */
    ChunkStore.ChunkStream stream(long[] chunkCoords, long budgetBytes) {
        String key = metadata.chunkKey(chunkCoords);
        Store.Bytes stored = readStored(key);
        if (stored == null) {
            // Not stored: its fill value, streamed from memory, rather than asking the store for it a second time.
            return ChunkStore.ChunkStream.notStored(
                    Chunk.full(dtype(), fillValue(), metadata.grid().chunkShapeAt(chunkCoords)));
        }
        Codec.Blocks blocks;
        try {
            blocks = codec.blocks(stored.array(), stored.length(), metadata.chunkSizeBytes());
        } catch (StorageException | IllegalArgumentException | IndexOutOfBoundsException e) {
            throw corrupt(key, e);
        }
        if (blocks == null || 2L * blocks.blockBytes() > budgetBytes) {
            return ChunkStore.ChunkStream.of(decodeChunk(stored, key, false));
        }
        return new BlockStream(
                stored, blocks, dtype(), metadata.dataType().order(), metadata.chunkSizeBytes(), describe(key));
    }

    /**
     * The stored bytes of the chunk at {@code chunkCoords} as they are, or null when it is not stored ({@link
     * ChunkStore#readStoredChunk}): uncompressed bytes must be a full chunk's, compressed ones pass the codec's own
     * check ({@link Codec#checkEncoded}), or the chunk is corrupt.
     */
    Store.Bytes storedChunk(long[] chunkCoords) {
        metadata.grid().checkCoords(chunkCoords);
        String key = metadata.chunkKey(chunkCoords);
        Store.Bytes stored = readStored(key);
        if (stored == null) {
            return null;
        }
        try {
            if (codec != null) {
                codec.checkEncoded(stored.array(), stored.length(), metadata.chunkSizeBytes());
            } else if (stored.length() != metadata.chunkSizeBytes()) {
                throw new StorageException("it has " + stored.length() + " bytes but an uncompressed chunk of "
                        + Arrays.toString(metadata.chunks()) + " " + dtype() + " has " + metadata.chunkSizeBytes());
            }
        } catch (StorageException | IllegalArgumentException | IndexOutOfBoundsException e) {
            throw corrupt(key, e);
        }
        return stored;
    }

    /** The element bytes of a stored chunk: decompressed, and checked to hold exactly one full-size chunk. */
    private byte[] decodeBytes(Store.Bytes stored, String key) {
        int expected = metadata.chunkSizeBytes();
        byte[] raw;
        try {
            // Uncompressed bytes come in an array of their exact length (readStored).
            raw = codec == null ? stored.array() : codec.decode(stored.array(), stored.length(), expected);
        } catch (StorageException | IllegalArgumentException | IndexOutOfBoundsException e) {
            throw corrupt(key, e);
        }
        if (raw.length != expected) {
            throw new CorruptDataException("corrupt chunk " + describe(key) + ": it decodes to " + raw.length
                    + " bytes but a chunk of " + Arrays.toString(metadata.chunks()) + " " + dtype() + " has "
                    + expected);
        }
        return raw;
    }

    /** Checks the arguments of {@link ChunkStore#readChunkInto} against this array: its dtype and rank. */
    void checkTargets(long[] chunkCoords, Chunk[] targets, long[][] targetOffsets) {
        ChunkGrid grid = metadata.grid();
        grid.checkCoords(chunkCoords);
        if (targets.length != targetOffsets.length) {
            throw new InvalidArgumentException(
                    targets.length + " targets but " + targetOffsets.length + " target offsets for " + url);
        }
        for (Chunk t : targets) {
            if (t.dtype() != dtype() || t.ndim() != grid.ndim()) {
                throw new InvalidArgumentException("cannot read chunks of " + url + ", a " + dtype() + " array of "
                        + grid.ndim() + " dimensions, into a " + t.dtype() + " chunk of shape "
                        + Arrays.toString(t.shape()));
            }
        }
    }

    /**
     * Converts the chunk's decompressed bytes (C order; checked targets) straight into the targets, so a read holds the
     * stored and decompressed bytes but no decoded chunk.
     */
    void readInto(long[] chunkCoords, Chunk[] targets, long[][] targetOffsets) {
        ChunkGrid grid = metadata.grid();
        String key = metadata.chunkKey(chunkCoords);
        int[] shape = grid.chunkShapeAt(chunkCoords);
        long[] offset = grid.chunkOffset(chunkCoords);
        if (readsInSlices()) {
            int[][][] boxes = new int[targets.length][][];
            for (int k = 0; k < targets.length; k++) {
                // The clipped shape: the fill values stored past the array's edge are not copied.
                boxes[k] = ChunkStores.overlap(offset, shape, targetOffsets[k], targets[k].shape());
            }
            if (!readSliced(key, () -> targets, boxes)) {
                ChunkStores.copyOverlaps(Chunk.full(dtype(), fillValue(), shape), offset, targets, targetOffsets);
            }
            return;
        }
        Store.Bytes stored = readStored(key);
        if (stored == null) {
            ChunkStores.copyOverlaps(Chunk.full(dtype(), fillValue(), shape), offset, targets, targetOffsets);
            return;
        }
        if (targets.length == 1
                && Arrays.equals(targetOffsets[0], offset)
                && Arrays.equals(targets[0].shape(), shape)
                && decodesInBlocks(chunkCoords)) {
            // The target is the chunk itself: decoded block by block straight into it, as readChunk does.
            decodeInto(stored, key, targets[0]);
            return;
        }
        // An edge chunk is stored full-size: its elements past the array's edge lie in no target and are dropped.
        int[] full = metadata.chunks();
        int[][][] boxes = streamsInto() ? disjointOverlaps(offset, full, targets, targetOffsets) : null;
        if (boxes != null) {
            // Decoded block by block (or piece by piece) straight into the targets, each row of the chunk split where
            // it passes from one target to the next (a rechunk's input chunk into the output chunks of its region):
            // no array of the chunk's decompressed bytes.
            decodeInto(
                    stored,
                    key,
                    ChunkBytes.sinkIntoTargets(targets, metadata.dataType().order(), full, boxes));
            return;
        }
        byte[] raw = decodeBytes(stored, key);
        for (int k = 0; k < targets.length; k++) {
            // The clipped shape: the fill values stored past the array's edge are not copied.
            int[][] box = ChunkStores.overlap(offset, shape, targetOffsets[k], targets[k].shape());
            if (box != null) {
                ElementBytes.decodeInto(
                        raw,
                        dtype(),
                        metadata.dataType().order(),
                        metadata.chunks(),
                        box[0],
                        targets[k],
                        box[1],
                        box[2]);
            }
        }
        // The stored and the decompressed bytes (the targets belong to the caller).
        HeapProbe.checkpoint();
        ArrayRecycler.giveBack(stored.array());
        ArrayRecycler.giveBack(raw);
    }

    /**
     * Targets checked pairwise for overlapping one another; more are taken as disjoint only when they are cells of one
     * grid ({@link #gridCells}), as a rechunk's output chunks are.
     */
    private static final int PAIRWISE_TARGETS = 64;

    /**
     * The overlaps ({@link ChunkStores#overlap}) of the chunk at {@code offset} of {@code shape} with each target (null
     * for a target it does not overlap), or null when the targets may overlap one another (an element would then go to
     * two targets, which {@link ChunkBytes#sinkIntoTargets} does not do).
     */
    private static int[][][] disjointOverlaps(long[] offset, int[] shape, Chunk[] targets, long[][] targetOffsets) {
        boolean grid = gridCells(targets, targetOffsets);
        if (!grid && targets.length > PAIRWISE_TARGETS) {
            return null;
        }
        int[][][] boxes = new int[targets.length][][];
        for (int k = 0; k < targets.length; k++) {
            boxes[k] = ChunkStores.overlap(offset, shape, targetOffsets[k], targets[k].shape());
            for (int i = 0; !grid && i < k && boxes[k] != null; i++) {
                if (boxes[i] != null && intersect(boxes[i], boxes[k])) {
                    return null;
                }
            }
        }
        return boxes;
    }

    /**
     * Whether the targets are distinct cells of one regular grid, so disjoint: every offset a multiple of the largest
     * extent on its axis, no target longer than that (edge cells are shorter), no offset twice. O(targets).
     */
    private static boolean gridCells(Chunk[] targets, long[][] targetOffsets) {
        if (targets.length < 2) {
            return true;
        }
        int nd = targetOffsets[0].length;
        long[] cell = new long[nd];
        for (Chunk t : targets) {
            int[] ts = t.shape();
            for (int a = 0; a < nd; a++) {
                cell[a] = Math.max(cell[a], ts[a]);
            }
        }
        java.util.Set<java.util.List<Long>> seen = new java.util.HashSet<>();
        for (long[] o : targetOffsets) {
            java.util.List<Long> key = new java.util.ArrayList<>(nd);
            for (int a = 0; a < nd; a++) {
                if (cell[a] == 0 || o[a] % cell[a] != 0) {
                    return false;
                }
                key.add(o[a]);
            }
            if (!seen.add(key)) {
                return false;
            }
        }
        return true;
    }

    /** Whether two overlaps of one chunk share an element. */
    private static boolean intersect(int[][] a, int[][] b) {
        for (int d = 0; d < a[0].length; d++) {
            if (a[0][d] + a[2][d] <= b[0][d] || b[0][d] + b[2][d] <= a[0][d]) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether chunks are read from the store a slice at a time straight into their targets ({@link SlicedRawReads}):
     * uncompressed C-order chunks of a store that reads in pieces (a local file), when no read was started ahead.
     */
    private boolean readsInSlices() {
        return codec == null
                && metadata.order() == ZarrV2Metadata.Order.C
                && store.getsInPieces()
                && !ChunkIo.servesCurrent(store);
    }

    /**
     * Reads the chunk at {@code key} slice by slice into the boxes ({@code {srcStart, dstStart, extent}}, null for none)
     * of the chunks {@code targets} gives once the chunk is found; false when it is not stored (an error when every
     * chunk was), so that the caller fills.
     */
    private boolean readSliced(String key, java.util.function.Supplier<Chunk[]> targets, int[][][] boxes) {
        int expected = metadata.chunkSizeBytes();
        boolean found = store.getInPieces(key, (size, in) -> {
            if (size != expected) {
                throw new CorruptDataException("corrupt chunk " + describe(key) + ": it has " + size
                        + " bytes but an uncompressed chunk of " + Arrays.toString(metadata.chunks()) + " " + dtype()
                        + " has " + expected);
            }
            SlicedRawReads.read(
                    size,
                    in,
                    dtype(),
                    metadata.dataType().order(),
                    metadata.chunks(),
                    targets.get(),
                    boxes,
                    "chunk " + describe(key));
        });
        if (!found && everyChunkStored) {
            throw missing(key);
        }
        // A slice of the bytes (the targets belong to the caller).
        HeapProbe.checkpoint();
        return found;
    }

    private CorruptDataException corrupt(String key, RuntimeException e) {
        return new CorruptDataException("corrupt chunk " + describe(key) + ": " + e.getMessage(), e);
    }

    private String describe(String key) {
        return MetadataDocuments.describe(url, key);
    }
}
