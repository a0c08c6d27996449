package io.cubed.storage.zarr;

import io.cubed.chunk.ArrayRecycler;
import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.dtype.Scalar;
import io.cubed.error.CorruptDataException;
import io.cubed.error.InvalidArgumentException;
import io.cubed.error.StorageException;
import io.cubed.grid.ChunkGrid;
import io.cubed.memory.BufferCopies;
import io.cubed.memory.HeapProbe;
import io.cubed.storage.ChunkStore;
import io.cubed.storage.ChunkStores;
import io.cubed.storage.Store;
import io.cubed.storage.StoreOptions;
import io.cubed.storage.StoreSupplier;
import io.cubed.storage.fs.Stores;
import io.cubed.storage.zarr.codec.Codec;
import java.io.Serializable;
import java.lang.ref.Reference;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A Zarr v2 array in a {@link Store}, read and written one chunk at a time.
 *
 * <p>Serializable: it carries its metadata and a {@link StoreSupplier}, so a task reopens the store on its executor
 * without reading {@code .zarray} again. Chunk writes are atomic (see {@link Store#put}) and idempotent.
 */
public final class ZarrArray implements ChunkStore, Serializable {
    private static final long serialVersionUID = 1L;

    /** Name of the array metadata document. */
    public static final String ZARRAY = ".zarray";
    /** Name of the attributes document. */
    public static final String ZATTRS = ".zattrs";

    private final String url;
    private final StoreSupplier supplier;
    private final ZarrV2Metadata metadata;
    private final boolean writeEmptyChunks;
    private final boolean everyChunkStored;
    private transient Store store;
    private transient Codec codec;
    /** The attributes this array has read or written, or null before it has. */
    private transient volatile Map<String, Object> attributes;
    /**
     * The bytes of {@code .zattrs} as a reader of several arrays read them at once ({@link ZarrGroup#arrays}), parsed
     * on the first {@link #attributes()} call so that a malformed document fails there, as when read then; {@link
     * #NO_ATTRIBUTES} when there was none; null when not read.
     */
    private transient volatile byte[] readAttributes;

    /** {@link #readAttributes} of an array whose {@code .zattrs} was found missing. */
    private static final byte[] NO_ATTRIBUTES = new byte[0];

    private ZarrArray(String url, StoreSupplier supplier, ZarrV2Metadata metadata, boolean writeEmptyChunks) {
        this(url, supplier, metadata, writeEmptyChunks, false);
    }

    private ZarrArray(
            String url,
            StoreSupplier supplier,
            ZarrV2Metadata metadata,
            boolean writeEmptyChunks,
            boolean everyChunkStored) {
        this.url = url;
        this.supplier = supplier;
        this.metadata = metadata;
        this.writeEmptyChunks = writeEmptyChunks;
        this.everyChunkStored = everyChunkStored;
    }

    /** The array at {@code url} with metadata and attributes already read (from consolidated metadata). */
    static ZarrArray withMetadata(
            String url, StoreSupplier supplier, ZarrV2Metadata metadata, Map<String, Object> attributes) {
        ZarrArray a = new ZarrArray(url, supplier, metadata, true);
        a.attributes = new LinkedHashMap<>(attributes);
        return a;
    }

    /**
     * The array at {@code url} whose {@code .zarray} and {@code .zattrs} the caller has read ({@code zattrs} null when
     * there is none): the attributes are parsed when first asked for.
     */
    static ZarrArray withDocuments(String url, StoreSupplier supplier, byte[] zarray, byte[] zattrs) {
        ZarrArray a = new ZarrArray(url, supplier, ZarrV2Metadata.parse(zarray, describe(url, ZARRAY)), true);
        a.readAttributes = zattrs == null ? NO_ATTRIBUTES : zattrs;
        return a;
    }

    /** The array at {@code url} whose {@code .zarray} holds {@code zarray} (read by the caller). */
    static ZarrArray withMetadata(String url, StoreOptions options, byte[] zarray) {
        return new ZarrArray(
                url, Stores.supplier(url, options), ZarrV2Metadata.parse(zarray, describe(url, ZARRAY)), true);
    }

    /** Opens the array at {@code url} (a path or URI). */
    public static ZarrArray open(String url) {
        return open(url, StoreOptions.empty());
    }

    /** Opens the array at {@code url} with store options (e.g. Hadoop configuration for {@code s3a://}). */
    public static ZarrArray open(String url, StoreOptions options) {
        StoreSupplier supplier = Stores.supplier(url, options);
        Store store = supplier.open();
        String where = describe(url, ZARRAY);
        byte[] bytes = store.get(ZARRAY);
        if (bytes == null) {
            String hint = store.exists(ZarrGroup.ZGROUP) ? " (it is a Zarr group, not an array)" : "";
            throw new StorageException("no Zarr array at " + url + ": " + where + " is missing" + hint);
        }
        return new ZarrArray(url, supplier, ZarrV2Metadata.parse(bytes, where), true);
    }

    /** Creates an array at {@code url}, writing its {@code .zarray}; refuses to replace one unless overwrite is set. */
    public static ZarrArray create(String url, ZarrCreateOptions options) {
        return create(url, options, StoreOptions.empty());
    }

    /** Creates an array at {@code url} with store options; see {@link #create(String, ZarrCreateOptions)}. */
    public static ZarrArray create(String url, ZarrCreateOptions options, StoreOptions storeOptions) {
        ZarrV2Metadata metadata = options.toMetadata();
        if (metadata.compressor() != null) {
            metadata.compressor().requireUsable(url);
        }
        StoreSupplier supplier = Stores.supplier(url, storeOptions);
        Store store = supplier.open();
        if (store.exists(ZarrGroup.ZGROUP)) {
            throw new StorageException("cannot create an array at " + url + ": a Zarr group is there");
        }
        // A Zarr v3 node there too: readers would take its zarr.json over the new .zarray.
        byte[] v3 = store.exists(ZarrV3Metadata.ZARR_JSON) ? store.get(ZarrV3Metadata.ZARR_JSON) : null;
        if (v3 != null && "group".equals(ZarrV3Metadata.parseObject(v3, url).get("node_type"))) {
            throw new StorageException("cannot create an array at " + url + ": a Zarr group is there");
        }
        if (v3 != null || store.exists(ZARRAY)) {
            if (!options.overwrite()) {
                throw new StorageException("cannot create an array at " + url + ": an array already exists there "
                        + "(set overwrite to replace it)");
            }
            store.deletePrefix("");
        }
        store.put(ZARRAY, metadata.toJson().getBytes(StandardCharsets.UTF_8));
        return new ZarrArray(url, supplier, metadata, true);
    }

    /**
     * This array, but skipping (and deleting) chunks whose every element equals the fill value when {@code write} is
     * false, as zarr-python's {@code write_empty_chunks=False}; by default every chunk is written. An array without a
     * fill value ({@code fill_value: null}) writes every chunk regardless, as zarr-python does: its readers leave
     * missing chunks uninitialised, so a skipped all-zero chunk would not read back as zeros.
     */
    public ZarrArray writeEmptyChunks(boolean write) {
        if (!write && everyChunkStored) {
            throw new InvalidArgumentException("cannot skip empty chunks of " + url
                    + ": every chunk of it is stored (everyChunkStored), so a missing chunk reads as an error");
        }
        return write == writeEmptyChunks ? this : new ZarrArray(url, supplier, metadata, write, everyChunkStored);
    }

    /**
     * This array, writing every chunk and reading a missing chunk as an error instead of the fill value: for arrays
     * whose every chunk is written before any is read, such as a computation's intermediates. Their chunks may be
     * deleted once every task that reads them has succeeded; a task that still read one afterwards (a copy of a task
     * that was thought lost, say) then fails, instead of taking the fill value for the data and writing a wrong result.
     */
    public ZarrArray everyChunkStored() {
        return everyChunkStored ? this : new ZarrArray(url, supplier, metadata, true, true);
    }

    /** Whether this array reads a missing chunk as an error ({@link #everyChunkStored()}). */
    public boolean isEveryChunkStored() {
        return everyChunkStored;
    }

    private Store store() {
        Store s = store;
        if (s == null) {
            s = supplier.open();
            store = s;
        }
        return s;
    }

    private Codec codec() {
        Codec c = codec;
        if (c == null && metadata.compressor() != null) {
            c = metadata.compressor().codec(metadata.dtype().itemSizeBytes());
            codec = c;
        }
        return c;
    }

    @Override
    public String url() {
        return url;
    }

    @Override
    public java.util.Optional<String> storedAt() {
        return java.util.Optional.of(url);
    }

    public ZarrV2Metadata metadata() {
        return metadata;
    }

    @Override
    public DType dtype() {
        return metadata.dtype();
    }

    @Override
    public ChunkGrid grid() {
        return metadata.grid();
    }

    /** The fill value; zero of the dtype when the array has none ({@code fill_value: null}). */
    @Override
    public Scalar fillValue() {
        Scalar f = metadata.fillValue();
        return f == null ? Scalar.zero() : f;
    }

    /**
     * The {@code .zattrs} attributes, empty when there are none: read once by this array and kept (as a v3 array keeps
     * those of its {@code zarr.json}), so that the readers of one opened array (the incomplete mark, the dimension
     * names) do not each ask the store; {@link #writeAttributes} keeps what it writes. Reopen the array to see what
     * another writer changed.
     */
    public Map<String, Object> attributes() {
        Map<String, Object> a = attributes;
        if (a == null) {
            byte[] read = readAttributes;
            a = read == null
                    ? ZarrGroup.readAttributes(store(), url)
                    : ZarrGroup.parseAttributes(read == NO_ATTRIBUTES ? null : read, url);
            attributes = a;
        }
        return new LinkedHashMap<>(a);
    }

    /** Replaces the {@code .zattrs} attributes (values: maps, lists, strings, numbers, booleans, null). */
    public void writeAttributes(Map<String, ?> attributes) {
        LinkedHashMap<String, Object> copy = new LinkedHashMap<>(attributes);
        store().put(ZATTRS, Json.write(copy).getBytes(StandardCharsets.UTF_8));
        this.attributes = copy;
    }

    @Override
    public Chunk readChunk(long... chunkCoords) {
        Chunk stored = readChunkIfStored(chunkCoords);
        return stored != null ? stored : Chunk.full(dtype(), fillValue(), grid().chunkShapeAt(chunkCoords));
    }

    /** The chunk at {@code chunkCoords}, or null when it is not stored: one read of its key, no existence check. */
    @Override
    public Chunk readChunkIfStored(long... chunkCoords) {
        return readIfStored(chunkCoords, false);
    }

    @Override
    public Chunk readChunkIfStoredToGiveBack(long... chunkCoords) {
        return readIfStored(chunkCoords, true);
    }

    /** The chunk or null; {@code recycled}: its array may come from {@link ArrayRecycler} (see the interface). */
    private Chunk readIfStored(long[] chunkCoords, boolean recycled) {
        ChunkGrid grid = grid();
        grid.checkCoords(chunkCoords);
        String key = metadata.chunkKey(chunkCoords);
        int[] shape = grid.chunkShapeAt(chunkCoords);
        Store.Bytes stored = readStored(key);
        if (stored == null) {
            return null;
        }
        Chunk full = decodeChunk(stored, key, recycled);
        if (Arrays.equals(shape, grid.chunkShape())) {
            return full;
        }
        Chunk clipped = Chunk.allocate(dtype(), shape);
        Chunk.copyRegion(full, new int[shape.length], clipped, new int[shape.length], shape);
        return clipped;
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
            throw new StorageException("chunk " + describe(url, key) + " is missing, but every chunk of this array was"
                    + " written before it was read: it was deleted (an intermediate's chunk goes once every task"
                    + " reading it has succeeded, so a task ran again or a copy of it ran late), or the work directory"
                    + " changed while the computation ran");
        }
        return stored;
    }

    private Store.Bytes readStoredOrNull(String key) {
        io.cubed.storage.ChunkIo.Fetched ahead = io.cubed.storage.ChunkIo.takeAhead(store(), key);
        if (ahead != null) {
            return ahead.bytes();
        }
        Codec c = codec();
        if (c == null) {
            byte[] raw = store().getTransient(key);
            return raw == null ? null : new Store.Bytes(raw, raw.length);
        }
        if (c.decodesFromLongerArrays()) {
            return store().getTransient(key, metadata.chunkSizeBytes());
        }
        byte[] stored = store().get(key);
        return stored == null ? null : new Store.Bytes(stored, stored.length);
    }

    private Chunk decodeChunk(Store.Bytes stored, String key) {
        return decodeChunk(stored, key, false);
    }

    private Chunk decodeChunk(Store.Bytes stored, String key, boolean recycled) {
        Codec c = codec();
        if (c != null && c.worksInBlocks() && metadata.order() == ZarrV2Metadata.Order.C) {
            // Decompressed block by block straight into the chunk's elements (every one of them: a stored chunk is
            // whole): no array of the chunk's bytes.
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
        try {
            codec().decode(
                            stored.array(),
                            stored.length(),
                            metadata.chunkSizeBytes(),
                            ChunkBytes.sinkInto(chunk, metadata.dataType().order()));
        } catch (StorageException | IllegalArgumentException | IndexOutOfBoundsException e) {
            throw new CorruptDataException("corrupt chunk " + describe(url, key) + ": " + e.getMessage(), e);
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
    private boolean decodesInBlocks(long[] chunkCoords) {
        ChunkGrid grid = grid();
        grid.checkCoords(chunkCoords);
        Codec c = codec();
        int[] shape = grid.chunkShapeAt(chunkCoords);
        return c != null
                && c.worksInBlocks()
                && metadata.order() == ZarrV2Metadata.Order.C
                && shape.length > 0
                && Arrays.equals(shape, grid.chunkShape());
    }

    /**
     * Decodes a full-size chunk of a block-wise codec (Blosc, C order) block by block into boxes ({@link ChunkBoxes}),
     * each handed over while in cache, with no chunk-sized array; other chunks (edge chunks, other codecs, Fortran
     * order, 0-d arrays) go over whole.
     */
    @Override
    public void readChunkInBoxes(long[] chunkCoords, BoxSink sink) {
        if (!decodesInBlocks(chunkCoords)) {
            ChunkStore.super.readChunkInBoxes(chunkCoords, sink);
            return;
        }
        int[] shape = grid().chunkShapeAt(chunkCoords);
        Codec c = codec();
        String key = metadata.chunkKey(chunkCoords);
        Store.Bytes stored = readStored(key);
        if (stored == null) {
            sink.accept(new int[shape.length], Chunk.full(dtype(), fillValue(), shape));
            return;
        }
        ChunkBoxes boxes = new ChunkBoxes(dtype(), metadata.dataType().order(), shape, sink);
        try {
            c.decode(stored.array(), stored.length(), metadata.chunkSizeBytes(), boxes);
            boxes.checkComplete();
            boxes.release();
        } catch (ChunkBoxes.SinkFailure f) {
            throw f.failure();
        } catch (StorageException | IllegalArgumentException | IndexOutOfBoundsException e) {
            throw new CorruptDataException("corrupt chunk " + describe(url, key) + ": " + e.getMessage(), e);
        }
        // The stored bytes and one block's box: the most a read holds at once.
        HeapProbe.checkpoint();
        ArrayRecycler.giveBack(stored.array());
    }

    /**
     * A full-size stored chunk of a codec that decodes in blocks (Blosc, C order), decoded block by block as the
     * caller takes its elements ({@link BlockStream}: one block and the codec's scratch block, which must fit {@code
     * budgetBytes}; larger blocks are decoded whole from the bytes read, and streamed from memory); a chunk that is
     * not stored streams its fill value (found by the one read made); null for other chunks (edge chunks, other codecs,
     * Fortran order, 0-d arrays), which are read whole.
     */
    @Override
    public ChunkStream streamChunk(long[] chunkCoords, long budgetBytes) {
        if (!decodesInBlocks(chunkCoords)) {
            return null;
        }
        Codec c = codec();
        String key = metadata.chunkKey(chunkCoords);
        Store.Bytes stored = readStored(key);
        if (stored == null) {
            // Not stored: its fill value, streamed from memory, rather than asking the store for it a second time.
            return ChunkStream.of(Chunk.full(dtype(), fillValue(), grid().chunkShapeAt(chunkCoords)));
        }
        Codec.Blocks blocks;
        try {
            blocks = c.blocks(stored.array(), stored.length(), metadata.chunkSizeBytes());
        } catch (StorageException | IllegalArgumentException | IndexOutOfBoundsException e) {
            throw new CorruptDataException("corrupt chunk " + describe(url, key) + ": " + e.getMessage(), e);
        }
        if (blocks == null || 2L * blocks.blockBytes() > budgetBytes) {
            return ChunkStream.of(decodeChunk(stored, key));
        }
        return new BlockStream(
                stored, blocks, dtype(), metadata.dataType().order(), metadata.chunkSizeBytes(), describe(url, key));
    }

    /** The element bytes of a stored chunk: decompressed, and checked to hold exactly one full-size chunk. */
    private byte[] decodeBytes(Store.Bytes stored, String key) {
        int expected = metadata.chunkSizeBytes();
        byte[] raw;
        try {
            Codec c = codec();
            // Uncompressed bytes come in an array of their exact length (readStored).
            raw = c == null ? stored.array() : c.decode(stored.array(), stored.length(), expected);
        } catch (StorageException | IllegalArgumentException | IndexOutOfBoundsException e) {
            throw new CorruptDataException("corrupt chunk " + describe(url, key) + ": " + e.getMessage(), e);
        }
        if (raw.length != expected) {
            throw new CorruptDataException("corrupt chunk " + describe(url, key) + ": it decodes to " + raw.length
                    + " bytes but a chunk of " + Arrays.toString(metadata.chunks()) + " " + dtype() + " has "
                    + expected);
        }
        return raw;
    }

    /**
     * Converts the chunk's decompressed bytes straight into the targets (C-order arrays; Fortran order reads the chunk
     * first), so a read holds the stored and decompressed bytes but no decoded chunk.
     */
    @Override
    public void readChunkInto(long[] chunkCoords, Chunk[] targets, long[][] targetOffsets) {
        ChunkGrid grid = grid();
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
        if (metadata.order() == ZarrV2Metadata.Order.F) {
            ChunkStore.super.readChunkInto(chunkCoords, targets, targetOffsets);
            return;
        }
        String key = metadata.chunkKey(chunkCoords);
        int[] shape = grid.chunkShapeAt(chunkCoords);
        long[] offset = grid.chunkOffset(chunkCoords);
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

    @Override
    public void writeChunk(Chunk chunk, long... chunkCoords) {
        ChunkGrid grid = grid();
        grid.checkCoords(chunkCoords);
        String key = metadata.chunkKey(chunkCoords);
        if (chunk.dtype() != dtype()) {
            throw new InvalidArgumentException("cannot write a " + chunk.dtype() + " chunk to " + describe(url, key)
                    + ", a " + dtype() + " array");
        }
        int[] shape = grid.chunkShapeAt(chunkCoords);
        if (!Arrays.equals(shape, chunk.shape())) {
            throw new InvalidArgumentException("chunk " + describe(url, key) + " has shape " + Arrays.toString(shape)
                    + " but the chunk written has shape " + Arrays.toString(chunk.shape()));
        }
        Scalar declaredFill = metadata.fillValue();
        if (!writeEmptyChunks && declaredFill != null && chunk.isAll(declaredFill)) {
            store().delete(key);
            return;
        }
        Chunk full = chunk;
        int[] fullShape = grid.chunkShape();
        if (!Arrays.equals(shape, fullShape)) {
            // Edge chunks are stored at full size, the part outside the array holding the fill value.
            full = Chunk.full(dtype(), fillValue(), fullShape);
            Chunk.copyRegion(chunk, new int[shape.length], full, new int[shape.length], shape);
        }
        Codec c = codec();
        boolean fortran = metadata.order() == ZarrV2Metadata.Order.F;
        // Compressed in C order straight from the chunk's elements, block by block: no array of the chunk's bytes.
        boolean inBlocks = c != null && c.worksInBlocks() && !fortran;
        byte[] raw =
                inBlocks ? null : ElementBytes.encode(full, metadata.dataType().order(), fortran);
        Codec.Encoded stored;
        try {
            if (c == null) {
                stored = new Codec.Encoded(raw, raw.length);
            } else if (raw == null) {
                stored = c.encode(ChunkBytes.view(full, metadata.dataType().order()));
            } else {
                stored = c.encodeUntrimmed(raw);
            }
        } catch (RuntimeException e) {
            throw new StorageException("cannot encode chunk " + describe(url, key) + ": " + e.getMessage(), e);
        }
        // The chunk (and its full-size copy at edges), its bytes and the compressed bytes: the most a write holds.
        HeapProbe.checkpoint();
        Reference.reachabilityFence(full);
        Reference.reachabilityFence(raw);
        io.cubed.storage.ChunkIo.put(store(), key, stored.buffer(), stored.length());
        // Written: the bytes (and the edge chunk's full-size copy) serve the task's next chunk.
        ArrayRecycler.giveBack(stored.buffer());
        ArrayRecycler.giveBack(raw);
        if (full != chunk) {
            ArrayRecycler.giveBack(full.data());
        }
    }

    /**
     * Starts reading the chunk's stored bytes ahead (one GET on an object store), within a compressed chunk's bound
     * of its raw size and a margin for the codec's header.
     */
    @Override
    public void readAhead(long[] chunkCoords) {
        grid().checkCoords(chunkCoords);
        io.cubed.storage.ChunkIo.readAhead(
                store(), metadata.chunkKey(chunkCoords), storedChunkBound(metadata.chunkSizeBytes()));
    }

    @Override
    public long inFlightBytes() {
        int k = store().concurrency();
        return k > 1 ? (long) k * (storedChunkBound(metadata.chunkSizeBytes()) + store().requestOverheadBytes()) : 0;
    }

    /** An upper bound of a stored chunk of {@code rawBytes}: codecs add at most a header to what they cannot shrink. */
    static int storedChunkBound(long rawBytes) {
        return (int) Math.min(Integer.MAX_VALUE - 8, rawBytes + rawBytes / 64 + 1024);
    }

    @Override
    public boolean chunkExists(long... chunkCoords) {
        grid().checkCoords(chunkCoords);
        return store().exists(metadata.chunkKey(chunkCoords));
    }

    @Override
    public boolean deleteChunk(long... chunkCoords) {
        grid().checkCoords(chunkCoords);
        store().delete(metadata.chunkKey(chunkCoords));
        return true;
    }

    /** Number of chunks stored (written and not skipped as empty), by listing the store. */
    public long writtenChunkCount() {
        long n = 0;
        for (String key : store().list("")) {
            if (!key.startsWith(".") && !key.contains("/.")) {
                n++;
            }
        }
        return n;
    }

    @Override
    public Chunk readRegion(long[] offset, int[] shape) {
        return ChunkStores.readRegion(this, offset, shape);
    }

    @Override
    public BufferCopies bufferCopies() {
        return BufferCopies.forStore(store().isObjectStore()).plus(ZarrFormat.codecCopies(metadata.compressor()));
    }

    static String describe(String url, String key) {
        return (url.endsWith("/") ? url : url + "/") + key;
    }

    @Override
    public String toString() {
        return "ZarrArray{" + url + ", " + metadata + "}";
    }
}
