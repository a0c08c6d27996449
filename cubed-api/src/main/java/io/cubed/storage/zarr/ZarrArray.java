package io.cubed.storage.zarr;

import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.dtype.Scalar;
import io.cubed.error.InvalidArgumentException;
import io.cubed.error.StorageException;
import io.cubed.grid.ChunkGrid;
import io.cubed.memory.BufferCopies;
import io.cubed.storage.ChunkStores;
import io.cubed.storage.Store;
import io.cubed.storage.StoreOptions;
import io.cubed.storage.StoreSupplier;
import io.cubed.storage.fs.Stores;
import io.cubed.storage.zarr.codec.Codec;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A Zarr v2 array in a {@link Store}, read and written one chunk at a time.
 *
 * <p>Serializable: it carries its metadata and a {@link StoreSupplier}, so a task reopens the store on its executor
 * without reading {@code .zarray} again. Chunk writes are atomic (see {@link Store#put}) and idempotent.
 *
 * <p>This file holds opening, creating, the options of the array and its attributes; a stored chunk's reading and
 * decoding are {@code V2ChunkReads}'s, its encoding and writing {@code V2ChunkWrites}'s.
 */
public final class ZarrArray extends ZarrArrayCore {
    private static final long serialVersionUID = 1L;

    /** Name of the array metadata document. */
    public static final String ZARRAY = ".zarray";
    /** Name of the attributes document. */
    public static final String ZATTRS = ".zattrs";

    private final ZarrV2Metadata metadata;
    private final boolean writeEmptyChunks;
    private final boolean everyChunkStored;
    private transient Codec codec;
    private transient V2ChunkReads reads;
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
        super(url, supplier);
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
        ZarrArray a = new ZarrArray(
                url, supplier, ZarrV2Metadata.parse(zarray, MetadataDocuments.describe(url, ZARRAY)), true);
        a.readAttributes = zattrs == null ? NO_ATTRIBUTES : zattrs;
        return a;
    }

    /** The array at {@code url} whose {@code .zarray} holds {@code zarray} (read by the caller). */
    static ZarrArray withMetadata(String url, StoreOptions options, byte[] zarray) {
        return new ZarrArray(
                url,
                Stores.supplier(url, options),
                ZarrV2Metadata.parse(zarray, MetadataDocuments.describe(url, ZARRAY)),
                true);
    }

    /** Opens the array at {@code url} (a path or URI). */
    public static ZarrArray open(String url) {
        return open(url, StoreOptions.empty());
    }

    /** Opens the array at {@code url} with store options (e.g. Hadoop configuration for {@code s3a://}). */
    public static ZarrArray open(String url, StoreOptions options) {
        StoreSupplier supplier = Stores.supplier(url, options);
        Store store = supplier.open();
        String where = MetadataDocuments.describe(url, ZARRAY);
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
        return unwritten(url, options, storeOptions, true).writeDocuments();
    }

    /**
     * The array {@link #create(String, ZarrCreateOptions, StoreOptions)} makes, its place examined (and cleared with
     * {@code overwrite}) but nothing written, for {@link IncompleteMark#createMarked}: its attributes, the set-up's
     * and the mark's, are kept until it writes {@code .zattrs} and then {@code .zarray} once each. Not an array in
     * the store until then.
     */
    public static ZarrArray unwritten(String url, ZarrCreateOptions options, StoreOptions storeOptions) {
        return unwritten(url, options, storeOptions, true);
    }

    /**
     * {@link #unwritten(String, ZarrCreateOptions, StoreOptions)}, examining the place or not: a place the caller
     * knows to be new ({@link ZarrFormat#createAtNewPlace}).
     */
    static ZarrArray unwritten(String url, ZarrCreateOptions options, StoreOptions storeOptions, boolean examine) {
        ZarrV2Metadata metadata = options.toMetadata();
        if (metadata.compressor() != null) {
            metadata.compressor().requireUsable(url);
        }
        StoreSupplier supplier = Stores.supplier(url, storeOptions);
        if (examine) {
            ArrayCreation.clear(supplier.open(), url, options.overwrite(), true);
        }
        ZarrArray a = new ZarrArray(url, supplier, metadata, true);
        a.unwritten = new Unwritten();
        // The place was cleared (or is new): no .zattrs is there, and asking for it would be a request (a round trip
        // on an object store) for what is known.
        a.attributes = new LinkedHashMap<>();
        return a;
    }

    /**
     * Writes {@code .zattrs} (when there are attributes) and then {@code .zarray}: until the second lands there is no
     * array to read, and once it has, its mark is there.
     */
    @Override
    ZarrArray writeDocuments() {
        Unwritten u = unwritten;
        if (u == null || u.written) {
            return this;
        }
        u.begun = true;
        Map<String, Object> attrs = new LinkedHashMap<>(u.attributes);
        if (!attrs.isEmpty()) {
            store().put(ZATTRS, Json.write(attrs).getBytes(StandardCharsets.UTF_8));
        }
        store().put(ZARRAY, metadata.toJson().getBytes(StandardCharsets.UTF_8));
        u.written = true;
        ZarrArray written = new ZarrArray(url, supplier, metadata, writeEmptyChunks, everyChunkStored);
        written.attributes = attrs;
        return written;
    }

    /** A copy of this array with other options, sharing its pending documents while they are. */
    private ZarrArray derived(boolean writeEmpty, boolean everyStored) {
        ZarrArray a = new ZarrArray(url, supplier, metadata, writeEmpty, everyStored);
        a.unwritten = unwritten;
        return a;
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
        return write == writeEmptyChunks ? this : derived(write, everyChunkStored);
    }

    /**
     * This array, writing every chunk and reading a missing chunk as an error instead of the fill value: for arrays
     * whose every chunk is written before any is read, such as a computation's intermediates. Their chunks may be
     * deleted once every task that reads them has succeeded; a task that still read one afterwards (a copy of a task
     * that was thought lost, say) then fails, instead of taking the fill value for the data and writing a wrong result.
     */
    public ZarrArray everyChunkStored() {
        return everyChunkStored ? this : derived(true, true);
    }

    /** Whether this array reads a missing chunk as an error ({@link #everyChunkStored()}). */
    public boolean isEveryChunkStored() {
        return everyChunkStored;
    }

    private Codec codec() {
        Codec c = codec;
        if (c == null && metadata.compressor() != null) {
            c = metadata.compressor().codec(metadata.dtype().itemSizeBytes());
            codec = c;
        }
        return c;
    }

    /** The chunk reads of this array, over its store and codec. */
    private V2ChunkReads reads() {
        V2ChunkReads r = reads;
        if (r == null) {
            r = new V2ChunkReads(url, metadata, store(), codec(), everyChunkStored);
            reads = r;
        }
        return r;
    }

    @Override
    String chunkKey(long[] chunkCoords) {
        return metadata.chunkKey(chunkCoords);
    }

    /** True for a key that is not a metadata document ({@code .zarray}, {@code .zattrs}) of the array or below it. */
    @Override
    boolean isChunkKey(String key) {
        return !key.startsWith(".") && !key.contains("/.");
    }

    /** A compressed chunk's bound of its raw size and a margin for the codec's header. */
    @Override
    int storedChunkBound() {
        return ReadAhead.storedChunkBound(metadata.chunkSizeBytes());
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
        Unwritten u = unwritten;
        if (u != null && !u.written) {
            return new LinkedHashMap<>(u.attributes);
        }
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
        Unwritten u = unwritten;
        if (u != null && !u.written) {
            // A new array being set up: written with its other documents (writeDocuments).
            u.attributes = copy;
            this.attributes = copy;
            return;
        }
        store().put(ZATTRS, Json.write(copy).getBytes(StandardCharsets.UTF_8));
        this.attributes = copy;
    }

    /** The chunk at {@code chunkCoords}, or null when it is not stored: one read of its key, no existence check. */
    @Override
    public Chunk readChunkIfStored(long... chunkCoords) {
        return reads().readIfStored(chunkCoords, false);
    }

    @Override
    public Chunk readChunkIfStoredToGiveBack(long... chunkCoords) {
        return reads().readIfStored(chunkCoords, true);
    }

    /**
     * Decodes a full-size chunk of a block-wise codec (Blosc, C order) block by block into boxes ({@link ChunkBoxes}),
     * each handed over while in cache, with no chunk-sized array; other chunks (edge chunks, other codecs, Fortran
     * order, 0-d arrays) go over whole.
     */
    @Override
    public void readChunkInBoxes(long[] chunkCoords, BoxSink sink) {
        V2ChunkReads r = reads();
        if (r.decodesInBlocks(chunkCoords)) {
            r.readInBoxes(chunkCoords, sink);
        } else {
            super.readChunkInBoxes(chunkCoords, sink);
        }
    }

    /**
     * A full-size stored chunk of a codec that decodes in blocks or in order (Blosc, zstd; C order), decoded block by block as the
     * caller takes its elements ({@link BlockStream}: one block and the codec's scratch block, which must fit {@code
     * budgetBytes}; larger blocks are decoded whole from the bytes read, and streamed from memory); a chunk that is
     * not stored streams its fill value (found by the one read made); null for other chunks (edge chunks, other codecs,
     * Fortran order, 0-d arrays), which are read whole.
     */
    @Override
    public ChunkStream streamChunk(long[] chunkCoords, long budgetBytes) {
        V2ChunkReads r = reads();
        return r.streams(chunkCoords) ? r.stream(chunkCoords, budgetBytes) : null;
    }

    /**
     * Converts the chunk's decompressed bytes straight into the targets (C-order arrays; Fortran order reads the chunk
     * first), so a read holds the stored and decompressed bytes but no decoded chunk.
     */
    @Override
    public void readChunkInto(long[] chunkCoords, Chunk[] targets, long[][] targetOffsets) {
        V2ChunkReads r = reads();
        r.checkTargets(chunkCoords, targets, targetOffsets);
        if (metadata.order() == ZarrV2Metadata.Order.F) {
            super.readChunkInto(chunkCoords, targets, targetOffsets);
        } else {
            r.readInto(chunkCoords, targets, targetOffsets);
        }
    }

    @Override
    public void writeChunk(Chunk chunk, long... chunkCoords) {
        writes().write(chunk, chunkCoords);
    }

    @Override
    public Object chunkEncoding() {
        return new ChunkEncoding(
                2,
                metadata.dataType(),
                metadata.compressor(),
                metadata.order(),
                Arrays.stream(metadata.chunks()).boxed().toList());
    }

    @Override
    public Store.Bytes readStoredChunk(long[] chunkCoords) {
        return reads().storedChunk(chunkCoords);
    }

    /** True when the compressor encodes in order (zstd) and the array is in C order: see {@link V2ChunkWrites}. */
    @Override
    public boolean writesFromStreams() {
        return writes().encodesInOrder();
    }

    /**
     * A full-size chunk of an array that {@linkplain #writesFromStreams writes from streams} is encoded as the stream's
     * elements are taken; other chunks are gathered first.
     */
    @Override
    public void writeChunk(ChunkStream stream, long... chunkCoords) {
        V2ChunkWrites w = writes();
        if (!w.writesFromStream(chunkCoords)) {
            super.writeChunk(stream, chunkCoords);
            return;
        }
        ChunkStream.checkWritable(stream, this, metadata.chunkSizeBytes(), chunkCoords);
        w.write(stream, chunkCoords);
    }

    private V2ChunkWrites writes() {
        return new V2ChunkWrites(url, metadata, store(), codec(), writeEmptyChunks);
    }

    @Override
    public boolean deleteChunk(long... chunkCoords) {
        grid().checkCoords(chunkCoords);
        store().delete(metadata.chunkKey(chunkCoords));
        return true;
    }

    @Override
    public Chunk readRegion(long[] offset, int[] shape) {
        return ChunkStores.readRegion(this, offset, shape);
    }

    @Override
    public BufferCopies bufferCopies() {
        // A compressed chunk in Fortran order is decoded to one array of its bytes first, whatever the codec.
        int codec = metadata.compressor() != null && metadata.order() == ZarrV2Metadata.Order.F
                ? 1
                : ZarrFormat.codecCopies(metadata.compressor());
        // In C order, a chunk read into other chunks is converted into them from its stored bytes (block by block for
        // Blosc, piece by piece for zstd, from the decompressed bytes the codec copy counts for other codecs; see
        // V2ChunkReads.readInto), never decoded into a chunk of its own.
        return BufferCopies.forStore(store().isObjectStore())
                .plus(codec)
                .readingInto(metadata.order() == ZarrV2Metadata.Order.C);
    }

    @Override
    public String toString() {
        return "ZarrArray{" + url + ", " + metadata + "}";
    }
}
