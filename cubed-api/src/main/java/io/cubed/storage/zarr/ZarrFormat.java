package io.cubed.storage.zarr;

import io.cubed.dtype.DType;
import io.cubed.dtype.Scalar;
import io.cubed.error.InvalidArgumentException;
import io.cubed.grid.ChunkGrid;
import io.cubed.storage.ChunkStore;
import io.cubed.storage.StoreOptions;
import io.cubed.storage.zarr.blosc.BloscShuffle;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * The Zarr format {@code toZarr} and {@code Cubed.store} write targets in: {@link #v2()} (the default: {@code .zarray},
 * Blosc LZ4), {@link #v3()} ({@code zarr.json}, bytes + zstd as zarr-python 3 writes), {@link #v3Sharded} (each Cubed
 * chunk of the array written is one shard of inner chunks of the given shape) or {@link #v3(List, Scalar)} (any codec
 * chain). {@link #of} gives the format of an existing array, and {@link #withVersion}, {@link #withCompressor} and
 * {@link #withFillValue} derive others from it, e.g. for a copy in another format or with another codec.
 *
 * <p>In Zarr v3 the {@code blosc} codec's {@code typesize} is set to the item size of the array created, as
 * zarr-python 3 sets it.
 */
public final class ZarrFormat implements Serializable {
    private static final long serialVersionUID = 2L;

    private final int version;
    private final Compressor compressor; // v2: null is uncompressed
    private final Scalar fillValue; // null: v2's "no fill value"
    private final List<V3Codec> codecs; // v3 only
    private final String separator; // v2: dimension separator; v3: chunk key separator
    private final boolean v2KeyEncoding; // v3 only

    private ZarrFormat(
            int version,
            Compressor compressor,
            Scalar fillValue,
            List<V3Codec> codecs,
            String separator,
            boolean v2KeyEncoding) {
        this.version = version;
        this.compressor = compressor;
        this.fillValue = fillValue;
        this.codecs = codecs == null ? null : List.copyOf(codecs);
        this.separator = separator;
        this.v2KeyEncoding = v2KeyEncoding;
    }

    /** Zarr v2, Cubed's default. */
    public static ZarrFormat v2() {
        return v2(Compressor.defaultCompressor(), Scalar.zero());
    }

    /**
     * Zarr v2 with {@code compressor} (null: uncompressed) and {@code fillValue} (checked against the array's data
     * type when the array is created), e.g. to keep a source array's codec and fill value in a copy.
     */
    public static ZarrFormat v2(Compressor compressor, Scalar fillValue) {
        return new ZarrFormat(2, compressor, Objects.requireNonNull(fillValue, "fillValue"), null, ".", false);
    }

    /** Zarr v3 with one stored chunk per Cubed chunk, codecs bytes (little-endian) then zstd. */
    public static ZarrFormat v3() {
        return v3(ZarrV3Metadata.defaultCodecs(), Scalar.zero());
    }

    /**
     * Zarr v3 with the codec chain {@code codecs} and {@code fillValue}. When the chain shards, every Cubed chunk of
     * the array written is one shard, and the inner chunk shape must divide the array's chunk shape.
     */
    public static ZarrFormat v3(List<V3Codec> codecs, Scalar fillValue) {
        try {
            V3Codec.checkOrder(codecs, "a Zarr v3 format");
        } catch (io.cubed.error.StorageException e) {
            throw new InvalidArgumentException(e.getMessage(), e);
        }
        return new ZarrFormat(3, null, Objects.requireNonNull(fillValue, "fillValue"), codecs, "/", false);
    }

    /**
     * Zarr v3 sharded: every Cubed chunk of the array written becomes one shard (so one task writes each shard and no
     * two tasks write the same one), holding inner chunks of {@code innerChunks} (bytes + zstd, index at the end with
     * crc32c). {@code innerChunks} must divide the array's chunk shape; rechunk first to choose the shard size.
     */
    public static ZarrFormat v3Sharded(int... innerChunks) {
        for (int c : innerChunks) {
            if (c < 1) {
                throw new InvalidArgumentException(
                        "inner chunks " + Arrays.toString(innerChunks) + " must be positive");
            }
        }
        return v3(ZarrV3Metadata.sharding(innerChunks, List.of(new V3Codec.Zstd(0, false))), Scalar.zero());
    }

    /**
     * The format of the Zarr array {@code array} (a {@link ZarrArray} or a {@link ZarrV3Array}): its version, its
     * compressor or codecs, its fill value and its chunk key layout.
     */
    public static ZarrFormat of(ChunkStore array) {
        if (array instanceof ZarrArray z) {
            ZarrV2Metadata m = z.metadata();
            return new ZarrFormat(2, m.compressor(), m.fillValue(), null, m.dimensionSeparator(), false);
        }
        if (array instanceof ZarrV3Array z) {
            ZarrV3Metadata m = z.metadata();
            return new ZarrFormat(3, null, m.fillValue(), m.codecs(), m.separator(), m.v2KeyEncoding());
        }
        throw new InvalidArgumentException(array.url() + " is not a Zarr array");
    }

    public int version() {
        return version;
    }

    /** The inner chunk shape of a format that shards with one {@code sharding_indexed} codec, or null. */
    public int[] innerChunks() {
        V3Codec.Sharding s = codecs == null ? null : shardingOnly(codecs);
        return s == null ? null : s.chunkShapeArray();
    }

    /** The v3 codec chain, or null for v2. */
    public List<V3Codec> codecs() {
        return codecs;
    }

    /**
     * The compressor: v2's own, or for v3 the v2 compressor equal to the first gzip, zstd or blosc codec of the chain
     * (of the inner chunks' chain when it shards); null when uncompressed.
     */
    public Compressor compressor() {
        return version == 2 ? compressor : v2Compressor(codecs);
    }

    /** The fill value; null only for a v2 array without one ({@code fill_value: null}). */
    public Scalar fillValue() {
        return fillValue;
    }

    /**
     * This format in Zarr {@code version} (2 or 3); unchanged when it is already. To v3: bytes (little-endian) then
     * the compressor as a v3 codec (zlib, lz4 and bz2 have none: refused); to v2: the chain's {@link #compressor()}
     * (transposes, checksums and sharding are dropped: the values are the same). The chunk keys take the new
     * version's default layout and a missing v2 fill value becomes zero.
     */
    public ZarrFormat withVersion(int version) {
        if (version != 2 && version != 3) {
            throw new InvalidArgumentException("Zarr format version must be 2 or 3, got " + version);
        }
        if (version == this.version) {
            return this;
        }
        if (version == 2) {
            return new ZarrFormat(2, v2Compressor(codecs), fillValue, null, ".", false);
        }
        List<V3Codec> chain = new ArrayList<>();
        chain.add(new V3Codec.Bytes(false));
        if (compressor != null) {
            chain.add(v3Codec(compressor));
        }
        return new ZarrFormat(3, null, fillValue == null ? Scalar.zero() : fillValue, chain, "/", false);
    }

    /**
     * This format with {@code compressor} (null: none) in place of its compression: v2's compressor, or in v3 every
     * gzip, zstd or blosc codec of the chain, the new one going right after {@code bytes} (inside the shards when it
     * shards); zlib, lz4 and bz2 have no v3 codec and are refused for v3.
     */
    public ZarrFormat withCompressor(Compressor compressor) {
        if (version == 2) {
            return new ZarrFormat(2, compressor, fillValue, null, separator, false);
        }
        V3Codec c = compressor == null ? null : v3Codec(compressor);
        return new ZarrFormat(3, null, fillValue, replaceCompressor(codecs, c), separator, v2KeyEncoding);
    }

    /** This format with {@code fillValue} (checked against the array's data type when it is created). */
    public ZarrFormat withFillValue(Scalar fillValue) {
        return new ZarrFormat(
                version, compressor, Objects.requireNonNull(fillValue, "fillValue"), codecs, separator, v2KeyEncoding);
    }

    /**
     * Checks that an array of {@code shape}, {@code chunks} and {@code dtype} can be written at {@code url} in this
     * format (e.g. that sharding's inner chunks divide the chunks) without writing anything.
     */
    public void check(String url, long[] shape, int[] chunks, DType dtype) {
        if (version == 2) {
            v2Options(url, shape, chunks, dtype, false);
        } else {
            v3Metadata(url, shape, chunks, dtype);
        }
    }

    /** The {@code .zarray} contents of an array of {@code shape}, {@code chunks} and {@code dtype} in this v2 format. */
    public ZarrV2Metadata v2Metadata(long[] shape, int[] chunks, DType dtype) {
        if (version != 2) {
            throw new IllegalStateException("not a Zarr v2 format: " + this);
        }
        return v2Options(shape, chunks, dtype, false).toMetadata();
    }

    /** The {@code zarr.json} contents of an array of {@code shape}, {@code chunks} and {@code dtype} in this v3 format. */
    public ZarrV3Metadata v3Metadata(String url, long[] shape, int[] chunks, DType dtype) {
        if (version != 3) {
            throw new IllegalStateException("not a Zarr v3 format: " + this);
        }
        V3Codec.Sharding s = shardingOnly(codecs);
        if (s != null) {
            int[] inner = s.chunkShapeArray();
            if (inner.length != chunks.length) {
                throw new InvalidArgumentException("cannot write " + url + " sharded: inner chunks "
                        + Arrays.toString(inner) + " do not have the rank of its chunks " + Arrays.toString(chunks));
            }
            for (int a = 0; a < chunks.length; a++) {
                if (chunks[a] % inner[a] != 0) {
                    throw new InvalidArgumentException("cannot write " + url + " sharded: inner chunks "
                            + Arrays.toString(inner) + " do not divide its chunks (the shards) "
                            + Arrays.toString(chunks) + "; rechunk it to a multiple of the inner chunks first");
                }
            }
        }
        try {
            return ZarrV3Metadata.create(
                    shape,
                    chunks,
                    dtype,
                    fillValue,
                    withTypesize(codecs, dtype.itemSizeBytes()),
                    v2KeyEncoding,
                    separator);
        } catch (InvalidArgumentException e) {
            throw new InvalidArgumentException("cannot write " + url + ": " + e.getMessage(), e);
        }
    }

    /**
     * The chunk-sized buffers the codecs of this format hold besides the stored bytes and the chunk (for the memory
     * projection, {@link io.cubed.memory.BufferCopies#plus}): 0 for no compressor, for Zarr v2 Blosc (decoded and
     * encoded block by block) and for zstd (v2, or v3 {@code bytes} + {@code zstd}: compressed and decompressed piece by
     * piece), 1 for any other compressor, whose element bytes are one more array.
     */
    public int codecCopies() {
        return version == 2 ? codecCopies(compressor) : v3CodecCopies(codecs);
    }

    /** {@link #codecCopies()} of a Zarr v2 array compressed with {@code compressor} (null: none). */
    static int codecCopies(Compressor compressor) {
        return compressor == null || compressor instanceof Compressor.Blosc || compressor instanceof Compressor.Zstd
                ? 0
                : 1;
    }

    /**
     * {@link #codecCopies()} of a Zarr v3 codec chain: 0 for {@code bytes} + {@code zstd}, else 1 when any codec
     * compresses (its input is one more array).
     */
    static int v3CodecCopies(List<V3Codec> codecs) {
        if (V3Codecs.bytesThenCompressor(codecs) != null && codecs.get(1) instanceof V3Codec.Zstd) {
            // Compressed and decompressed piece by piece, straight from and into the chunk's elements.
            return 0;
        }
        for (V3Codec c : codecs) {
            if (c instanceof V3Codec.Sharding s) {
                if (v3CodecCopies(s.codecs()) > 0) {
                    return 1;
                }
            } else if (c instanceof V3Codec.Gzip || c instanceof V3Codec.Zstd || c instanceof V3Codec.Blosc) {
                return 1;
            }
        }
        return 0;
    }

    /**
     * The chunk-sized buffers the codecs of this format hold besides the stored bytes and the chunk, reading and
     * writing chunks of {@code chunkShape} on a store that does or does not {@linkplain
     * io.cubed.storage.Store#putsInPieces write pieces as they come}: {@link #codecCopies()} for both, but for a
     * sharded Zarr v3 chain, whose figures depend on how many inner chunks a shard holds ({@link #v3ShardCopies}).
     */
    public io.cubed.memory.BufferCopies codecCopies(int[] chunkShape, boolean putsInPieces) {
        if (version == 3 && codecs.size() == 1 && codecs.get(0) instanceof V3Codec.Sharding s) {
            return v3ShardCopies(s, chunkShape, putsInPieces);
        }
        int c = codecCopies();
        return new io.cubed.memory.BufferCopies(c, c, readsInto());
    }

    /**
     * Whether arrays of this format read a chunk into other chunks with no decoded chunk of its own ({@link
     * io.cubed.memory.BufferCopies#readsInto}): Zarr v2, which this format writes in C order; Zarr v3 reads the chunk
     * first.
     */
    public boolean readsInto() {
        return version == 2;
    }

    /**
     * The copies a task holds besides the stored shard and the decoded shard, reading and writing a shard of {@code
     * shardShape} with {@code s}, counted in inner chunks and rounded up to whole shards (V3Codecs.decodeInner and
     * writeShard say what each chain holds):
     *
     * <ul>
     *   <li>reading, per inner chunk decoded straight into the shard: nothing for {@code bytes} alone, its compressed
     *       bytes for {@code bytes} then a compressor that decodes in order (zstd), those and its decompressed bytes for
     *       another compressor, and those and the decoded inner chunk for other chains;
     *   <li>writing as a stream (index at the end, a store that writes pieces: a local file): one inner chunk, and for
     *       a chain other than {@code bytes} alone or with an in-order compressor its element bytes, compressed bytes
     *       and checksummed copy; the shard's stored bytes are never held, so the copy the store's figure counts for
     *       them covers the first shard's worth;
     *   <li>writing into one array (elsewhere): one inner chunk, with, unless {@code bytes} alone, its element bytes and
     *       compressed bytes (in an array, whatever the compressor), and the encoded inner chunks gathered (a stored
     *       shard) besides that array.
     * </ul>
     */
    static io.cubed.memory.BufferCopies v3ShardCopies(V3Codec.Sharding s, int[] shardShape, boolean putsInPieces) {
        List<V3Codec> inner = s.codecs();
        boolean bytesOnly = inner.size() == 1 && inner.get(0) instanceof V3Codec.Bytes;
        V3Codec.Bytes compressed = V3Codecs.bytesThenCompressor(inner);
        boolean inOrderEncode =
                compressed != null && V3Codecs.byteCodec(inner.get(1)).encodesInOrder();
        // Decoded in place: nothing for bytes alone, else the inner chunk's compressed bytes copied out, and what
        // decoding them holds.
        int readInner = bytesOnly ? 0 : 1 + innerDecodeTemporaries(inner);
        int writeInner = bytesOnly || inOrderEncode ? 1 : 4;
        long shardElements = 1;
        long innerElements = 1;
        int[] innerShape = s.chunkShapeArray();
        for (int a = 0; a < shardShape.length; a++) {
            shardElements *= shardShape[a];
            innerElements *= a < innerShape.length ? innerShape[a] : 1;
        }
        int read = wholeShards(readInner, innerElements, shardElements);
        int write = s.indexAtEnd() && putsInPieces
                ? Math.max(0, wholeShards(writeInner, innerElements, shardElements) - 1)
                : 1 + wholeShards(bytesOnly ? 1 : 4, innerElements, shardElements);
        return new io.cubed.memory.BufferCopies(read, write);
    }

    /**
     * Inner chunks' worth of arrays that decoding one inner chunk of the chain {@code inner} holds besides its stored
     * bytes and the array it goes into: none for {@code bytes} alone or {@code bytes} then a compressor that decodes in
     * order (zstd), the decompressed bytes (1) for another compressor, and those and the decoded inner chunk (2) for
     * other chains (transposes, checksums, nested shards), which decode it on its own.
     */
    static int innerDecodeTemporaries(List<V3Codec> inner) {
        if (inner.size() == 1 && inner.get(0) instanceof V3Codec.Bytes) {
            return 0;
        }
        if (V3Codecs.bytesThenCompressor(inner) == null) {
            return 2;
        }
        return V3Codecs.byteCodec(inner.get(1)).decodesInOrder() ? 0 : 1;
    }

    /** {@code count} inner chunks of {@code innerElements} in whole shards of {@code shardElements}, rounded up. */
    private static int wholeShards(int count, long innerElements, long shardElements) {
        if (count == 0 || shardElements == 0) {
            return 0;
        }
        return (int) ((count * innerElements + shardElements - 1) / shardElements);
    }

    /**
     * The array {@link #create} would make at {@code url}, without writing or reading anything: for the checks a command
     * makes before it writes (its tasks' projected memory, say), so that a refused command leaves no array behind.
     */
    public ChunkStore describe(String url, ChunkGrid grid, DType dtype, StoreOptions options) {
        io.cubed.storage.StoreSupplier supplier = io.cubed.storage.fs.Stores.supplier(url, options);
        if (version == 2) {
            return ZarrArray.withMetadata(
                    url,
                    supplier,
                    v2Options(url, grid.shape(), grid.chunkShape(), dtype, false)
                            .toMetadata(),
                    java.util.Map.of());
        }
        return new ZarrV3Array(url, supplier, v3Metadata(url, grid.shape(), grid.chunkShape(), dtype));
    }

    /** Creates an array of {@code grid} and {@code dtype} at {@code url} in this format. */
    public ChunkStore create(String url, ChunkGrid grid, DType dtype, boolean overwrite, StoreOptions options) {
        return unwritten(url, grid, dtype, overwrite, true, options).writeDocuments();
    }

    /**
     * {@link #create} without {@code overwrite}, at a place the caller knows to hold nothing: one it has just made its
     * own (a computation's new directory of intermediates), or one it has just found empty ({@link
     * Zarr#examinePlace}, {@link Zarr.PlaceForArray#isNew}) with nothing of its own written there since. What is there
     * is not examined again, which on an object store is a listing, a round trip.
     */
    public ChunkStore createAtNewPlace(String url, ChunkGrid grid, DType dtype, StoreOptions options) {
        return unwritten(url, grid, dtype, false, false, options).writeDocuments();
    }

    /**
     * The array {@link #create} would make, its place examined (and cleared with {@code overwrite}) but nothing
     * written yet: for {@link IncompleteMark#createMarked}, which sets it up, marks it and then writes each of its
     * documents once (Zarr v3: one {@code zarr.json} with the attributes, the dimension names and the mark, where
     * writing them one by one took four writes; v2: {@code .zattrs}, then {@code .zarray}). It is no array in the store
     * until then.
     */
    public ChunkStore unwritten(String url, ChunkGrid grid, DType dtype, boolean overwrite, StoreOptions options) {
        return unwritten(url, grid, dtype, overwrite, true, options);
    }

    /** {@link #unwritten} at a place known to hold nothing, not examined: see {@link #createAtNewPlace}. */
    public ChunkStore unwrittenAtNewPlace(String url, ChunkGrid grid, DType dtype, StoreOptions options) {
        return unwritten(url, grid, dtype, false, false, options);
    }

    private ZarrArrayCore unwritten(
            String url, ChunkGrid grid, DType dtype, boolean overwrite, boolean examine, StoreOptions options) {
        // Nothing is written with a codec this JVM cannot run.
        if (compressor != null) {
            compressor.requireUsable(url);
        }
        if (version == 2) {
            return ZarrArray.unwritten(
                    url, v2Options(url, grid.shape(), grid.chunkShape(), dtype, overwrite), options, examine);
        }
        return ZarrV3Array.unwritten(
                url, v3Metadata(url, grid.shape(), grid.chunkShape(), dtype), overwrite, options, examine);
    }

    /** {@link #v2Options(long[], int[], DType, boolean)}, its refusal (a fill value of another type) naming {@code url}. */
    private ZarrCreateOptions v2Options(String url, long[] shape, int[] chunks, DType dtype, boolean overwrite) {
        try {
            return v2Options(shape, chunks, dtype, overwrite);
        } catch (InvalidArgumentException e) {
            throw new InvalidArgumentException("cannot write " + url + ": " + e.getMessage(), e);
        }
    }

    private ZarrCreateOptions v2Options(long[] shape, int[] chunks, DType dtype, boolean overwrite) {
        return ZarrCreateOptions.builder(shape, chunks, dtype)
                .compressor(compressor)
                .fillValue(fillValue)
                .dimensionSeparator(separator)
                .overwrite(overwrite)
                .build();
    }

    private static V3Codec.Sharding shardingOnly(List<V3Codec> chain) {
        return chain.size() == 1 && chain.get(0) instanceof V3Codec.Sharding s ? s : null;
    }

    /** The v3 codec of a v2 compressor: gzip, zstd and blosc have one (autoshuffle becomes shuffle). */
    private static V3Codec v3Codec(Compressor c) {
        if (c instanceof Compressor.Gzip g) {
            return new V3Codec.Gzip(g.level());
        }
        if (c instanceof Compressor.Zstd z) {
            return new V3Codec.Zstd(z.level(), z.checksum());
        }
        if (c instanceof Compressor.Blosc b) {
            BloscShuffle shuffle = b.shuffle() == BloscShuffle.AUTOSHUFFLE ? BloscShuffle.SHUFFLE : b.shuffle();
            return new V3Codec.Blosc(b.cname(), b.clevel(), shuffle, 1, b.blocksize());
        }
        throw new InvalidArgumentException("the " + c.id().jsonId() + " compressor has no Zarr v3 codec: v3 arrays "
                + "are compressed with gzip, zstd or blosc, or not at all");
    }

    /** The v2 compressor of the first gzip, zstd or blosc codec of {@code chain}, inner chains first; null if none. */
    private static Compressor v2Compressor(List<V3Codec> chain) {
        for (V3Codec c : chain) {
            if (c instanceof V3Codec.Sharding s) {
                Compressor inner = v2Compressor(s.codecs());
                if (inner != null) {
                    return inner;
                }
            } else if (c instanceof V3Codec.Gzip g) {
                return new Compressor.Gzip(g.level());
            } else if (c instanceof V3Codec.Zstd z) {
                return new Compressor.Zstd(z.level(), z.checksum());
            } else if (c instanceof V3Codec.Blosc b) {
                return new Compressor.Blosc(b.cname(), b.clevel(), b.shuffle(), b.blocksize());
            }
        }
        return null;
    }

    /** {@code chain} without its gzip, zstd and blosc codecs, {@code compressor} (if any) right after {@code bytes}. */
    private static List<V3Codec> replaceCompressor(List<V3Codec> chain, V3Codec compressor) {
        List<V3Codec> out = new ArrayList<>();
        for (V3Codec c : chain) {
            if (c instanceof V3Codec.Sharding s) {
                out.add(new V3Codec.Sharding(
                        s.chunkShape(), replaceCompressor(s.codecs(), compressor), s.indexCodecs(), s.indexAtEnd()));
            } else if (!(c instanceof V3Codec.Gzip || c instanceof V3Codec.Zstd || c instanceof V3Codec.Blosc)) {
                out.add(c);
                if (c instanceof V3Codec.Bytes && compressor != null) {
                    out.add(compressor);
                }
            }
        }
        return out;
    }

    /** {@code chain} with every blosc codec's typesize set to {@code itemSize}. */
    private static List<V3Codec> withTypesize(List<V3Codec> chain, int itemSize) {
        List<V3Codec> out = new ArrayList<>();
        for (V3Codec c : chain) {
            if (c instanceof V3Codec.Sharding s) {
                out.add(new V3Codec.Sharding(
                        s.chunkShape(), withTypesize(s.codecs(), itemSize), s.indexCodecs(), s.indexAtEnd()));
            } else if (c instanceof V3Codec.Blosc b) {
                out.add(new V3Codec.Blosc(b.cname(), b.clevel(), b.shuffle(), itemSize, b.blocksize()));
            } else {
                out.add(c);
            }
        }
        return out;
    }

    @Override
    public String toString() {
        if (version == 2) {
            return "zarr v2 (" + (compressor == null ? "uncompressed" : compressor) + ", fill " + fillValue + ")";
        }
        int[] inner = innerChunks();
        String shape = inner == null ? "" : " sharded " + Arrays.toString(inner);
        return "zarr v3" + shape + " (codecs " + V3Codec.toJsonList(codecs) + ", fill " + fillValue + ")";
    }
}
