package io.cubed.storage.zarr;

import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.dtype.Scalar;
import io.cubed.error.CorruptDataException;
import io.cubed.error.InvalidArgumentException;
import io.cubed.error.StorageException;
import io.cubed.grid.ChunkGrid;
import io.cubed.memory.BufferCopies;
import io.cubed.memory.HeapProbe;
import io.cubed.storage.ChunkIo;
import io.cubed.storage.ChunkStores;
import io.cubed.storage.RangeRuns;
import io.cubed.storage.Store;
import io.cubed.storage.StoreOptions;
import io.cubed.storage.StoreSupplier;
import io.cubed.storage.fs.Stores;
import io.cubed.storage.zarr.codec.Codec;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * A Zarr v3 array ({@code zarr.json}) in a {@link Store}, read and written one stored chunk at a time.
 *
 * <p>For a sharded array ({@code sharding_indexed}) the {@link #grid() chunk grid} Cubed sees is the shard grid: a
 * task writes whole shards, so no two tasks write one shard, and {@link #readChunk} reads a whole shard. {@link
 * #readInnerChunk} and {@link #readRegion} read only the inner chunks they need, never the whole shard: the shard index
 * with one request, then the inner chunks' bytes with ranged reads (on object stores merged into runs and read
 * concurrently).
 */
public final class ZarrV3Array extends ZarrArrayCore {
    private static final long serialVersionUID = 1L;

    private final ZarrV3Metadata metadata;

    ZarrV3Array(String url, StoreSupplier supplier, ZarrV3Metadata metadata) {
        super(url, supplier);
        this.metadata = metadata;
    }

    /** Opens the v3 array at {@code url}. */
    public static ZarrV3Array open(String url, StoreOptions options) {
        Store store = Stores.supplier(url, options).open();
        byte[] bytes = store.get(ZarrV3Metadata.ZARR_JSON);
        if (bytes == null) {
            throw new StorageException("no Zarr v3 array at " + url + ": "
                    + MetadataDocuments.describe(url, ZarrV3Metadata.ZARR_JSON) + " is missing");
        }
        return withMetadata(url, options, bytes);
    }

    /** The v3 node at {@code url} whose {@code zarr.json} holds {@code bytes} (read by the caller), when an array. */
    static ZarrV3Array withMetadata(String url, StoreOptions options, byte[] bytes) {
        StoreSupplier supplier = Stores.supplier(url, options);
        String where = MetadataDocuments.describe(url, ZarrV3Metadata.ZARR_JSON);
        Map<?, ?> m = MetadataDocuments.parseObject(bytes, where);
        if ("group".equals(m.get("node_type"))) {
            throw new StorageException("no Zarr array at " + url + ": " + where + " describes a group");
        }
        return new ZarrV3Array(url, supplier, V3ArrayParser.parse(m, where));
    }

    /** Creates an array at {@code url} writing its {@code zarr.json}; an existing array is replaced only with overwrite. */
    public static ZarrV3Array create(String url, ZarrV3Metadata metadata, boolean overwrite, StoreOptions options) {
        return unwritten(url, metadata, overwrite, options, true).writeDocuments();
    }

    /**
     * The array {@link #create} makes, its place examined (unless {@code examine} is false: a place known to be new)
     * but nothing written, for {@link IncompleteMark#createMarked}: the attributes and dimension names it is set up
     * with and its mark go into the one {@code zarr.json} it then writes.
     */
    static ZarrV3Array unwritten(
            String url, ZarrV3Metadata metadata, boolean overwrite, StoreOptions options, boolean examine) {
        StoreSupplier supplier = Stores.supplier(url, options);
        if (examine) {
            ArrayCreation.clear(supplier.open(), url, overwrite, false);
        }
        ZarrV3Array a = new ZarrV3Array(url, supplier, metadata);
        a.unwritten = new Unwritten();
        return a;
    }

    /** Writes {@code zarr.json} with this copy's metadata, attributes and dimension names: one write. */
    @Override
    ZarrV3Array writeDocuments() {
        Unwritten u = unwritten;
        if (u == null || u.written) {
            return this;
        }
        u.begun = true;
        store().put(ZarrV3Metadata.ZARR_JSON, metadata.toJson().getBytes(StandardCharsets.UTF_8));
        u.written = true;
        return new ZarrV3Array(url, supplier, metadata);
    }

    /** This array with the metadata {@code m}: written to the store, or kept with the pending documents. */
    private ZarrV3Array withMetadataWritten(ZarrV3Metadata m) {
        ZarrV3Array a = new ZarrV3Array(url, supplier, m);
        if (documentsPending()) {
            a.unwritten = unwritten;
        } else {
            store().put(ZarrV3Metadata.ZARR_JSON, m.toJson().getBytes(StandardCharsets.UTF_8));
        }
        return a;
    }

    @Override
    String chunkKey(long[] chunkCoords) {
        return metadata.chunkKey(chunkCoords);
    }

    @Override
    boolean isChunkKey(String key) {
        return metadata.isChunkKey(key);
    }

    public ZarrV3Metadata metadata() {
        return metadata;
    }

    @Override
    public DType dtype() {
        return metadata.dtype();
    }

    /** The grid of stored chunks: the shard grid of a sharded array. */
    @Override
    public ChunkGrid grid() {
        return metadata.grid();
    }

    /** The grid of inner chunks of a sharded array (the stored chunk grid otherwise). */
    public ChunkGrid innerGrid() {
        V3Codec.Sharding s = metadata.shardingOnly();
        return s == null ? grid() : ChunkGrid.of(metadata.shape(), s.chunkShapeArray());
    }

    @Override
    public Scalar fillValue() {
        return metadata.fillValue();
    }

    /** The attributes in {@code zarr.json}. */
    public Map<String, Object> attributes() {
        return metadata.attributes();
    }

    /** Rewrites {@code zarr.json} with these attributes; returns the array with the new metadata. */
    public ZarrV3Array writeAttributes(Map<String, ?> attributes) {
        return withMetadataWritten(metadata.withAttributes(attributes));
    }

    /** Rewrites {@code zarr.json} with these {@code dimension_names}; returns the array with the new metadata. */
    public ZarrV3Array writeDimensionNames(java.util.List<String> names) {
        return withMetadataWritten(metadata.withDimensionNames(names));
    }

    /** The chunk (a whole shard when sharded) at {@code chunkCoords}, or null when it is not stored: one read. */
    @Override
    public Chunk readChunkIfStored(long... chunkCoords) {
        ChunkGrid grid = grid();
        grid.checkCoords(chunkCoords);
        String key = metadata.chunkKey(chunkCoords);
        int[] shape = grid.chunkShapeAt(chunkCoords);
        byte[] stored = readStored(key);
        if (stored == null) {
            return null;
        }
        Chunk full;
        try {
            // Checkpoints the heap (HeapProbe) once decoded, while the stored and decompressed bytes are live.
            full = V3Codecs.decode(
                    metadata.codecs(),
                    stored,
                    dtype(),
                    grid.chunkShape(),
                    fillValue(),
                    MetadataDocuments.describe(url, key),
                    true);
        } catch (StorageException e) {
            throw corrupt(key, e);
        } catch (IllegalArgumentException | IndexOutOfBoundsException e) {
            throw new CorruptDataException(
                    "corrupt chunk " + MetadataDocuments.describe(url, key) + ": " + e.getMessage(), e);
        }
        return EdgeChunks.clipped(full, shape);
    }

    /** The stored bytes at {@code key}: from a read started ahead ({@link #readAhead}) when there is one. */
    private byte[] readStored(String key) {
        io.cubed.storage.ChunkIo.Fetched ahead = io.cubed.storage.ChunkIo.takeAhead(store(), key);
        if (ahead == null) {
            return store().get(key);
        }
        Store.Bytes b = ahead.bytes();
        if (b == null) {
            return null;
        }
        return b.length() == b.array().length ? b.array() : Arrays.copyOf(b.array(), b.length());
    }

    /**
     * A bound of a stored chunk (a whole shard, when sharded: what {@link #readChunk} reads and a read started ahead
     * asks for): its raw size, and a margin for codec headers and a shard's index.
     */
    @Override
    int storedChunkBound() {
        long raw = dtype().itemSizeBytes();
        for (int c : grid().chunkShape()) {
            raw *= c;
        }
        return ReadAhead.storedChunkBound(raw + raw / 16);
    }

    private StorageException corrupt(String key, StorageException e) {
        String where = MetadataDocuments.describe(url, key);
        return e.getMessage().contains(where)
                ? e
                : new CorruptDataException("corrupt chunk " + where + ": " + e.getMessage(), e);
    }

    /**
     * Reads the inner chunk at {@code innerCoords} of the {@link #innerGrid()} (clipped at the array's edge) with ranged
     * reads: the shard index (the one the task slot keeps, if any: {@link #shardIndex}), then only that inner chunk's
     * bytes. Arrays that are not sharded by a single {@code sharding_indexed} codec read the whole stored chunk.
     */
    public Chunk readInnerChunk(long... innerCoords) {
        V3Codec.Sharding s = metadata.shardingOnly();
        if (s == null) {
            return readChunk(innerCoords);
        }
        ChunkGrid inner = innerGrid();
        inner.checkCoords(innerCoords);
        int[] innerShape = s.chunkShapeArray();
        int[] per = V3Codecs.chunksPerShard(s, metadata.chunks(), url);
        long[] shardCoords = new long[innerCoords.length];
        int flat = 0;
        for (int a = 0; a < innerCoords.length; a++) {
            shardCoords[a] = innerCoords[a] / per[a];
            flat = flat * per[a] + (int) (innerCoords[a] % per[a]);
        }
        String key = metadata.chunkKey(shardCoords);
        String where = MetadataDocuments.describe(url, key);
        int[] shape = inner.chunkShapeAt(innerCoords);
        long[] index = shardIndex(s, key, per, where);
        if (index == null) {
            return Chunk.full(dtype(), fillValue(), shape);
        }
        long off = index[2 * flat];
        long len = index[2 * flat + 1];
        if (off == V3Codecs.EMPTY && len == V3Codecs.EMPTY) {
            return Chunk.full(dtype(), fillValue(), shape);
        }
        byte[] bytes = store().getRange(key, off, (int) len);
        if (bytes == null) {
            throw new StorageException("shard " + where + " disappeared while it was read");
        }
        String innerWhere = where + " inner chunk " + Arrays.toString(innerCoords);
        Chunk full;
        try {
            // Checkpoints the heap (HeapProbe) with the inner chunk's bytes and the decoded inner chunk: a ranged
            // read never holds the shard.
            full = V3Codecs.decode(s.codecs(), bytes, dtype(), innerShape, fillValue(), innerWhere, true);
        } catch (StorageException e) {
            throw e.getMessage().contains(where) ? e : new StorageException(innerWhere + ": " + e.getMessage(), e);
        } catch (IllegalArgumentException | IndexOutOfBoundsException e) {
            throw new StorageException("corrupt " + innerWhere + ": " + e.getMessage(), e);
        }
        return EdgeChunks.clipped(full, shape);
    }

    /**
     * The index of the shard at {@code key} (offset and length of each inner chunk, {@link V3Codecs#EMPTY} for inner
     * chunks not stored), each entry checked against the shard's size; null when the shard is not stored. The index is
     * read with one request that also tells the shard's size on object stores: its last bytes ({@link Store#getTail})
     * or its first ({@link Store#getHead}).
     */
    private long[] readShardIndex(V3Codec.Sharding s, String key, int[] per, String where) {
        int idxSize = V3Codecs.indexSize(s, Chunk.elementCount(per));
        Store.Part part = s.indexAtEnd() ? store().getTail(key, idxSize) : store().getHead(key, idxSize);
        if (part == null) {
            return null;
        }
        long shardBytes = part.size();
        byte[] idx = part.bytes();
        if (shardBytes < idxSize) {
            throw new StorageException(
                    "corrupt shard " + where + ": " + shardBytes + " bytes cannot hold its " + idxSize + "-byte index");
        }
        long[] index = V3Codecs.decodeIndex(s, idx, per, where);
        for (int k = 0; k < index.length / 2; k++) {
            if (!(index[2 * k] == V3Codecs.EMPTY && index[2 * k + 1] == V3Codecs.EMPTY)) {
                V3Codecs.checkRange(index[2 * k], index[2 * k + 1], shardBytes, k, where);
            }
        }
        return index;
    }

    @Override
    public void writeChunk(Chunk chunk, long... chunkCoords) {
        ChunkGrid grid = grid();
        grid.checkCoords(chunkCoords);
        String key = metadata.chunkKey(chunkCoords);
        String where = MetadataDocuments.describe(url, key);
        EdgeChunks.checkWritten(chunk, dtype(), grid.chunkShapeAt(chunkCoords), where);
        Chunk full = EdgeChunks.padded(chunk, grid.chunkShape(), fillValue());
        V3Codec.Bytes bytes = inOrderBytes();
        if (bytes != null) {
            // bytes + a compressor that encodes in order (zstd): compressed from the elements a piece at a time.
            OrderedPuts.put(store(), key, where, inOrderCompressor(), ChunkBytes.view(full, bytes.byteOrder()), null);
            if (full != chunk) {
                io.cubed.chunk.ArrayRecycler.giveBack(full.data());
            }
            return;
        }
        V3Codec.Sharding sharding = metadata.shardingOnly();
        if (sharding != null && sharding.indexAtEnd() && store().putsInPieces()) {
            // A shard whose index comes last, to a store that writes pieces as they come (a local file): each inner
            // chunk goes to it as it is encoded, never the shard's bytes whole.
            if (full.isAll(fillValue())) {
                store().delete(key);
            } else {
                store().put(key, out -> {
                    try {
                        V3Codecs.writeShard(sharding, full, fillValue(), out);
                    } catch (RuntimeException e) {
                        throw new StorageException("cannot encode chunk " + where + ": " + e.getMessage(), e);
                    }
                });
            }
            return;
        }
        byte[] stored;
        try {
            // Checkpoints the heap (HeapProbe) once encoded, before the put: the chunk, its bytes, the encoded bytes.
            stored = V3Codecs.encode(metadata.codecs(), full, fillValue(), true);
        } catch (RuntimeException e) {
            throw new StorageException("cannot encode chunk " + where + ": " + e.getMessage(), e);
        }
        if (stored == null) {
            store().delete(key);
        } else {
            io.cubed.storage.ChunkIo.put(store(), key, stored, stored.length);
        }
    }

    /**
     * The {@code bytes} codec of a chain that is {@code bytes} then one compressor that {@linkplain
     * Codec#encodesInOrder encodes in order} (zstd, as {@code ZarrFormat.v3()} writes), whose chunks are compressed
     * from their elements a piece at a time; null for other chains.
     */
    private V3Codec.Bytes inOrderBytes() {
        V3Codec.Bytes b = V3Codecs.bytesThenCompressor(metadata.codecs());
        return b != null && inOrderCompressor().encodesInOrder() ? b : null;
    }

    /** The compressor of a chain for which {@link #inOrderBytes} holds. */
    private Codec inOrderCompressor() {
        return V3Codecs.byteCodec(metadata.codecs().get(1));
    }

    @Override
    public Object chunkEncoding() {
        return new ChunkEncoding(
                3,
                dtype(),
                metadata.codecs(),
                "C",
                Arrays.stream(metadata.chunks()).boxed().toList());
    }

    /**
     * The stored bytes of the chunk (a whole shard, when sharded) as they are; a chain of {@code bytes} alone must
     * give a full chunk's bytes, and one of {@code bytes} then a compressor passes the compressor's own check ({@link
     * Codec#checkEncoded}); other chains are not checked before they are decoded.
     */
    @Override
    public Store.Bytes readStoredChunk(long[] chunkCoords) {
        grid().checkCoords(chunkCoords);
        String key = metadata.chunkKey(chunkCoords);
        byte[] stored = readStored(key);
        if (stored == null) {
            return null;
        }
        List<V3Codec> codecs = metadata.codecs();
        long chunkBytes = chunkBytes();
        try {
            if (codecs.size() == 1 && codecs.get(0) instanceof V3Codec.Bytes && stored.length != chunkBytes) {
                throw new StorageException(
                        "it has " + stored.length + " bytes but an uncompressed chunk has " + chunkBytes);
            }
            if (V3Codecs.bytesThenCompressor(codecs) != null) {
                V3Codecs.byteCodec(codecs.get(1)).checkEncoded(stored, stored.length, Math.toIntExact(chunkBytes));
            }
        } catch (StorageException | IllegalArgumentException | IndexOutOfBoundsException | ArithmeticException e) {
            throw new CorruptDataException(
                    "corrupt chunk " + MetadataDocuments.describe(url, key) + ": " + e.getMessage(), e);
        }
        return new Store.Bytes(stored, stored.length);
    }

    /** The bytes of a full-size chunk's elements. */
    private long chunkBytes() {
        return (long) dtype().itemSizeBytes() * Chunk.elementCount(metadata.chunks());
    }

    /** True when the chain is {@code bytes} then a compressor that encodes in order (zstd): see {@link OrderedPuts}. */
    @Override
    public boolean writesFromStreams() {
        return inOrderBytes() != null && grid().ndim() > 0;
    }

    /**
     * A full-size chunk of an array that {@linkplain #writesFromStreams writes from streams} is compressed as the
     * stream's elements are taken ({@link StreamedRawBytes}); other chunks are gathered first.
     */
    @Override
    public void writeChunk(ChunkStream stream, long... chunkCoords) {
        ChunkGrid grid = grid();
        grid.checkCoords(chunkCoords);
        V3Codec.Bytes bytes = inOrderBytes();
        if (bytes == null || grid.ndim() == 0 || !Arrays.equals(grid.chunkShapeAt(chunkCoords), grid.chunkShape())) {
            super.writeChunk(stream, chunkCoords);
            return;
        }
        long chunkBytes = chunkBytes();
        ChunkStream.checkWritable(stream, this, chunkBytes, chunkCoords);
        String key = metadata.chunkKey(chunkCoords);
        String where = MetadataDocuments.describe(url, key);
        StreamedRawBytes raw = new StreamedRawBytes(stream, bytes.byteOrder(), null, "chunk " + where);
        OrderedPuts.put(store(), key, where, inOrderCompressor(), raw, raw);
    }

    /**
     * Reads a box of elements; a sharded array reads only the inner chunks the box touches, with ranged reads: per
     * shard its index ({@link #readShardIndex}), then the inner chunks' bytes. On stores where requests wait for the
     * network ({@link #readsRegionsInBatches}) the inner chunks' byte ranges are merged where they lie close in the
     * shard ({@link #MERGE_GAP_BYTES}) and read with up to the store's concurrency in flight, in batches of at most the
     * box's bytes; elsewhere one inner chunk at a time. Inner chunks that lie whole inside the box are decoded straight
     * into it.
     */
    @Override
    public Chunk readRegion(long[] offset, int[] shape) {
        return readRegion(offset, shape, null);
    }

    /** As {@link #readRegion(long[], int[])}; a sharded array reads only the {@code wanted} inner chunks of the box. */
    @Override
    public Chunk readRegion(long[] offset, int[] shape, long[][] wanted) {
        V3Codec.Sharding s = metadata.shardingOnly();
        if (s == null) {
            return ChunkStores.readRegion(this, offset, shape);
        }
        int nd = shape.length;
        long[] arrayShape = metadata.shape();
        for (int a = 0; a < nd; a++) {
            if (offset[a] < 0 || shape[a] < 0 || offset[a] + shape[a] > arrayShape[a]) {
                throw new InvalidArgumentException("region at " + Arrays.toString(offset) + " of shape "
                        + Arrays.toString(shape) + " lies outside " + url + " of shape " + Arrays.toString(arrayShape));
            }
        }
        Chunk out = Chunk.allocate(dtype(), shape);
        if (out.size() == 0) {
            return out;
        }
        new RegionRead(s, offset, out, wanted).run();
        return out;
    }

    /**
     * Byte gap between two inner chunks wanted from one shard below which they are read with one request, the gap's
     * bytes read and dropped: at cloud latency a request costs about as much time as a megabyte's transfer.
     */
    static final int MERGE_GAP_BYTES = 1 << 20;

    /**
     * Whether region reads gather inner chunks into batches of merged ranges read concurrently: on object stores and
     * stores with several requests in flight, where each request waits for the network; on local disk a request costs
     * no waiting, and one inner chunk at a time holds the least.
     */
    private boolean readsRegionsInBatches() {
        Store store = store();
        return store.isObjectStore() || store.concurrency() > 1;
    }

    /** One {@link #readRegion} of a sharded array into {@code out}, whose first element is at {@code offset}. */
    private final class RegionRead {
        private final V3Codec.Sharding s;
        private final long[] offset;
        private final Chunk out;
        private final int[] innerShape;
        private final int[] per;
        private final int nd;
        private final long[][] wanted;
        private Chunk fillInner;

        RegionRead(V3Codec.Sharding s, long[] offset, Chunk out, long[][] wanted) {
            this.s = s;
            this.offset = offset;
            this.out = out;
            this.wanted = wanted;
            this.innerShape = s.chunkShapeArray();
            this.per = V3Codecs.chunksPerShard(s, metadata.chunks(), url);
            this.nd = offset.length;
        }

        void run() {
            forEachShard(offset, out.shape(), per, innerShape, this::readShard);
        }

        /** Reads the inner chunks {@code lo..hi} (inclusive) of the shard at {@code shard} into the box. */
        private void readShard(long[] shard, long[] lo, long[] hi) {
            String key = metadata.chunkKey(shard);
            String where = MetadataDocuments.describe(url, key);
            long[] index = shardIndex(s, key, per, where);
            List<Piece> pieces = pieces(shard, lo, hi, wanted, index, per, c -> place(c, fillInner()));
            if (pieces.isEmpty()) {
                return;
            }
            if (!readsRegionsInBatches()) {
                for (Piece p : pieces) {
                    byte[] bytes = store().getRange(key, p.off(), p.len());
                    if (bytes == null) {
                        throw new StorageException("shard " + where + " disappeared while it was read");
                    }
                    decode(p, bytes, 0, where, true);
                }
                return;
            }
            long cap = batchBytes(out.shape());
            List<RangeRuns.Run> runs = runs(pieces, cap);
            int from = 0;
            while (from < runs.size()) {
                // One batch: runs of at most cap bytes in all (a single larger run on its own).
                int to = from;
                long bytes = 0;
                while (to < runs.size() && (to == from || bytes + runs.get(to).length() <= cap)) {
                    bytes += runs.get(to).length();
                    to++;
                }
                byte[][] got = fetch(key, where, runs.subList(from, to));
                boolean checkpoint = true;
                for (int r = from; r < to; r++) {
                    RangeRuns.Run run = runs.get(r);
                    byte[] b = got[r - from];
                    got[r - from] = null;
                    for (int m = run.first(); m < run.end(); m++) {
                        Piece p = pieces.get(m);
                        decode(p, b, Math.toIntExact(p.off() - run.offset()), where, checkpoint);
                        checkpoint = false;
                    }
                }
                from = to;
            }
        }

        /**
         * The bytes of each of {@code runs} of the shard at {@code key}: those read ahead by the task slot ({@link
         * ChunkIo#takeRangeAhead}), the others read now, together ({@link Store#getRanges}).
         */
        private byte[][] fetch(String key, String where, List<RangeRuns.Run> runs) {
            byte[][] got = new byte[runs.size()][];
            List<Store.Range> missing = new ArrayList<>();
            List<Integer> missingAt = new ArrayList<>();
            for (int r = 0; r < runs.size(); r++) {
                RangeRuns.Run run = runs.get(r);
                ChunkIo.Fetched ahead = ChunkIo.takeRangeAhead(store(), key, run.offset(), run.length());
                if (ahead == null) {
                    missing.add(new Store.Range(run.offset(), run.length()));
                    missingAt.add(r);
                } else if (ahead.bytes() == null) {
                    throw new StorageException("shard " + where + " disappeared while it was read");
                } else {
                    got[r] = ahead.bytes().array();
                }
            }
            if (!missing.isEmpty()) {
                List<byte[]> fetched = store().getRanges(key, missing);
                if (fetched == null) {
                    throw new StorageException("shard " + where + " disappeared while it was read");
                }
                for (int m = 0; m < missing.size(); m++) {
                    got[missingAt.get(m)] = fetched.get(m);
                }
            }
            return got;
        }

        /**
         * Decodes inner chunk {@code p}, whose bytes start at {@code at} in {@code bytes}, into the box: straight into
         * it when the inner chunk lies whole inside, else decoded on its own and its overlap copied.
         */
        private void decode(Piece p, byte[] bytes, int at, String where, boolean checkpoint) {
            String innerWhere = where + " inner chunk " + Arrays.toString(p.coords());
            int[] dst = new int[nd];
            boolean inside = true;
            for (int a = 0; a < nd; a++) {
                long start = p.coords()[a] * innerShape[a];
                inside &= start >= offset[a] && start + innerShape[a] <= offset[a] + out.shape(a);
                dst[a] = (int) (start - offset[a]);
            }
            try {
                Chunk full = null;
                if (inside) {
                    V3Codecs.decodeInto(
                            s.codecs(), bytes, at, p.len(), out, dst, innerShape, fillValue(), innerWhere, false);
                } else {
                    byte[] part =
                            at == 0 && bytes.length == p.len() ? bytes : Arrays.copyOfRange(bytes, at, at + p.len());
                    full = V3Codecs.decode(s.codecs(), part, dtype(), innerShape, fillValue(), innerWhere);
                    place(p.coords(), full);
                }
                if (checkpoint) {
                    // The first inner chunk of a read or batch, with the bytes read and any decoded inner chunk.
                    HeapProbe.checkpoint();
                    java.lang.ref.Reference.reachabilityFence(full);
                }
                java.lang.ref.Reference.reachabilityFence(bytes);
            } catch (StorageException e) {
                throw e.getMessage().contains(where) ? e : new StorageException(innerWhere + ": " + e.getMessage(), e);
            } catch (IllegalArgumentException | IndexOutOfBoundsException e) {
                throw new StorageException("corrupt " + innerWhere + ": " + e.getMessage(), e);
            }
        }

        /** Copies the part of {@code inner} (the full inner chunk at {@code coords}) that lies in the box. */
        private void place(long[] coords, Chunk inner) {
            int[] src = new int[nd];
            int[] dst = new int[nd];
            int[] ext = new int[nd];
            for (int a = 0; a < nd; a++) {
                long start = coords[a] * innerShape[a];
                long lo = Math.max(start, offset[a]);
                long hi = Math.min(start + innerShape[a], offset[a] + out.shape(a));
                src[a] = (int) (lo - start);
                dst[a] = (int) (lo - offset[a]);
                ext[a] = (int) (hi - lo);
            }
            Chunk.copyRegion(inner, src, out, dst, ext);
        }

        /** A full inner chunk of the fill value, made once: for inner chunks and shards not stored. */
        private Chunk fillInner() {
            if (fillInner == null) {
                fillInner = Chunk.full(dtype(), fillValue(), innerShape);
            }
            return fillInner;
        }
    }

    /** An inner chunk wanted, at {@code coords} of the inner grid, stored at {@code [off, off + len)} of its shard. */
    private record Piece(long[] coords, long off, int len) {}

    /** A shard's index ({@link #readShardIndex}), null entries when the shard is not stored. */
    private record ShardIndex(long[] entries) {}

    private interface ShardVisitor {
        void visit(long[] shard, long[] lo, long[] hi);
    }

    /**
     * Calls {@code visit} with each shard that the box of {@code shape} at {@code offset} touches, and the first and
     * last inner chunks (inclusive, coordinates of the inner grid) of the box in it, in C order.
     */
    private static void forEachShard(long[] offset, int[] shape, int[] per, int[] innerShape, ShardVisitor visit) {
        int nd = offset.length;
        long[] first = new long[nd];
        long[] last = new long[nd];
        long[] firstShard = new long[nd];
        long[] lastShard = new long[nd];
        for (int a = 0; a < nd; a++) {
            first[a] = offset[a] / innerShape[a];
            last[a] = (offset[a] + shape[a] - 1) / innerShape[a];
            firstShard[a] = first[a] / per[a];
            lastShard[a] = last[a] / per[a];
        }
        long[] shard = firstShard.clone();
        do {
            long[] lo = new long[nd];
            long[] hi = new long[nd];
            for (int a = 0; a < nd; a++) {
                lo[a] = Math.max(first[a], shard[a] * per[a]);
                hi[a] = Math.min(last[a], shard[a] * per[a] + per[a] - 1);
            }
            visit.visit(shard.clone(), lo, hi);
        } while (next(shard, firstShard, lastShard));
    }

    /**
     * The stored inner chunks {@code lo..hi} of the shard at {@code shard} with the index {@code index} (null: not
     * stored), sorted by their place in the shard; {@code notStored} gets the coordinates of each of the others.
     */
    private static List<Piece> pieces(
            long[] shard,
            long[] lo,
            long[] hi,
            long[][] wanted,
            long[] index,
            int[] per,
            java.util.function.Consumer<long[]> notStored) {
        int nd = shard.length;
        List<Piece> pieces = new ArrayList<>();
        long[] c = lo.clone();
        do {
            if (!isWanted(c, wanted)) {
                continue;
            }
            int flat = 0;
            for (int a = 0; a < nd; a++) {
                flat = flat * per[a] + (int) (c[a] - shard[a] * per[a]);
            }
            if (index == null || (index[2 * flat] == V3Codecs.EMPTY && index[2 * flat + 1] == V3Codecs.EMPTY)) {
                notStored.accept(c);
            } else {
                pieces.add(new Piece(c.clone(), index[2 * flat], (int) index[2 * flat + 1]));
            }
        } while (next(c, lo, hi));
        pieces.sort(java.util.Comparator.comparingLong(Piece::off));
        return pieces;
    }

    /** Whether the inner chunk at {@code c} is among {@code wanted} (per axis, sorted; null: all). */
    private static boolean isWanted(long[] c, long[][] wanted) {
        if (wanted == null) {
            return true;
        }
        for (int a = 0; a < c.length; a++) {
            if (wanted[a] != null && Arrays.binarySearch(wanted[a], c[a]) < 0) {
                return false;
            }
        }
        return true;
    }

    /**
     * {@code pieces} (sorted by offset) merged into runs ({@link RangeRuns#of}): a piece joins the run before it when
     * it starts at most {@link #MERGE_GAP_BYTES} after the run's end and the run stays within {@code cap} bytes. The
     * same pieces and cap always give the same runs, so that the runs read ahead ({@link #readRegionAhead}) are those
     * a read takes.
     */
    private static List<RangeRuns.Run> runs(List<Piece> pieces, long cap) {
        List<Store.Range> ranges = new ArrayList<>(pieces.size());
        for (Piece p : pieces) {
            ranges.add(new Store.Range(p.off(), p.len()));
        }
        return RangeRuns.of(ranges, MERGE_GAP_BYTES, cap);
    }

    /** The most stored bytes a region read of {@code shape} holds at once in batches: the box's, or an inner chunk's. */
    private long batchBytes(int[] shape) {
        long region = dtype().itemSizeBytes();
        for (int n : shape) {
            region *= n;
        }
        int[] inner = metadata.shardingOnly().chunkShapeArray();
        return Math.max(region, (long) Chunk.elementCount(inner) * dtype().itemSizeBytes());
    }

    /**
     * The index of the shard at {@code key}: the one the task slot bound to this thread keeps for its tasks (read once
     * per slot, perhaps started ahead: {@link ChunkIo#kept}), else read now.
     */
    private long[] shardIndex(V3Codec.Sharding s, String key, int[] per, String where) {
        CompletableFuture<ShardIndex> kept =
                ChunkIo.kept(store(), key, () -> new ShardIndex(readShardIndex(s, key, per, where)));
        if (kept == null) {
            return readShardIndex(s, key, per, where);
        }
        try {
            return kept.join().entries();
        } catch (CompletionException e) {
            Throwable c = e.getCause() == null ? e : e.getCause();
            if (c instanceof RuntimeException r) {
                throw r;
            }
            throw new StorageException("cannot read the index of shard " + where + ": " + c, c);
        }
    }

    /** The byte ranges a region read of the {@code wanted} inner chunks {@code lo..hi} of {@code shard} reads: its runs. */
    private static List<Store.Range> aheadRanges(
            long[] shard, long[] lo, long[] hi, long[][] wanted, ShardIndex index, int[] per, long cap) {
        if (index.entries() == null) {
            return List.of();
        }
        List<Store.Range> ranges = new ArrayList<>();
        for (RangeRuns.Run run : runs(pieces(shard, lo, hi, wanted, index.entries(), per, c -> {}), cap)) {
            ranges.add(new Store.Range(run.offset(), run.length()));
        }
        return ranges;
    }

    /**
     * A sharded array's region reads keep at most the store's concurrency of runs in flight, each of at most a region's
     * bytes or an inner chunk's ({@link #batchBytes}), with the margin of a stored chunk ({@link ReadAhead#storedChunkBound}).
     */
    @Override
    public long regionInFlightBytes(int[] regionShape) {
        if (metadata.shardingOnly() == null) {
            return inFlightBytes();
        }
        long raw = batchBytes(regionShape);
        return ReadAhead.inFlightBytes(store(), ReadAhead.storedChunkBound(raw));
    }

    /**
     * Starts reading ahead, through the task slot bound to this thread, what {@link #readRegion} of this box will read:
     * the index of each shard it touches (kept by the slot for its tasks), and, for shards whose index is already
     * there, the runs of inner chunks the read will take. Chunks of an array that is not sharded are read ahead whole.
     */
    @Override
    public void readRegionAhead(long[] offset, int[] shape) {
        readRegionAhead(offset, shape, null);
    }

    @Override
    public void readRegionAhead(long[] offset, int[] shape, long[][] wanted) {
        V3Codec.Sharding s = metadata.shardingOnly();
        if (s == null) {
            super.readRegionAhead(offset, shape);
            return;
        }
        Store store = store();
        if (!ChunkIo.servesCurrent(store)) {
            return;
        }
        long[] arrayShape = metadata.shape();
        for (int a = 0; a < shape.length; a++) {
            if (offset[a] < 0 || shape[a] <= 0 || offset[a] + shape[a] > arrayShape[a]) {
                return;
            }
        }
        int[] per = V3Codecs.chunksPerShard(s, metadata.chunks(), url);
        int[] innerShape = s.chunkShapeArray();
        long cap = batchBytes(shape);
        forEachShard(offset, shape, per, innerShape, (shard, lo, hi) -> {
            String key = metadata.chunkKey(shard);
            String where = MetadataDocuments.describe(url, key);
            CompletableFuture<ShardIndex> index =
                    ChunkIo.kept(store, key, () -> new ShardIndex(readShardIndex(s, key, per, where)));
            if (index == null || index.isCompletedExceptionally()) {
                return;
            }
            if (index.isDone()) {
                for (Store.Range r : aheadRanges(shard, lo, hi, wanted, index.join(), per, cap)) {
                    ChunkIo.readRangeAhead(store, key, r.offset(), r.length());
                }
            } else {
                // The index is being read: its inner chunks are named once it is there.
                ChunkIo.readRangesAheadLater(store, key, index, i -> aheadRanges(shard, lo, hi, wanted, i, per, cap));
            }
        });
    }

    /** Steps {@code c} to the next coordinates of the box {@code lo..hi} (inclusive) in C order; false past its end. */
    private static boolean next(long[] c, long[] lo, long[] hi) {
        for (int a = c.length - 1; a >= 0; a--) {
            if (c[a] < hi[a]) {
                c[a]++;
                return true;
            }
            c[a] = lo[a];
        }
        return false;
    }

    /** The inner chunk shape of a sharded array, whose inner chunks are read with ranged reads; else the chunk shape. */
    @Override
    public int[] readableChunkShape() {
        return innerGrid().chunkShape();
    }

    /**
     * What a region read of a sharded array ({@link #readRegion}) holds besides the box, in boxes of {@code regionShape}
     * rounded up: the stored bytes it has read (as many copies as the store's reads hold), which are one inner chunk's
     * where inner chunks are read one at a time and up to the box's bytes (at least an inner chunk's) where they are
     * read in batches ({@link #readsRegionsInBatches}); and per inner chunk decoded, its stored bytes copied out or the
     * inner chunk decoded on its own (one), a compressor's decompressed bytes unless it decodes in order (zstd), a
     * chain's other temporaries (transposes, checksums, nested shards: one more), and at the array's edge the decoded
     * inner chunk whose overlap is copied.
     */
    @Override
    public int regionReadCopies(int[] regionShape) {
        V3Codec.Sharding s = metadata.shardingOnly();
        if (s == null) {
            return bufferCopies().read();
        }
        int storeCopies = BufferCopies.forStore(store().isObjectStore()).read();
        int perInner = 1 + ZarrFormat.innerDecodeTemporaries(s.codecs());
        int[] inner = s.chunkShapeArray();
        long[] shape = metadata.shape();
        long innerElements = 1;
        long regionElements = 1;
        boolean edges = false;
        for (int a = 0; a < inner.length; a++) {
            innerElements *= inner[a];
            regionElements *= Math.max(1, regionShape[a]);
            edges |= shape[a] % inner[a] != 0;
        }
        if (edges) {
            perInner++;
        }
        long stored = storeCopies * (readsRegionsInBatches() ? Math.max(regionElements, innerElements) : innerElements);
        long held = stored + perInner * innerElements;
        return (int) ((held + regionElements - 1) / regionElements);
    }

    @Override
    public BufferCopies bufferCopies() {
        Store store = store();
        BufferCopies forStore = BufferCopies.forStore(store.isObjectStore());
        V3Codec.Sharding s = metadata.shardingOnly();
        return s == null
                ? forStore.plus(ZarrFormat.v3CodecCopies(metadata.codecs()))
                : forStore.plus(ZarrFormat.v3ShardCopies(s, metadata.chunks(), store.putsInPieces()));
    }

    @Override
    public String toString() {
        return "ZarrV3Array{" + url + ", " + metadata + "}";
    }
}
