package io.cubed.storage.zarr;

import io.cubed.dtype.DType;
import io.cubed.dtype.Scalar;
import io.cubed.error.InvalidArgumentException;
import io.cubed.grid.ChunkGrid;
import io.cubed.storage.ChunkStore;
import io.cubed.storage.StoreOptions;
import java.io.Serializable;
import java.util.Arrays;
import java.util.List;

/**
 * The Zarr format {@code toZarr} and {@code Cubed.store} write targets in: {@link #v2()} (the default: {@code .zarray},
 * Blosc LZ4), {@link #v3()} ({@code zarr.json}, bytes + zstd as zarr-python 3 writes) or {@link #v3Sharded} (each
 * Cubed chunk of the array written is one shard of inner chunks of the given shape).
 */
public final class ZarrFormat implements Serializable {
    private static final long serialVersionUID = 1L;

    private final int version;
    private final int[] innerChunks;
    private final Compressor compressor;
    private final Scalar fillValue;

    private ZarrFormat(int version, int[] innerChunks, Compressor compressor, Scalar fillValue) {
        this.version = version;
        this.innerChunks = innerChunks;
        this.compressor = compressor;
        this.fillValue = fillValue;
    }

    private ZarrFormat(int version, int[] innerChunks) {
        this(version, innerChunks, Compressor.defaultCompressor(), Scalar.zero());
    }

    /** Zarr v2, Cubed's default. */
    public static ZarrFormat v2() {
        return new ZarrFormat(2, null);
    }

    /**
     * Zarr v2 with {@code compressor} (null: uncompressed) and {@code fillValue} (checked against the array's data
     * type when the array is created), e.g. to keep a source array's codec and fill value in a copy.
     */
    public static ZarrFormat v2(Compressor compressor, Scalar fillValue) {
        return new ZarrFormat(2, null, compressor, java.util.Objects.requireNonNull(fillValue, "fillValue"));
    }

    /** Zarr v3 with one stored chunk per Cubed chunk, codecs bytes (little-endian) then zstd. */
    public static ZarrFormat v3() {
        return new ZarrFormat(3, null);
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
        return new ZarrFormat(3, innerChunks.clone());
    }

    public int version() {
        return version;
    }

    /** The inner chunk shape of a sharded format, or null. */
    public int[] innerChunks() {
        return innerChunks == null ? null : innerChunks.clone();
    }

    /** Creates an array of {@code grid} and {@code dtype} at {@code url} in this format (fill value zero). */
    public ChunkStore create(String url, ChunkGrid grid, DType dtype, boolean overwrite, StoreOptions options) {
        if (version == 2) {
            return ZarrArray.create(
                    url,
                    ZarrCreateOptions.builder(grid.shape(), grid.chunkShape(), dtype)
                            .compressor(compressor)
                            .fillValue(fillValue)
                            .overwrite(overwrite)
                            .build(),
                    options);
        }
        List<V3Codec> codecs = ZarrV3Metadata.defaultCodecs();
        if (innerChunks != null) {
            int[] outer = grid.chunkShape();
            if (innerChunks.length != outer.length) {
                throw new InvalidArgumentException(
                        "cannot write " + url + " sharded: inner chunks " + Arrays.toString(innerChunks)
                                + " do not have the rank of its chunks " + Arrays.toString(outer));
            }
            for (int a = 0; a < outer.length; a++) {
                if (outer[a] % innerChunks[a] != 0) {
                    throw new InvalidArgumentException("cannot write " + url + " sharded: inner chunks "
                            + Arrays.toString(innerChunks) + " do not divide its chunks (the shards) "
                            + Arrays.toString(outer) + "; rechunk it to a multiple of the inner chunks first");
                }
            }
            codecs = ZarrV3Metadata.sharding(innerChunks, List.of(new V3Codec.Zstd(0, false)));
        }
        ZarrV3Metadata m = ZarrV3Metadata.create(grid.shape(), grid.chunkShape(), dtype, Scalar.zero(), codecs);
        return ZarrV3Array.create(url, m, overwrite, options);
    }

    @Override
    public String toString() {
        return version == 2
                ? "zarr v2 (" + (compressor == null ? "uncompressed" : compressor) + ", fill " + fillValue + ")"
                : innerChunks == null ? "zarr v3" : "zarr v3 sharded " + Arrays.toString(innerChunks);
    }
}
